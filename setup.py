"""The packages: banker and its sub-packages, plus the top-level templates/ and static/ folders,
which a wheel (or a non-editable install) carries as banker/templates and banker/static.
Everything else is in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["banker", "banker.*"]), "banker.templates", "banker.static"],
    package_dir={"banker.templates": "templates", "banker.static": "static"},
)
