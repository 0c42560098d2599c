"""The Banker's and the players' forms read every command as the core's schema says.

`banker.web.common.forms` derives each command's fields, their order and their JSON types from
`banker.rules.COMMAND_SCHEMA` (the schema the OpenAPI document is made from). These tests hold
the three together: a form filled in gives exactly the command the core reads back, a form left
empty names the field it lacks, and every form the templates post carries its command's fields.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from werkzeug.datastructures import MultiDict

from banker.rules import COMMAND_SCHEMA, new_game
from banker.rules.board import CARDS
from banker.rules.schema import read
from banker.web.common import forms

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
STATE = new_game("g1", "g0009", ["Ann", "Bob", "Cy"], None)
PLAYER_TYPES = forms.TYPES | {"propose_trade"}


def a_value(kind: str, field, shape: dict):
    """A value of the field's JSON type that the core accepts."""
    if shape["type"] == "integer":
        return 5 if shape["minimum"] <= 5 <= shape["maximum"] else shape["minimum"]
    if shape["type"] == "array":
        if shape["items"]["type"] == "integer":
            return [3, 4]
        return [shape["items"]["enum"][0]]
    if shape["type"] == "object":
        return {part: a_value(kind, field, sub) for part, sub in shape["properties"].items()}
    if field.name == "card":
        return next(iter(CARDS["chance"]))
    if "enum" in shape:
        return "chance" if "chance" in shape["enum"] else shape["enum"][0]
    if "pattern" in shape:
        return "p2"
    return "a reason"


def filled(kind: str) -> tuple[MultiDict, dict]:
    """A form of command `kind` with every field filled in, and the command it stands for."""
    form, command = MultiDict({"type": kind}), {"type": kind}
    for field in COMMAND_SCHEMA[kind].fields:
        shape = field.schema()
        value = command[field.name] = a_value(kind, field, shape)
        if shape["type"] == "array" and shape["items"]["type"] == "integer":
            form.update({"d1": str(value[0]), "d2": str(value[1])})
        elif shape["type"] == "object":
            for part, v in value.items():
                name = f"{field.name}_{part}"
                form.setlist(name, v if isinstance(v, list) else [f"{v:,}"])
        elif isinstance(value, list):
            form.setlist(field.name, value)
        else:
            form[field.name] = str(value)
    return form, command


@pytest.mark.parametrize("kind", sorted(PLAYER_TYPES))
def test_a_filled_form_is_exactly_the_command_the_core_reads(kind):
    form, command = filled(kind)
    sent = forms.command_from(form, PLAYER_TYPES)
    assert sent == command
    assert read(STATE, sent) == command  # the core's own reading: nothing to correct


@pytest.mark.parametrize("kind", sorted(PLAYER_TYPES))
def test_a_form_lacking_a_required_field_names_it(kind):
    for field in COMMAND_SCHEMA[kind].fields:
        if not field.required or field.blank:
            continue  # defaulted by the core, or refused in the core's own words
        form, _ = filled(kind)
        for name, carried in forms.inputs(kind).items():
            if carried == field.name:
                form.poplist(name)
        with pytest.raises(forms.FormError) as refused:
            forms.command_from(form, PLAYER_TYPES)
        shape = field.schema()
        if shape["type"] == "array":
            assert refused.value.message == "Tap what each die shows: a number from 1 to 6."
        elif shape["type"] == "integer":
            assert refused.value.message == f"Type {field.label}."
        else:
            assert refused.value.message == f"Choose {field.label} first."


def test_a_whole_number_typed_wrong_is_refused_with_the_fields_label():
    form, _ = filled("bid")
    form["amount"] = "twelve"
    with pytest.raises(forms.FormError) as refused:
        forms.command_from(form)
    assert refused.value.message == "Type the bid as a whole number of dollars, such as 120."
    form["amount"] = "1,200"
    assert forms.command_from(form)["amount"] == 1200
    form["raise"] = "300"
    assert forms.command_from(form)["amount"] == 300


def test_a_correction_taken_to_the_bank_is_negative():
    form, command = filled("adjust")
    form["direction"] = "take"
    assert forms.command_from(form) == {**command, "amount": -command["amount"]}


def test_the_banker_forms_send_every_command_but_a_players_trade_offer():
    assert forms.TYPES == set(COMMAND_SCHEMA) - {"propose_trade"}
    with pytest.raises(forms.FormError):
        forms.command_from(MultiDict({"type": "propose_trade"}))


# -- what the templates post ---------------------------------------------------------------

# `{% call act("bid", …) %} … {% endcall %}` (the Banker's and the players' macro), its type a
# string or `"a" if x else "b"`; the inputs inside it.
_ACT = re.compile(r"\{%-?\s*call\s+act\((.*?)%\}(.*?)\{%-?\s*endcall", re.S)
_PAGE_CONTROLS = {"pad"}  # which roll the dice pad is entering (the pages', not the command's)
_SIDES = ("give", "receive")
# A deed row's buttons post `act(a.type, …)`: one of the deed actions (banker/web/common/deeds.py).
DEED_ACTIONS = {"build", "sell_building", "mortgage", "unmortgage"}


_MACRO = re.compile(r"\{%-?\s*macro\s+(\w+)\((.*?)\{%-?\s*endmacro", re.S)


def _macros() -> dict[str, str]:
    """Every template macro's body by name (a form may draw some of its inputs with one)."""
    return {
        name: body
        for path in TEMPLATES.rglob("*.html")
        for name, body in _MACRO.findall(path.read_text())
        if name != "act"
    }


def input_names(text: str, macros: dict[str, str], seen: frozenset = frozenset()) -> set[str]:
    """The input names a piece of template posts, those of the macros it calls included."""
    names = set(re.findall(r'name="([^"]+)"', text))
    for called in set(re.findall(r"\b(\w+)\(", text)) & set(macros) - seen:
        names |= input_names(macros[called], macros, seen | {called})
    if "{{ side.prefix }}" in " ".join(names):
        names = {n.replace("{{ side.prefix }}", s) for n in names for s in _SIDES}
    return names


def posted_forms() -> list[tuple[str, set[str], set[str]]]:
    """(template, the command types a form may post, its input names) for every act form."""
    found, macros = [], _macros()
    for path in sorted(TEMPLATES.rglob("*.html")):
        for head, body in _ACT.findall(path.read_text()):
            first = head.split(",")[0]
            kinds = set(re.findall(r'"(\w+)"', first)) or (
                DEED_ACTIONS if "a.type" in first else set()
            )
            found.append((path.relative_to(TEMPLATES).as_posix(), kinds, input_names(body, macros)))
    return found


def test_the_templates_forms_are_found():
    found = posted_forms()
    kinds = set().union(*(k for _, k, _ in found))
    # Every command a Banker's form sends has its form (propose_trade: the player's own form).
    assert len(found) >= 30
    assert {"roll", "rent_roll", "bid", "trade", "adjust", "move", "draw_card"} <= kinds
    assert forms.TYPES - kinds == set()


@pytest.mark.parametrize("template,kinds,names", posted_forms())
def test_every_form_a_template_posts_carries_its_commands_fields(template, kinds, names):
    carried = set(_PAGE_CONTROLS)
    for kind in kinds:
        assert kind in PLAYER_TYPES, f"{template} posts {kind}, which is not a command"
        inputs = forms.inputs(kind)
        carried |= set(inputs)
        for field in COMMAND_SCHEMA[kind].fields:
            if field.required:
                mine = {n for n, f in inputs.items() if f == field.name}
                assert mine & names, f"{template}: {kind} lacks {field.name}"
    unknown = names - carried
    assert not unknown, f"{template} posts inputs no field of {sorted(kinds)} reads: {unknown}"


def test_the_deed_rows_actions_each_read_the_deed_they_are_on():
    for kind in DEED_ACTIONS:
        assert [f.name for f in COMMAND_SCHEMA[kind].fields] == ["property"]


def test_the_players_trade_offer_form_carries_the_trade_fields():
    names = input_names((TEMPLATES / "player" / "_compose.html").read_text(), _macros())
    inputs = forms.inputs("propose_trade")
    assert set(inputs) - {"from"} <= names  # from: the player whose page it is
