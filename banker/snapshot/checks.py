"""The snapshot's refusals and its field checks: each check reads one value of a snapshot and
names where the problem is (banker/snapshot/__init__.py runs them over the whole document)."""

from __future__ import annotations

import json
from datetime import datetime

from banker.rules.errors import Refusal

_MAX_TIME = 40


class SnapshotError(Refusal):
    """A snapshot that cannot be resumed: 400 (malformed) or 422 (its log doesn't hold)."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message, code, status)


def _malformed(message: str, code: str = "bad_snapshot") -> SnapshotError:
    return SnapshotError(400, code, message)


def _refused(message: str, code: str) -> SnapshotError:
    return SnapshotError(422, code, message)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(value, where: str, fields: set[str], required: set[str]) -> dict:
    if not isinstance(value, dict):
        raise _malformed(f"{where} must be a JSON object.")
    unknown = sorted(str(k) for k in set(value) - fields)
    if unknown:
        raise _malformed(f"{where} has an unknown field {unknown[0][:40]!r}.")
    missing = sorted(required - set(value))
    if missing:
        raise _malformed(f"{where} lacks the field {missing[0]!r}.")
    return value


def _string(value, where: str, max_len: int, min_len: int = 1) -> str:
    if not isinstance(value, str):
        raise _malformed(f"{where} must be a string.")
    if not min_len <= len(value) <= max_len:
        raise _malformed(f"{where} must have {min_len} to {max_len} characters.")
    return value


def _time(value, where: str) -> str:
    _string(value, where, _MAX_TIME)
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise _malformed(f"{where} must be a date and time such as 2026-11-29T21:04:05Z.") from None
    return value


def _whole(value, where: str, lo: int, hi: int) -> int:
    if not _is_int(value):
        raise _malformed(f"{where} must be a whole number.")
    if not lo <= value <= hi:
        raise _malformed(f"{where} must be between {lo} and {hi}.")
    return value


def _depth(value) -> int:
    """How deeply a JSON value nests (counted without recursion: it may be hostile)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def _first_difference(recorded, replayed, path: str = "state") -> str | None:
    """Where two JSON values first differ (types count: 1, 1.0 and true are all different)."""
    if type(recorded) is not type(replayed):
        return (
            f"{path} (recorded a {type(recorded).__name__}, replayed a {type(replayed).__name__})"
        )
    if isinstance(recorded, dict):
        for key in sorted(set(recorded) | set(replayed), key=str):
            if key not in recorded or key not in replayed:
                return f"{path}.{key}"
            where = _first_difference(recorded[key], replayed[key], f"{path}.{key}")
            if where:
                return where
        return None
    if isinstance(recorded, list):
        if len(recorded) != len(replayed):
            return f"{path} (length {len(recorded)}, not {len(replayed)})"
        for i, (a, b) in enumerate(zip(recorded, replayed, strict=True)):
            where = _first_difference(a, b, f"{path}[{i}]")
            if where:
                return where
        return None
    if recorded == replayed:
        return None
    return f"{path} (recorded {json.dumps(recorded)[:40]}, replayed {json.dumps(replayed)[:40]})"


def _with_game_id(value, old: str, new: str):
    """A copy of a state with every game_id `old` (the undo history's too) replaced by `new`."""
    if isinstance(value, dict):
        return {
            k: new if k == "game_id" and v == old else _with_game_id(v, old, new)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_with_game_id(v, old, new) for v in value]
    return value
