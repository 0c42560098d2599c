"""banker: the digital Banker for a physical game of Monopoly (US G0009)."""

__version__ = "0.2.0"
