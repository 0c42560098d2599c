"""The packaged board data agrees with the printed figures held in tests/data/g0009.json (whose
source tests/data/README.md names)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from banker.rules import board
from banker.rules.board import (
    CARDS,
    COLOR_GROUPS,
    DEED_IDS,
    DEEDS,
    GROUPS,
    RAILROADS,
    SPACES,
    UTILITIES,
)

DATA = Path(__file__).resolve().parents[1] / "data"
REFERENCE = json.loads((DATA / "g0009.json").read_text("utf-8"))
RAW = {s["index"]: s for s in REFERENCE["board"]}


def test_the_packaged_data_is_the_checked_reference():
    """ "Board, prices, rents, house and hotel costs, mortgage values, taxes ... the 16 Chance and
    16 Community Chest cards: ../reference/g0009.json." (rules README)"""
    assert board.REFERENCE == REFERENCE


def test_the_board_has_40_spaces_in_order_with_their_printed_names():
    assert len(SPACES) == 40
    assert [s.index for s in SPACES] == list(range(40))
    assert [s.name for s in SPACES] == [RAW[i]["name"] for i in range(40)]
    assert [s.kind for s in SPACES] == [RAW[i]["type"] for i in range(40)]
    corners = {0: "GO", 10: "In Jail / Just Visiting", 20: "Free Parking", 30: "Go to Jail"}
    assert {i: SPACES[i].name for i in corners} == corners
    assert (board.JAIL, board.GO_TO_JAIL) == (10, 30)


def test_chance_and_community_chest_stand_where_the_board_prints_them():
    assert [s.index for s in SPACES if s.kind == "chance"] == [7, 22, 36]
    assert [s.index for s in SPACES if s.kind == "community_chest"] == [2, 17, 33]


def test_income_tax_is_200_and_luxury_tax_100():
    """ "Income Tax: pay the Bank $200. Luxury Tax: pay the Bank $100." (classic)"""
    taxes = {s.index: (s.name, s.amount) for s in SPACES if s.kind == "tax"}
    assert taxes == {4: ("Income Tax", 200), 38: ("Luxury Tax", 100)}
    assert REFERENCE["taxes"]["income_tax"]["amount"] == 200
    assert REFERENCE["taxes"]["luxury_tax"]["amount"] == 100


def test_there_are_28_deeds_in_board_order_by_their_reference_ids():
    """ "28 Title Deeds" (G0009 box contents)."""
    assert len(DEEDS) == 28
    expected = [
        s["id"] for s in REFERENCE["board"] if s["type"] in ("street", "railroad", "utility")
    ]
    assert list(DEED_IDS) == expected
    for deed in DEEDS.values():
        raw = RAW[deed.index]
        assert (deed.id, deed.name, deed.kind, deed.price) == (
            raw["id"],
            raw["name"],
            raw["type"],
            raw["price"],
        )
        assert SPACES[deed.index].deed == deed.id


def test_there_are_8_color_groups_of_2_3_3_3_3_3_3_2_streets():
    assert COLOR_GROUPS == (
        "brown",
        "light_blue",
        "pink",
        "orange",
        "red",
        "yellow",
        "green",
        "dark_blue",
    )
    assert [len(GROUPS[g]) for g in COLOR_GROUPS] == [2, 3, 3, 3, 3, 3, 3, 2]
    for group in COLOR_GROUPS:
        assert [DEEDS[d].index for d in GROUPS[group]] == REFERENCE["color_groups"][group]
    assert sum(len(GROUPS[g]) for g in COLOR_GROUPS) == 22


def test_there_are_4_railroads_and_2_utilities():
    assert [DEEDS[d].index for d in RAILROADS] == [5, 15, 25, 35]
    assert [DEEDS[d].index for d in UTILITIES] == [12, 28]
    assert all(DEEDS[d].price == 200 and DEEDS[d].rents == (25, 50, 100, 200) for d in RAILROADS)
    assert all(DEEDS[d].price == 150 and DEEDS[d].rents == (4, 10) for d in UTILITIES)


@pytest.mark.parametrize("deed_id", DEED_IDS)
def test_every_deed_reads_as_its_reference_entry(deed_id):
    deed, raw = DEEDS[deed_id], RAW[DEEDS[deed_id].index]
    assert deed.mortgage_value == raw["mortgage_value"]
    assert deed.unmortgage_value == raw["unmortgage_value"]
    if deed.kind == "street":
        r = raw["rent"]
        assert deed.rents == (
            r["base"],
            r["color_set"],
            r["house_1"],
            r["house_2"],
            r["house_3"],
            r["house_4"],
            r["hotel"],
        )
        assert deed.group == raw["color_group"]
        assert (deed.house_cost, deed.hotel_cost) == (raw["house_cost"], raw["hotel_cost"])
        # "owning the whole color set doubles its undeveloped street rent"
        assert deed.rents[1] == 2 * deed.rents[0]
        assert list(deed.rents[2:]) == sorted(deed.rents[2:])
    else:
        assert (deed.house_cost, deed.hotel_cost) == (0, 0)


@pytest.mark.parametrize("deed_id", DEED_IDS)
def test_the_mortgage_value_is_half_the_price_for_every_deed(deed_id):
    deed = DEEDS[deed_id]
    assert deed.mortgage_value * 2 == deed.price


@pytest.mark.parametrize("deed_id", DEED_IDS)
def test_the_unmortgage_cost_is_the_mortgage_value_plus_10_percent_rounded_up(deed_id):
    """ "To lift a mortgage later, pay the Bank the mortgage value plus 10%" (classic) -- the same
    figures as the G0009 deeds' printed unmortgage cost (README)."""
    deed = DEEDS[deed_id]
    assert deed.unmortgage_value == math.ceil(deed.mortgage_value * 11 / 10)
    assert deed.lift_cost("g0009") == deed.unmortgage_value
    assert deed.lift_cost("classic") == deed.unmortgage_value


def test_the_two_half_dollar_unmortgage_costs_round_up():
    assert DEEDS["electric-company"].unmortgage_value == 83
    assert DEEDS["water-works"].unmortgage_value == 83
    assert DEEDS["park-place"].unmortgage_value == 193
    assert board.ten_percent(75) == 8 and board.ten_percent(100) == 10


def test_house_costs_are_50_100_150_200_by_side_of_the_board_and_a_hotel_costs_the_same():
    for deed in DEEDS.values():
        if deed.kind == "street":
            side = deed.index // 10
            assert deed.house_cost == (50, 100, 150, 200)[side], deed.name
            assert deed.hotel_cost == deed.house_cost, deed.name


def test_a_few_deeds_read_exactly_as_printed():
    assert DEEDS["mediterranean-avenue"].rents == (2, 4, 10, 30, 90, 160, 250)
    assert DEEDS["boardwalk"].rents == (50, 100, 200, 600, 1400, 1700, 2000)
    assert (
        DEEDS["boardwalk"].price,
        DEEDS["boardwalk"].mortgage_value,
        DEEDS["boardwalk"].unmortgage_value,
    ) == (400, 200, 220)
    assert DEEDS["b-and-o-railroad"].name == "B. & O. Railroad"


def test_there_are_16_chance_and_16_community_chest_cards():
    """ "16 Chance cards, 16 Community Chest cards" (G0009 box contents)."""
    for deck in ("chance", "community_chest"):
        raw = REFERENCE["cards"][deck]
        assert sum(c.get("copies", 1) for c in raw) == 16
        assert list(CARDS[deck]) == [c["id"] for c in raw]
        for c in raw:
            card = CARDS[deck][c["id"]]
            assert (card.deck, card.text, card.effect) == (deck, c["text"], c["effect"])
    assert len(CARDS["chance"]) == 15  # the next-railroad card comes twice
    assert CARDS["chance"]["advance-to-next-railroad"].id == "advance-to-next-railroad"
    assert [
        c["copies"] for c in REFERENCE["cards"]["chance"] if c["id"] == "advance-to-next-railroad"
    ] == [2]


def test_each_deck_has_one_get_out_of_jail_free_card_and_one_go_to_jail_card():
    for deck in ("chance", "community_chest"):
        kinds = [c.effect["kind"] for c in CARDS[deck].values()]
        assert kinds.count("get_out_of_jail_free") == 1
        assert kinds.count("go_to_jail") == 1
        assert board.JAIL_CARD in CARDS[deck]


def test_every_card_effect_is_one_the_core_knows():
    known = {
        "move_to",
        "move_to_nearest",
        "move_relative",
        "collect",
        "pay",
        "get_out_of_jail_free",
        "go_to_jail",
        "repairs",
        "pay_each_player",
        "collect_from_each_player",
    }
    for deck in CARDS.values():
        for card in deck.values():
            assert card.effect["kind"] in known, card.id
            if card.effect["kind"] in ("move_to",):
                assert 0 <= card.effect["target"] <= 39


def test_the_money_and_supply_facts():
    """ "32 houses, 12 hotels, 1,500 starting cash, 200 for passing or landing on GO, jail fine 50."
    (rules README)"""
    assert (board.HOUSES, board.HOTELS) == (32, 12)
    assert (REFERENCE["components"]["houses"], REFERENCE["components"]["hotels"]) == (32, 12)
    assert board.STARTING_CASH == REFERENCE["money"]["starting_cash_per_player"] == 1500
    assert board.GO_SALARY == REFERENCE["money"]["go_salary"] == 200
    assert board.JAIL_FINE == REFERENCE["money"]["jail_fine"] == 50
    assert (
        sum(
            REFERENCE["money"]["starting_breakdown_legacy_rules"][k] * int(k)
            for k in REFERENCE["money"]["starting_breakdown_legacy_rules"]
        )
        == 1500
    )
