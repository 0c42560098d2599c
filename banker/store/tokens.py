"""The token index: who a token is in a game (banker, a player, the display), new links that
replace a seat's token at once, and cheap look-ups from memory for the phones' polls."""

from __future__ import annotations

import hashlib
import secrets

import sqlite_utils

from banker import rules
from banker.store.database import Database
from banker.store.errors import PlayerNotFound, UnknownSeat


def same_token(given: str, token: str) -> bool:
    """Whether a token sent by a client is `token`, compared in constant time."""
    # As bytes: compare_digest refuses str with non-ASCII characters, which a client may send.
    return secrets.compare_digest(given.encode(), token.encode())


def new_secret() -> str:
    """A fresh token: 24 random bytes, URL-safe."""
    return secrets.token_urlsafe(24)


def key_scope(token: str) -> str:
    """The scope of a token's Idempotency-Keys, stored instead of the token itself."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def seat_changes(before: dict, after: dict) -> tuple[list[str], list[str]]:
    """The player ids a command seated (`add_player`) and took away (an undo of it)."""
    old = [p["id"] for p in before["players"]]
    new = [p["id"] for p in after["players"]]
    return [pid for pid in new if pid not in old], [pid for pid in old if pid not in new]


class Tokens:
    """Who a token is in the store's games, and new links. Player and display tokens map to
    their game in memory after first use. (The current tokens of a game are its GameInMemory's,
    kept by `games`.)"""

    def __init__(self, database: Database, games) -> None:
        self.database, self.games = database, games
        # Player token -> game id, filled on first use: a player page's poll never reads SQLite.
        self._token_games: dict[str, str] = {}
        self._display_games: dict[str, str] = {}  # the same for display tokens

    def role(self, game_id: str, token: str) -> str | None:
        """Who `token` is in this game: "banker", a player id, "display", or None (a stranger,
        or a token replaced by a new link)."""
        game = self.games.get(game_id)
        if same_token(token, game.banker_token):
            return "banker"
        if same_token(token, game.display_token):
            return "display"
        for player_token, player_id in game.player_tokens.items():
            if same_token(token, player_token):
                return player_id
        return None

    def players(self, game_id: str) -> list[dict]:
        """The game's players with their tokens: [{"id", "name", "token"}] in seating order."""
        game = self.games.get(game_id)
        token_of = {player_id: token for token, player_id in game.player_tokens.items()}
        return [
            {"id": p["id"], "name": p["name"], "token": token_of.get(p["id"])}
            for p in rules.public_state(game.state)["players"]
        ]

    def find_player_token(self, token: str) -> tuple[str, str] | None:
        """(game id, player id) for a player's token, or None when unknown or revoked."""
        row = self.database.one(
            "select game_id, player_id from player_tokens where token = ? and not revoked",
            [token],
        )
        return None if row is None else (row["game_id"], row["player_id"])

    def banker_token(self, game_id: str) -> str:
        """The banker token of a game."""
        return self.games.get(game_id).banker_token

    def display_token(self, game_id: str) -> str:
        """The display token of a game (its big screen's link)."""
        return self.games.get(game_id).display_token

    def game_for_display_token(self, token: str) -> str | None:
        """The game whose current display token is `token`, else None; from memory after once."""
        game_id = self._display_games.get(token)
        if game_id is None:
            row = self.database.one("select id from games where display_token = ?", [token])
            if row is None:
                return None
            game_id = row["id"]
        if not same_token(token, self.games.get(game_id).display_token):
            self._display_games.pop(token, None)
            return None
        self._display_games[token] = game_id
        return game_id

    def token_revoked(self, token: str, game_id: str | None = None) -> str | None:
        """The seat ("banker", "display" or a player id) `token` was replaced for (in game
        `game_id`, when given), else None."""
        row = self.database.one("select seat, game_id from revoked_tokens where token = ?", [token])
        if row is None:
            row = self.database.one(
                "select player_id as seat, game_id from player_tokens where token = ? and revoked",
                [token],
            )
        if row is None or (game_id is not None and row["game_id"] != game_id):
            return None
        return row["seat"]

    def player_by_token(self, token: str) -> tuple[str, str] | None:
        """(game id, player id) for a current player token, else None; from memory after once.

        A player's page polls this every second or so: only the first look at a token reads
        SQLite. A token replaced by rotate_player_token is refused at once.
        """
        game_id = self._token_games.get(token)
        if game_id is None:
            found = self.find_player_token(token)
            if found is None:
                return None
            game_id = found[0]
            self._token_games[token] = game_id
        player_id = self.games.get(game_id).player_tokens.get(token)
        if player_id is None:
            return None
        return game_id, player_id

    def player_token_revoked(self, token: str) -> bool:
        """Whether `token` was a player's token that the Banker has since replaced."""
        return (
            self.database.one("select 1 from player_tokens where token = ? and revoked", [token])
            is not None
        )

    def new_token(self, game_id: str, seat: str) -> str:
        """A new token for a seat ("banker", "display" or a player id): its new link. The seat's
        old token stops working at once (API, pages, polls); token_revoked() then names the seat.
        An unknown seat raises UnknownSeat (400) and changes nothing."""
        game = self.games.get(game_id)
        if seat not in ("banker", "display"):
            if not isinstance(seat, str) or all(p["id"] != seat for p in game.state["players"]):
                raise UnknownSeat(
                    f"There is no seat {seat!r} in game {game_id!r}: ask for "
                    '"banker", "display" or a player id.'
                )
            return self.rotate_player_token(game_id, seat)
        with game.lock:
            token, old = new_secret(), getattr(game, f"{seat}_token")
            with self.database.transaction() as db:
                db["revoked_tokens"].insert({"token": old, "game_id": game_id, "seat": seat})
                db["games"].update(game_id, {f"{seat}_token": token})
            setattr(game, f"{seat}_token", token)
            self._display_games.pop(old, None)
        self.games.tell(game_id, "tokens")
        return token

    def rotate_player_token(self, game_id: str, player_id: str) -> str:
        """Give a player a new token (their new link); their old one stops working at once."""
        game = self.games.get(game_id)
        with game.lock:
            if all(p["id"] != player_id for p in game.state["players"]):
                raise PlayerNotFound(f"There is no player {player_id!r} in game {game_id!r}.")
            token = new_secret()
            with self.database.transaction() as db:
                db.execute(
                    "update player_tokens set revoked = 1 "
                    "where game_id = ? and player_id = ? and not revoked",
                    [game_id, player_id],
                )
                db["player_tokens"].insert(
                    {"token": token, "game_id": game_id, "player_id": player_id, "revoked": 0}
                )
            # A new dict swapped in whole: role() may be iterating the old one in another thread.
            old = [t for t, p in game.player_tokens.items() if p == player_id]
            tokens = {t: p for t, p in game.player_tokens.items() if p != player_id}
            tokens[token] = player_id
            game.player_tokens = tokens
            for t in old:
                self._token_games.pop(t, None)
        self.games.tell(game_id, "tokens")
        return token

    @staticmethod
    def write_seats(
        db: sqlite_utils.Database, game_id: str, added: dict[str, str], gone: list[str]
    ) -> None:
        """In a command's transaction: a token for each player it seated (their link, which a
        new link replaces as any player's), and none any more for a player an undo took away
        (the id is never given again: the token would open nothing)."""
        if added:
            db["player_tokens"].insert_all(
                {"token": token, "game_id": game_id, "player_id": pid, "revoked": 0}
                for token, pid in added.items()
            )
        for pid in gone:
            db.execute(
                "delete from player_tokens where game_id = ? and player_id = ?", [game_id, pid]
            )

    def seats_written(self, game, added: dict[str, str], gone: list[str]) -> None:
        """Once committed: the in-memory tokens follow (a new dict swapped in whole)."""
        dropped = [t for t, pid in game.player_tokens.items() if pid in gone]
        tokens = {t: pid for t, pid in game.player_tokens.items() if pid not in gone}
        game.player_tokens = {**tokens, **added}
        for token in dropped:
            self._token_games.pop(token, None)

    def forget_game(self, game_id: str) -> None:
        """A removed game's tokens leave the in-memory maps."""
        for cache in (self._token_games, self._display_games):
            for token in [t for t, g in cache.items() if g == game_id]:
                cache.pop(token, None)
