"""Every form of a page as a browser sees it, read from its HTML without a browser: the app
tests press its buttons (tests/app/test_pages.py) and check that each active one is a command
the core accepts (tests/app/test_controls_accepted.py)."""

from __future__ import annotations

from html.parser import HTMLParser

from werkzeug.datastructures import MultiDict


class _Forms(HTMLParser):
    """Each form: its action and method; its fields as sent (checked boxes, selected options,
    typed values); the names of its typed inputs and the values of its radio groups; its
    buttons with their type, formmethod, hidden and disabled."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form = self._select = self._button = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {"action": a.get("action", ""), "method": a.get("method", "get"),
                          "fields": [], "typed": [], "radios": {}, "buttons": []}  # fmt: skip
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "select" and a.get("name"):
            self._select = [a["name"], None]
        elif tag == "option" and self._select is not None:
            if self._select[1] is None or "selected" in a:
                self._select[1] = a.get("value", "")
        elif tag in ("input", "textarea") and a.get("name"):
            kind = a.get("type", "text")
            if kind == "radio":
                self._form["radios"].setdefault(a["name"], []).append(a.get("value", ""))
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind not in ("hidden", "checkbox", "radio", "file"):
                self._form["typed"].append(a["name"])
            self._form["fields"].append((a["name"], a.get("value", "")))
        elif tag == "button":
            self._button = {"name": a.get("name"), "value": a.get("value", ""), "text": "",
                            "type": a.get("type", "submit"), "formmethod": a.get("formmethod"),
                            "hidden": "hidden" in a, "disabled": "disabled" in a}  # fmt: skip
            self._form["buttons"].append(self._button)

    def handle_data(self, data):
        if self._button is not None:
            self._button["text"] += data

    def handle_endtag(self, tag):
        if tag == "select" and self._select is not None and self._form is not None:
            self._form["fields"].append(tuple(self._select))
            self._select = None
        elif tag == "button":
            self._button = None
        elif tag == "form":
            self._form = None


def forms_of(html: str) -> list[dict]:
    """The page's forms (see _Forms)."""
    parser = _Forms()
    parser.feed(html)
    return parser.forms


def commands_buttons(form: dict) -> list[dict]:
    """The buttons that send a form as a command: submit buttons shown, not a redraw (a
    formmethod="get" Review)."""
    return [
        b for b in form["buttons"]
        if b["type"] == "submit" and not b["hidden"] and b["formmethod"] != "get"
    ]  # fmt: skip


def as_sent(state: dict, form: dict, button: dict, typed: list[str]) -> list:
    """The form and its button as a person may send them, as MultiDicts: each of `typed` (the
    inputs still to type) filled with a value the core allows (a bid one above the high bid, a
    correction of 1 with a reason; a trade's cash kept as it is), and one of each choice of its
    radio groups not yet made, every combination (a control is a promise if some choice is
    accepted: Take to the Bank from a player with cash); [] when what it needs cannot be
    guessed."""
    data = MultiDict(form["fields"])
    if button["name"]:
        data[button["name"]] = button["value"]
    if form["action"].endswith("/claim"):
        data["type"] = "claim_rent"
    kind = data.get("type")
    for name in typed:
        if name == "amount" and kind == "bid":
            a = state["pending"]["auction"]
            data[name] = str(a["high_bid"] + 1 if a["high_bidder"] else 10)
        elif name == "amount" and kind == "adjust":
            data[name] = "1"
        elif name == "reason":
            data[name] = "a check"
        elif not name.endswith("_cash"):
            return []
    sent = [data]
    for name, values in form["radios"].items():
        if name not in data:
            sent = [MultiDict({**d.to_dict(flat=False), name: [v]}) for d in sent for v in values]
    return sent
