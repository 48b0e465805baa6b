"""Playing over the WebSocket: whole deals against bots, declarations, time-outs, and every kind
of bad message (illegal, out of turn, malformed, oversized, fuzzed) answered with a clear error
that changes nothing."""

from __future__ import annotations

import json
import random
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from test_server_helpers import Seat, create_table, make_app

from rummy21.cards import Card, parse_cards
from rummy21.game import Table
from rummy21.game.dealing import arrange_shoe
from rummy21.ruleset import RuleSet
from rummy21.server.protocol import MAX_MESSAGE_BYTES

WINNER = "7S 8S 9S 10S JS 2H 3H 4H 5H JC QC KC 5D 5D 5D AH AD AC 9C 9H KH"
LOSER = "KS QS 9S 6S 3S KH JH 9H 6H 4H 2H KD JD 10D 4D 2D QC 10C 8C 5C 3C"


def golden_table(players: int, rules: RuleSet, dealer: int, number: int, seed: int | None) -> Table:
    """Deals the golden 'valid declaration' hands: seat 0 completes 9C 9H with 9D."""
    shoe = arrange_shoe(
        [parse_cards(WINNER), parse_cards(LOSER)],
        Card.parse("7D"),
        Card.parse("3D"),
        dealer=dealer,
        printed_jokers=rules.printed_jokers,
        stock=parse_cards("4S 2C 9D"),
    )
    return Table(players, rules, dealer=dealer, shoe=shoe, seed=seed)


def room_of(client: TestClient, code: str) -> Any:
    return client.app.state.tables.rooms[code]  # type: ignore[attr-defined]


def test_a_match_of_two_deals_against_greedy_and_random_bots(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        made = create_table(
            client, ["human", "greedy", "random"], deals=2, seed=11, point_value="0.5"
        )
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            seat.hello()
            final = seat.play_until(
                lambda s: s["room"]["status"] == "finished", random.Random(3), drop_chance=0.1
            )
        match = final["match"]
        assert len(match["history"]) == 2 and match["deal"] == 1
        assert sum(match["totals"]) == 0
        assert [Decimal(m) for m in match["money"]] == [t * Decimal("0.5") for t in match["totals"]]
        result = final["result"]
        assert result["deal"] == 1 and sum(result["scores"]) == 0
        assert [s["seat"] for s in result["seats"]] == [0, 1, 2]


def test_a_valid_declaration_through_the_socket(tmp_path: Path) -> None:
    app = make_app(tmp_path, table_factory=golden_table)
    with TestClient(app) as client:
        made = create_table(client, ["human", "human"])
        joined = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bob"}).json()
        with (
            client.websocket_connect(f"/ws/{made['code']}") as ws0,
            client.websocket_connect(f"/ws/{made['code']}") as ws1,
        ):
            ann, bob = Seat(ws0, made["token"]), Seat(ws1, joined["token"])
            ann.hello()
            bob.hello()
            assert ann.deal["jokers"]["cut"] == "7D" and ann.deal["turn"] == 0
            arranged = ann.request({"type": "arrange"})
            assert arranged["type"] == "arranged" and arranged["reading"]["penalty"] > 0
            assert ann.request({"type": "action", "action": "draw"})["type"] == "ack"
            assert (
                ann.request({"type": "action", "action": "discard", "card": "4S"})["type"] == "ack"
            )
            bob.wait(lambda s: s["deal"]["my_turn"])
            assert bob.request({"type": "action", "action": "draw"})["type"] == "ack"
            assert (
                bob.request({"type": "action", "action": "discard", "card": "2C"})["type"] == "ack"
            )
            ann.wait(lambda s: s["deal"]["my_turn"])
            assert ann.request({"type": "action", "action": "draw"})["type"] == "ack"
            assert ann.deal["drawn"] == "9D"

            labels = ann.request(
                {"type": "groups", "groups": [["9C", "9H", "9D"], ["KS", "AS"], ["8S", "8S"]]}
            )
            assert labels["type"] == "error" and "not in your hand" in labels["error"]
            labels = ann.request(
                {"type": "groups", "groups": [["9C", "9H", "9D"], ["7S", "8S"], ["5D", "5D", "5D"]]}
            )
            assert [g["label"] for g in labels["labels"]] == ["set", "not valid", "tunnela"]
            assert "dublee" in labels["labels"][1]["reason"]
            assert labels["reading"]["valid"] and labels["reading"]["discard"] == "KH"

            groups = [
                ["7S", "8S", "9S", "10S", "JS"],
                ["2H", "3H", "4H", "5H"],
                ["JC", "QC", "KC"],
                ["5D", "5D", "5D"],
                ["AH", "AD", "AC"],
                ["9C", "9H", "9D"],
            ]
            bad = ann.request({"type": "check_declare", "card": "KH", "groups": groups[:2]})
            assert bad["type"] == "declare_check" and bad["options_as_shown"] == []
            assert bad["valid"] and bad["reasons"]  # judged on the cards, layout explained
            check = ann.request({"type": "check_declare", "card": "KH", "groups": groups})
            assert check["valid"] and check["option"] == "A" and check["reasons"] == []
            assert [g["label"] for g in check["labels"]] == [
                "pure sequence",
                "pure sequence",
                "pure sequence",
                "tunnela",
                "set",
                "set",
            ]
            done = ann.request(
                {"type": "action", "action": "declare", "card": "KH", "groups": groups}
            )
            assert done["type"] == "ack"
            state = ann.wait(lambda s: s["result"] is not None)
            result = state["result"]
            assert result["winner"] == 0 and result["option"] == "A" and result["finish"] == "KH"
            assert result["seats"][1]["penalty"] == 120 and result["scores"][0] > 0
            bob_state = bob.wait(lambda s: s["result"] is not None)
            assert bob_state["result"]["seats"][0]["cards"]  # the winner's hand is shown


def test_time_outs_come_from_the_server_clock(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path)) as client:
        made = create_table(client, ["human", "random"], turn_seconds=1)
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            state = seat.hello()
            assert state["deadline"] is not None and state["deal"]["my_turn"]
            assert 0 < state["deadline"] - state["server_now"] <= 1000
            # Do nothing: three time-outs in a row drop the seat, and the bot wins.
            final = seat.wait(lambda s: s["result"] is not None, timeout=20)
            actions = [e["action"] for e in final["deal"]["history"] if e["seat"] == 0]
            assert actions.count("timed_out") == 3 and "dropped" in actions
            assert final["result"]["seats"][0]["rule"] == "middle_drop"
            assert final["result"]["winner"] == 1


def _errors_answered(seat: Seat, room: Any, messages: list[Any], code: str, words: str) -> None:
    for message in messages:
        log_before, hand_before = len(room.table.log), room.table.hand(0)
        seat.send(message)
        reply = seat.recv()
        assert reply["type"] == "error", (message, reply)
        assert reply["code"] == code and words in reply["error"], (message, reply)
        assert len(room.table.log) == log_before and room.table.hand(0) == hand_before
        # The reply names the refused message by its id, when it gave a usable one.
        given = message.get("id") if isinstance(message, dict) else None
        usable = isinstance(given, int) and not isinstance(given, bool) and given >= 0
        assert reply["id"] == (given if usable else None), (message, reply)


def test_bad_messages_get_clear_errors_and_change_nothing(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_delay=60)) as client:
        made = create_table(client, ["human", "random"])
        room = room_of(client, made["code"])
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            _errors_answered(
                seat, room, [{"type": "action", "action": "draw"}], "unauthorized", "hello"
            )
            seat.hello()
            version = seat.state["version"]  # type: ignore[index]
            _errors_answered(
                seat,
                room,
                [
                    "{not json",
                    "[]",
                    "42",
                    '{"type": 3}',
                    b"\x00\xff",
                    {"type": "shout"},
                    {"type": "action"},
                    {"type": "action", "action": "fly"},
                    {"type": "action", "action": "discard"},
                    {"type": "action", "action": "discard", "card": "1Z"},
                    {"type": "action", "action": "discard", "card": 7},
                    {"type": "action", "action": "draw", "source": "deck"},
                    {"type": "action", "action": "drop", "extra": True},
                    {"type": "groups", "groups": "AS 2S 3S"},
                    {"type": "groups", "groups": [["AS"]] * 30},
                    {"type": "ping", "id": -1},
                    {"type": 3, "id": 41},
                    {"type": "shout", "id": 42},
                    {"type": "action", "action": "fly", "id": 43},
                    {"type": "action", "action": "discard", "card": "1Z", "id": 0},
                    {"type": "action", "action": "draw", "source": "deck", "id": "x"},
                    {"type": "hello", "token": made["token"]},
                ],
                "malformed",
                "",
            )
            _errors_answered(
                seat,
                room,
                [
                    {"type": "action", "action": "discard", "card": "AS"},
                    {"type": "action", "action": "declare", "card": "AS", "id": 44},
                    {"type": "check_declare", "card": "AS"},
                ],
                "illegal",
                "",
            )
            huge = json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE_BYTES})
            _errors_answered(seat, room, [huge], "too_large", "at most 8192 bytes")

            assert seat.request({"type": "action", "action": "draw"})["type"] == "ack"
            seat.wait(lambda s: s["deal"]["phase"] == "discard")
            hand = seat.deal["hand"]
            absent = next(str(c) for c in map(Card, range(53)) if str(c) not in hand)
            _errors_answered(
                seat,
                room,
                [
                    {"type": "action", "action": "draw", "source": "stock"},
                    {"type": "action", "action": "drop"},
                    {"type": "action", "action": "discard", "card": absent},
                    {"type": "action", "action": "declare", "card": absent},
                    {"type": "action", "action": "declare", "card": hand[0], "groups": [[absent]]},
                ],
                "illegal",
                "",
            )
            # A refusal says why in data as well as in words (the engine's code and values).
            seat.send({"type": "action", "action": "discard", "card": absent, "id": 45})
            refused = seat.recv()
            assert refused["reason"] == {"code": "not_held", "card": absent}, refused
            assert (
                seat.request({"type": "action", "action": "discard", "card": seat.deal["drawn"]})[
                    "type"
                ]
                == "ack"
            )
            seat.wait(lambda s: s["deal"]["turn"] == 1)
            _errors_answered(
                seat,
                room,
                [
                    {"type": "action", "action": "draw"},
                    {"type": "action", "action": "drop"},
                    {"type": "action", "action": "discard", "card": hand[0]},
                ],
                "not_your_turn",
                "turn",
            )
            # Only the two accepted actions changed the state.
            states = [json.loads(m) for m in seat.messages]
            changes = {s["version"] for s in states if s["type"] == "state"}
            assert max(changes) == version + 2


def test_rate_limit(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_delay=60, rate_limit=5)) as client:
        made = create_table(client, ["human", "random"])
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            seat.hello()
            for n in range(1, 31):
                seat.send({"type": "ping", "id": n})
            replies = [seat.recv() for _ in range(30)]
            kinds = Counter(r.get("code") or r["type"] for r in replies)
            assert kinds["pong"] >= 5 and kinds["rate_limited"] >= 10, kinds
            assert set(kinds) == {"pong", "rate_limited"}
            # Every message is answered, a refused one too, with its own id.
            assert sorted(r["id"] for r in replies) == list(range(1, 31))


def test_a_client_that_keeps_flooding_after_being_told_is_disconnected(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_delay=60, rate_limit=5)) as client:
        made = create_table(client, ["human", "random"])
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            seat.hello()
            for n in range(1, 201):
                seat.send({"type": "ping", "id": n})
            replies = []
            with pytest.raises(ConnectionError, match="1008"):
                while True:
                    replies.append(seat.recv())
            assert "disconnected" in replies[-1]["error"] and replies[-1]["id"]
            assert 50 <= len(replies) < 200


def test_a_failed_commit_undoes_the_move(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_delay=60)) as client:
        made = create_table(client, ["human", "random"])
        room = room_of(client, made["code"])
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            seat.hello()
            before = (len(room.table.log), room.table.hand(0), room.table.stock_size)
            real_write = room.store.write
            calls: list[object] = []

            async def failing(ops: list[Any]) -> Any:
                if not calls:
                    calls.append(1)
                    raise RuntimeError("disk full")
                return await real_write(ops)

            room.store.write = failing
            try:
                reply = seat.request({"type": "action", "action": "draw"})
            finally:
                room.store.write = real_write
            assert reply["type"] == "error" and reply["code"] == "server"
            assert (len(room.table.log), room.table.hand(0), room.table.stock_size) == before
            state = seat.wait(lambda s: s["deal"]["phase"] == "draw")
            assert len(state["deal"]["hand"]) == 21
            assert seat.request({"type": "action", "action": "draw"})["type"] == "ack"


# ------------------------------------------------------------------------- fuzzing
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
CARDISH = (
    st.sampled_from(["AS", "10H", "JK", "1Z", "", "7h", "QQ"]) | st.text(max_size=4) | st.integers()
)
MESSAGES = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["action", "groups", "arrange", "check_declare", "ready", "ping", "hello", "nope"]
        )
        | st.text(max_size=6)
    },
    optional={
        "action": st.sampled_from(["draw", "discard", "declare", "drop", "x"]),
        "card": CARDISH,
        "source": st.sampled_from(["stock", "open", "both"]) | JSON,
        "groups": st.lists(st.lists(CARDISH, max_size=4), max_size=4) | JSON,
        "id": st.integers(-3, 2**60) | st.text(max_size=3),
        "token": st.text(max_size=40),
        "junk": JSON,
    },
)
PAYLOADS = (
    MESSAGES.map(json.dumps) | st.text(max_size=60) | st.binary(max_size=40) | JSON.map(json.dumps)
)


def _harmless(payload: Any) -> Any:
    """While the player may draw, a draw or drop would be legal: fuzz the illegal rest."""
    if isinstance(payload, str):
        try:
            data = json.loads(payload)
        except ValueError:
            return payload
        if isinstance(data, dict) and data.get("action") in ("draw", "drop"):
            data["action"] = "discard"
            return json.dumps(data)
    return payload


def test_fuzzed_messages_never_change_the_game(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, bot_delay=60)) as client:
        made = create_table(client, ["human", "random"])
        room = room_of(client, made["code"])
        with client.websocket_connect(f"/ws/{made['code']}") as ws:
            seat = Seat(ws, made["token"])
            seat.hello()
            replies = {"error", "groups", "arranged", "pong", "ack", "declare_check"}

            def check(payload: Any) -> None:
                log_before = list(room.table.log)
                seat.send(_harmless(payload))
                reply = seat.recv()
                assert reply["type"] in replies, reply
                if reply["type"] == "error":
                    assert reply["error"] and reply["code"]
                assert list(room.table.log) == log_before

            @settings(
                max_examples=250,
                deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
            )
            @given(PAYLOADS)
            def in_my_turn(payload: Any) -> None:
                check(payload)

            in_my_turn()
            assert seat.request({"type": "action", "action": "draw"})["type"] == "ack"
            assert (
                seat.request({"type": "action", "action": "discard", "card": seat.deal["drawn"]})[
                    "type"
                ]
                == "ack"
            )
            seat.wait(lambda s: s["deal"]["turn"] == 1)

            @settings(
                max_examples=150,
                deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
            )
            @given(MESSAGES.map(json.dumps))
            def out_of_turn(payload: str) -> None:
                check(payload)

            out_of_turn()
