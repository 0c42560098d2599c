"""bench.tables --played: the tables are games under way, each the same played game resumed from
its snapshot, and the command each table sends is one the game accepts (a player still in)."""

from __future__ import annotations

import json

from bench.tables import played_tables
from tests.serving import call, serving


def test_played_tables_are_one_played_game_resumed_for_each_and_their_command_is_accepted(
    tmp_path,
):
    with serving(tmp_path / "p.db") as server:
        port = int(server.url.rsplit(":", 1)[1])
        games = played_tables(port, 3, 40)
        assert len({g["game_id"] for g in games}) == 3
        states = []
        for g in games:
            status, _, state = call(
                f"{server.url}/api/v1/games/{g['game_id']}", token=g["banker_token"]
            )
            assert status == 200
            states.append({k: v for k, v in state.items() if k != "game_id"})
        assert states[0]["version"] == 40 + 2  # started, 40 commands, then the one each is sent
        assert states[1] == states[0] == states[2]
        for g in games:
            command = json.loads(g["command"])
            assert command["type"] == "adjust"
            status, _, answer = call(f"{server.url}/api/v1/games/{g['game_id']}/commands", "POST",
                                     command, g["banker_token"])  # fmt: skip
            assert status == 200, answer
            assert answer["version"] == 43
