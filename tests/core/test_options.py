"""Every game option is declared once (banker/rules/options.py), and a new game reads them from
that table: each at its declared default, an edition's own only in that edition, nothing else."""

from __future__ import annotations

import pytest

from banker.rules import BadCommand, DomainError, new_game, state_schema, upgrade
from banker.rules.options import EDITIONS, GROUPS, OPTIONS, checked_options, form_groups

TEAMS = ["Ann", "Bob", "Cat", "Dan"]


def test_every_option_is_a_switch_with_a_label_help_a_part_of_the_form_and_known_editions():
    assert OPTIONS, "no option declared"
    for name, o in OPTIONS.items():
        assert o.name == name and o.type == "boolean"
        assert o.label and o.help.endswith("."), name
        assert o.group in GROUPS, name
        assert o.editions and set(o.editions) <= set(EDITIONS), name


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_game_created_without_options_has_each_at_its_declared_default(edition):
    state = new_game("g1", edition, list(TEAMS))
    expected = {n: o.default and edition in o.editions for n, o in OPTIONS.items()}
    assert state["options"] == expected


@pytest.mark.parametrize("name", [n for n, o in OPTIONS.items() if o.editions != EDITIONS])
def test_an_option_an_edition_does_not_offer_is_refused_there_when_switched_on(name):
    other = next(e for e in EDITIONS if e not in OPTIONS[name].editions)
    with pytest.raises(DomainError) as e:
        checked_options(other, {name: True})
    assert e.value.code == "not_in_edition" and name in e.value.message
    assert checked_options(other, {name: False})[name] is False
    assert checked_options(OPTIONS[name].editions[0], {name: True})[name] is True


@pytest.mark.parametrize(
    "given,code",
    [
        ([], "wrong_type"),
        ({"no_such_option": True}, "unknown_option"),
        ({"deadline": 1}, "wrong_type"),
    ],
)
def test_options_not_an_object_of_declared_switches_are_malformed(given, code):
    with pytest.raises(BadCommand) as e:
        checked_options("g0009", given)
    assert e.value.code == code


def test_the_states_shape_names_exactly_the_declared_options():
    shape = state_schema()["properties"]["options"]
    assert list(shape["properties"]) == list(OPTIONS)
    assert shape["required"] == list(OPTIONS)


def test_the_start_form_shows_every_option_once_in_its_declared_part():
    shown = [o.name for g in form_groups() for o in g["options"]]
    assert sorted(shown) == sorted(OPTIONS)
    assert [g["title"] for g in form_groups()] == [
        GROUPS[k] for k in GROUPS if any(o.group == k for o in OPTIONS.values())
    ]


@pytest.mark.parametrize("name", list(OPTIONS))
def test_a_game_stored_before_an_option_was_declared_is_read_with_it_at_its_default(name):
    state = new_game("g1", "g0009", list(TEAMS))
    before = {**state, "options": {k: v for k, v in state["options"].items() if k != name}}
    assert upgrade(before)["options"] == state["options"]
    assert upgrade(state) is state  # a state of today is read as it is
