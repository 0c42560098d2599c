"""The money of a change, sent first (issue 35): the moment a change is committed, before any
view is rendered, each push stream with a view that is behind it and not held by a tap is sent
the cash figures its page shows that changed, as a `figures` event (data: the version, then a
line per element: its id, a space, its text). The page (static/refresh.js) writes each text
into the element of that id at once, when the event is newer than its view and no tap of its
own is in flight; the view follows in the stream and is swapped in as ever. Tens of
microseconds for a table of six pages, on the event loop, where rendering the views takes the
render thread about ten milliseconds: money is on every screen a few milliseconds after the
command.

What a page shows is the web app's to say (`banker.web.common.pushed.figures`, registered as
"banker.push.figures": each player's cash as that seat may see it, by the id of the element
that shows it), so a player's stream under private cash carries only their own. The event has
no `id:`: the page has not the version until its view comes (a reconnect asks for the view).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from banker.net.streams import Stream


class Figures:
    """Each game's figures as last sent to each seat, to send only what changed since (when
    what a page shows is no longer known, all of them: a few bytes more)."""

    def __init__(self, shown: Callable[[dict, str, str | None], dict[str, str]]):
        self.shown = shown  # (state, kind, player) -> {element id: text}
        self.sent: dict[str, dict[tuple, dict[str, str]]] = {}

    def tell(self, game_id: str, state: dict, streams: Iterable[Stream]) -> None:
        """(On the loop.) Each stream of the game behind `state`'s version, showing a view and
        holding no tap, is given the figures of its seat that changed (nothing when none did)."""
        version = state["version"]
        sent = self.sent.setdefault(game_id, {})
        said: dict[tuple, str] = {}
        for s in streams:
            if s.taps:  # its page swaps its tap's answer: what it shows is no longer known
                sent.pop((s.kind, s.player), None)
                continue
            if s.view is None or s.closed:
                continue
            if s.version is not None and s.version >= version:
                continue
            seat = (s.kind, s.player)
            if seat not in said:
                try:
                    now = self.shown(state, *seat)
                except Exception:  # the view follows, and shows it
                    now = {}
                was = sent.get(seat, {})
                new = [f"data: {at} {text}\n" for at, text in now.items() if was.get(at) != text]
                sent[seat] = now
                said[seat] = f"event: figures\ndata: {version}\n{''.join(new)}\n" if new else ""
            if said[seat]:
                s.outbox.append(said[seat])
                s.wake()

    def drop(self, game_id: str) -> None:
        """What the game's pages show is no longer known (a page opened, or was sent its view
        without the figures first), or its last stream closed: all its figures go next time."""
        self.sent.pop(game_id, None)
