"""The server's HTTP side: health, lobby (create, join, info), pages, history, validation."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from starlette.testclient import TestClient
from test_server_helpers import Seat, create_table, make_app

from rummy21.bots import LEVELS
from rummy21.server import create_app


@pytest.fixture()
def client(tmp_path: Path):  # type: ignore[no-untyped-def]
    with TestClient(make_app(tmp_path)) as test_client:
        yield test_client


def test_healthz_and_pages(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    lobby = client.get("/")
    assert lobby.status_code == 200 and "Deal a table" in lobby.text
    assert "default-src 'self'" in lobby.headers["content-security-policy"]
    for path in (
        "/t/ABC123",
        "/t/ABC123/history",
        "/static/style.css",
        "/static/table.js",
        "/static/cards.js",
        "/static/lobby.js",
        "/static/history.js",
        "/static/views/hand.js",
        "/favicon.ico",
    ):
        assert client.get(path).status_code == 200, path
    worker = client.get("/sw.js")  # served at the root: its scope is every page
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
    assert client.get("/t/not-a-code!").status_code in (400, 404)


def test_pages_load_nothing_from_outside() -> None:
    static = Path(__file__).resolve().parents[1] / "src" / "rummy21" / "server" / "static"
    for path in (p for p in static.rglob("*") if p.is_file()):
        text = path.read_text()
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", ""), path.name
        assert "https://" not in text, path.name


def test_create_a_table_and_read_its_lobby(client: TestClient) -> None:
    made = create_table(
        client,
        ["human", "human", "greedy"],
        rules="adda52",
        point_value="0.25",
        turn_seconds=45,
        deals=2,
    )
    assert made["seat"] == 0 and len(made["token"]) >= 24 and made["url"] == f"/t/{made['code']}"
    info = client.get(f"/api/tables/{made['code'].lower()}").json()
    assert info["status"] == "waiting"
    assert info["rules"] == "adda52" and info["point_value"] == "0.25"
    assert [s["taken"] for s in info["seats"]] == [True, False, True]
    assert info["seats"][0]["name"] == "Ann" and info["seats"][2]["bot"] == "greedy"
    assert [s["level"] for s in info["seats"]] == [None, None, "Medium"]
    assert "token" not in str(info) and made["token"] not in str(info)


def test_the_bots_a_seat_may_get_are_listed_by_level(client: TestClient) -> None:
    """The lobby's choices come from the server, weakest first, named as players see them;
    each is a bot a table accepts."""
    listed = client.get("/api/bots").json()["bots"]
    assert listed == [
        {"name": "random", "level": "Easy"},
        {"name": "greedy", "level": "Medium"},
        {"name": "expert", "level": "Hard"},
        {"name": "learned", "level": LEVELS["learned"]},
        {"name": "race", "level": "Expert"},
        {"name": "search", "level": "Master"},
    ]
    for bot in listed:
        assert create_table(client, ["human", bot["name"]])["seat"] == 0


def test_joining_fills_the_table_and_starts_the_deal(client: TestClient) -> None:
    made = create_table(client, ["human", "human"])
    code = made["code"]
    joined = client.post(f"/api/tables/{code}/join", json={"name": "  Bob \u0007 "}).json()
    assert joined["seat"] == 1 and joined["token"] != made["token"]
    info = client.get(f"/api/tables/{code}").json()
    assert info["status"] == "playing" and info["seats"][1]["name"] == "Bob"
    long = client.post(f"/api/tables/{code}/join", json={"name": "Cy" * 2500})
    assert long.status_code == 422
    assert long.json()["error"] == "name: a display name has at most 24 characters"
    full = client.post(f"/api/tables/{code}/join", json={"name": "Cy"})
    assert full.status_code == 409 and "no open seat" in full.json()["error"]


@pytest.mark.parametrize(
    "body, words",
    [
        ({"name": "A", "seats": ["random", "greedy"]}, "at least one seat must be human"),
        ({"name": "A", "seats": ["human"]}, "seats"),
        ({"name": "A", "seats": ["human"] * 7}, "seats"),
        ({"name": "A", "seats": ["human", "robot"]}, "seats"),
        ({"name": "", "seats": ["human", "random"]}, "name"),
        (
            {"name": "A" * 30, "seats": ["human", "random"]},
            "a display name has at most 24 characters",
        ),
        (
            {"name": "A" * 201, "seats": ["human", "random"]},
            "a display name has at most 24 characters",
        ),
        (
            {"name": "A" * 5000, "seats": ["human", "random"]},
            "a display name has at most 24 characters",
        ),
        ({"name": "A", "seats": ["human", "random"], "point_value": "abc"}, "not 'abc'"),
        ({"name": "A", "seats": ["human", "random"], "point_value": "-1"}, "point value"),
        ({"name": "A", "seats": ["human", "random"], "rules": "nepali"}, "rules"),
        ({"name": "A", "seats": ["human", "random"], "turn_seconds": 9999}, "turn_seconds"),
        ({"name": "A", "seats": ["human", "random"], "extra": 1}, "extra"),
    ],
)
def test_bad_tables_are_refused_with_a_reason(
    client: TestClient, body: dict[str, object], words: str
) -> None:
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 422
    assert words in reply.json()["error"]


def test_live_servers_refuse_seeds(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'live.sqlite3'}")) as live:
        reply = live.post(
            "/api/tables", json={"name": "A", "seats": ["human", "random"], "seed": 3}
        )
        assert reply.status_code == 403 and "seed" in reply.json()["error"]
        made = live.post("/api/tables", json={"name": "A", "seats": ["human", "random"]})
        assert made.status_code == 201


def test_a_point_value_is_shown_as_it_is_written(client: TestClient) -> None:
    for written, shown in (("100", "100"), ("1E2", "100"), ("0.2500", "0.25"), ("0", "0")):
        made = create_table(client, ["human", "random"], point_value=written)
        assert client.get(f"/api/tables/{made['code']}").json()["point_value"] == shown


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code"),
    [
        ("post", "/api/tables", b'{"name": "\xff\xfe"}', 400, "malformed"),
        ("post", "/api/tables", b"\xff" * 10, 400, "malformed"),
        ("get", "/api/nothing", None, 404, "not_found"),
        ("put", "/api/tables", None, 405, "method_not_allowed"),
        ("delete", "/api/tables/ABCDEF", None, 405, "method_not_allowed"),
    ],
)
def test_every_refusal_has_the_api_error_shape(
    client: TestClient, method: str, path: str, body: bytes | None, status: int, code: str
) -> None:
    headers = {"content-type": "application/json"}
    reply = client.request(method.upper(), path, content=body, headers=headers)
    assert reply.status_code == status
    answer = reply.json()
    assert set(answer) == {"error", "code"} and answer["code"] == code and answer["error"]


def test_unknown_tables(client: TestClient) -> None:
    assert client.get("/api/tables/ZZZZZZ").status_code == 404
    assert client.post("/api/tables/ZZZZZZ/join", json={"name": "A"}).status_code == 404
    assert client.get("/api/tables/ZZZZZZ/deals").status_code == 404


def test_history_lists_finished_deals_and_replays_them(client: TestClient) -> None:
    made = create_table(client, ["human", "random"], deals=2)
    code = made["code"]
    auth = {"Authorization": f"Bearer {made['token']}"}
    assert client.get(f"/api/tables/{code}/deals/0", headers=auth).status_code == 409
    with client.websocket_connect(f"/ws/{code}") as ws:
        seat = Seat(ws, made["token"])
        seat.hello()
        seat.play_until(
            lambda s: s["room"]["status"] == "finished", random.Random(5), drop_chance=0.05
        )
    listing = client.get(f"/api/tables/{code}/deals", headers=auth).json()
    assert [d["deal"] for d in listing["finished"]] == [0, 1] and listing["viewer"] == 0
    assert listing["totals"] == [sum(d["scores"][s] for d in listing["finished"]) for s in range(2)]
    replay = client.get(f"/api/tables/{code}/deals/1", headers=auth).json()
    frames = replay["frames"]
    assert replay["viewer"] == 0
    assert frames[0]["events"][0]["action"] == "dealt"
    assert frames[-1]["events"][-1]["action"] == "deal_ended"
    assert all(len(f["hands"]) == 2 and len(f["counts"]) == 2 for f in frames)
    assert len(frames[0]["hands"][0]) == 21 and frames[0]["hands"][1] is None
    assert frames[0]["counts"] == [21, 21]
    assert "stock" not in frames[0] and "shoe" not in str(replay) and "seed" not in str(replay)
    assert replay["result"]["scores"] == listing["finished"][1]["scores"]
    assert client.get(f"/api/tables/{code}/deals/7", headers=auth).status_code == 409
