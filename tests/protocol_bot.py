"""A bot program for the protocol's tests (run as a script): it plays legally, and
misbehaves as told on its N-th move request.

    python protocol_bot.py MODE [N] [LOG]

MODE: ``legal``; ``crash`` (exits), ``hang`` (answers 0.65 s late), ``garbage`` (writes what
is not JSON), ``illegal`` (names a move that is not legal), ``stale`` (answers another id
first, then the right one); ``layout`` (declares, at its first move after drawing from the
N-th on, with the card it drew and a layout of three other cards of its hand), ``badlayout``
(the same with a card it does not hold in the layout). With LOG it appends every line it
reads to that file (:func:`heard` reads it back).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any


def heard(log: Path) -> list[dict[str, Any]]:
    """The messages the bot read, from its LOG (once its input is closed, all of them)."""
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def keys_of(value: object) -> set[str]:
    """Every key of every object in ``value``, at any depth."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


def legal_move(message: dict[str, Any]) -> str:
    legal: list[str] = message["legal"]
    if "draw stock" in legal:
        return "draw stock"
    mine = f"discard {message['view']['drawn']}"
    return mine if mine in legal else next(a for a in legal if a.startswith("discard "))


def main(argv: list[str]) -> None:
    mode = argv[1]
    when = int(argv[2]) if len(argv) > 2 else 0
    log = open(argv[3], "a", encoding="utf-8") if len(argv) > 3 else None  # noqa: SIM115
    moves = 0
    for line in sys.stdin:
        if log is not None:
            log.write(line)
            log.flush()
        message = json.loads(line)
        if message["type"] != "move":
            continue
        moves += 1
        answer = {"id": message["id"], "action": legal_move(message)}
        drawn = message["view"]["drawn"]
        if mode in ("layout", "badlayout") and 0 < when <= moves and drawn is not None:
            hand = list(message["view"]["hand"])
            hand.remove(drawn)
            shown = hand[:3]
            if mode == "badlayout":
                shown[2] = next(c for c in ("JK", "AS", "2S", "3S", "4S") if c not in hand)
            answer["action"] = f"declare {drawn}: {' '.join(shown)}"
            when = 0  # (once)
        if moves == when:
            print(f"misbehaving: {mode}", file=sys.stderr, flush=True)
            if mode == "crash":
                sys.exit(3)
            if mode == "hang":
                time.sleep(0.65)
            if mode == "garbage":
                print("I think I'll draw", flush=True)
                continue
            if mode == "illegal":
                answer["action"] = "fly away"
            if mode == "stale":
                print(json.dumps({"id": message["id"] - 100, "action": "drop"}), flush=True)
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main(sys.argv)
