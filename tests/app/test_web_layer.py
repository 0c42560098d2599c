"""One web layer: the checks every page needs are made once, for every blueprint."""

from __future__ import annotations

import re

import jinja2
from markupsafe import Markup

from banker.rules import BadCommand, DomainError, Refusal
from banker.snapshot import SnapshotError
from banker.store import DiskFull, StoreError, VersionConflict
from banker.web.common.errors import ApiError
from banker.web.common.forms import FormError
from banker.web.common.guards import CROSS_SITE

PARAMS = {"token": "x", "player_id": "p1"}  # every other parameter is the game's id


def test_every_form_post_outside_the_json_api_is_refused_when_sent_from_another_site(
    app, client, game
):
    posts = [
        r
        for r in app.url_map.iter_rules()
        if "POST" in r.methods and not r.rule.startswith("/api/")
    ]
    assert len(posts) >= 6  # the Banker's, the player's, the seat's and the resume forms
    before = game.now()
    for rule in posts:
        path = re.sub(
            r"<(?:\w+:)?(\w+)>", lambda m: game.id if m[1] == "game_id" else "x", rule.rule
        )
        r = client.post(path, data={"type": "buy"}, headers={"Origin": "http://evil.example"})
        assert (r.status_code, CROSS_SITE in r.get_data(as_text=True)) == (403, True), rule.rule
    assert game.now() == before


def test_the_json_api_is_not_judged_by_the_origin_of_the_page_that_sent_it(client, game):
    r = client.post(
        f"/api/v1/games/{game.id}/commands",
        json={"type": "roll", "player": "p1", "dice": [1, 2]},
        headers={**game.auth(), "Origin": "http://evil.example"},
    )
    assert r.status_code == 200


def test_every_refusal_is_one_kind_carrying_status_code_and_message():
    refusals = [
        DomainError("No property is on offer.", "no_offer"),
        BadCommand("'dice' must be two whole numbers.", "wrong_type"),
        VersionConflict("The game is at version 3, not 2."),
        DiskFull(),
        SnapshotError(400, "bad_snapshot", "The file is not a snapshot."),
        ApiError(401, "token_missing", "Send the token."),
        FormError("Choose the deed first."),
    ]
    seen = [(type(e).__name__, e.status, e.code, bool(e.message)) for e in refusals]
    assert all(isinstance(e, Refusal) for e in refusals)
    assert isinstance(refusals[2], StoreError)
    assert seen == [
        ("DomainError", 422, "no_offer", True),
        ("BadCommand", 400, "wrong_type", True),
        ("VersionConflict", 409, "version_conflict", True),
        ("DiskFull", 507, "disk_full", True),
        ("SnapshotError", 400, "bad_snapshot", True),
        ("ApiError", 401, "token_missing", True),
        ("FormError", 400, "bad_form", True),
    ]


def test_money_is_a_filter_and_a_global_of_every_template(app):
    with app.app_context():
        env = app.jinja_env
        assert env.from_string("{{ 1500|money }} {{ money(25) }} {{ none|money }}").render() == (
            "1,500 25 —"
        )


def test_a_template_holds_every_global_in_one_dict_as_the_app_made_them(app):
    """banker.web.app.Templates: a template's globals are a dict (Jinja's ChainMap was read key
    by key at every context a view opened), the very functions the app installed, and a
    template's own globals still overlay the app's."""
    with app.test_request_context("/"):
        env = app.jinja_env
        loaded = env.get_template("player/_live.html")
        assert type(loaded.globals) is dict
        assert set(env.globals) <= set(loaded.globals)
        assert all(loaded.globals[k] is v for k, v in env.globals.items())
        own = env.from_string("{{ money(5) }} {{ url_for('static', filename='x.css') }}",
                              globals={"money": lambda n: f"M{n}"})  # fmt: skip
        assert own.render().startswith("M5 /static/x.css")


def test_a_templates_dotted_name_on_a_dict_answers_as_jinjas_own(app):
    """banker.web.app.Templates.getattr reads a plain dict's item first (no AttributeError
    raised for it): for every kind of name, on a dict, a dict of its own kind and other
    objects, the answer is the one Jinja's `getattr` gives, an undefined one alike."""

    class Mine(dict):
        colour = "red"

    env, jinja = app.jinja_env, jinja2.Environment()
    plain = {"name": "Ann", "items": "shadowed by the method", "cash": 0, "__len__": 3}
    objects = [plain, Mine(name="Bob", colour="blue"), [1, 2], "text", 7, None, Markup("<b>")]
    names = ["name", "cash", "items", "get", "keys", "colour", "__len__", "__class__",
             "missing", "upper", "real"]  # fmt: skip
    for obj in objects:
        for name in names:
            ours, theirs = env.getattr(obj, name), jinja.getattr(obj, name)
            if isinstance(theirs, jinja2.Undefined):
                assert isinstance(ours, jinja2.Undefined) and str(ours) == ""
                assert (ours._undefined_obj, ours._undefined_name) == (obj, name)
            else:
                assert ours == theirs, (obj, name)
    rendered = env.from_string(
        "{{ p.name }} {{ p.cash }} {{ p.items()|list|length }}[{{ p.nope }}]"
    )
    assert rendered.render(p=plain) == "Ann 0 4[]"
