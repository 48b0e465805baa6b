"""Schema migrations: a database made by the release before migrations (``metadata.create_all``,
no ``alembic_version``) is upgraded when the new server starts on it, and its rooms load and
play on; the revisions build exactly the tables the code uses.

Runs on SQLite, and on PostgreSQL too when ``RUMMY21_TEST_POSTGRES`` holds a database URL.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("alembic")

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from serving import fresh_database
from starlette.testclient import TestClient
from test_server_helpers import Seat

from rummy21.bots import make_bots, play_deal
from rummy21.game import Table
from rummy21.game.match import deal_seed
from rummy21.server import create_app, migrations, present, repository
from rummy21.server.store import Store, metadata

POSTGRES = os.environ.get("RUMMY21_TEST_POSTGRES")
SETTINGS: dict[str, Any] = {
    "bot_delay": 0.0,
    "next_deal_seconds": 0.0,
    "allow_seed": True,
    "rate_limit": None,
}

# ------------------------------------------------------------------------------------------
# The schema of rummy21 0.1.0, frozen: ``git show bd876c6:src/rummy21/server/store.py``, the
# last release that made its tables with ``metadata.create_all``. Never edit this copy.
OLD = sa.MetaData()
sa.Table(
    "rooms",
    OLD,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("config", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
)
sa.Table(
    "seats",
    OLD,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(16), nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
)
sa.Table(
    "deals",
    OLD,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("dealer", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("reason", sa.String(16), nullable=True),
    sa.Column("option", sa.String(4), nullable=True),
    sa.Column("turns", sa.Integer, nullable=True),
    sa.Column("scores", sa.Text, nullable=True),
)
sa.Table(
    "events",
    OLD,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("deal", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("data", sa.Text, nullable=False),
)
# ------------------------------------------------------------------------------------------

CODE = "LEGACY"
TOKEN = "legacy-seat-token-0"
SEED = 7


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new, empty database (PostgreSQL: a new database on ``RUMMY21_TEST_POSTGRES``'s
    server, dropped afterwards)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'rummy21.sqlite3'}"
        return
    if not POSTGRES:
        pytest.skip("RUMMY21_TEST_POSTGRES is not set")
    with fresh_database(POSTGRES) as database:
        yield database


def schema_differences(engine: sa.Engine, wanted: sa.MetaData) -> list[Any]:
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, wanted))


def revision(engine: sa.Engine) -> str | None:
    with engine.connect() as conn:
        return migrations.current(conn)


def old_deals() -> tuple[Table, Table]:
    """Deal 0 of the legacy room played to its end, and deal 1 played a few turns, up to
    seat 0's turn (two seats; the dealer and the seeds as a seeded room deals them)."""
    bots = make_bots(["random", "random"], seed=SEED)
    first = Table(2, seed=deal_seed(SEED, 0), dealer=1)
    play_deal(first, bots)
    second = Table(2, seed=deal_seed(SEED, 1), dealer=0)
    while second.turns < 5 or second.turn != 0:
        seat = second.turn
        assert seat is not None
        second.apply(bots[seat].choose(second.view(seat), second.legal_actions()))
        assert not second.over, "pick another seed: deal 1 ended too soon"
    return first, second


def make_legacy_database(
    url: str, first: Table, second: Table | None, second_ended: bool = False
) -> None:
    """The database the release before migrations left: its tables (``create_all``), a
    2-deal room of one human and one greedy bot with deal 0 finished and deal 1 dealt (in
    progress, or over with its summary missing), written as that release wrote them."""
    engine = sa.create_engine(url)
    OLD.create_all(engine)
    now = datetime.now(UTC)
    config = {
        "players": 2,
        "rules": "classic",
        "point_value": "0.5",
        "turn_seconds": 0,
        "deals": 2,
        "kinds": ["human", "greedy"],
        "host": 0,
        "public_history": False,
    }
    tables = {t.name: t for t in OLD.sorted_tables}
    with engine.begin() as conn:
        conn.execute(
            tables["rooms"]
            .insert()
            .values(
                code=CODE, created_at=now, config=json.dumps(config), seed=SEED, status="playing"
            )
        )
        conn.execute(
            tables["seats"].insert(),
            [
                {
                    "code": CODE,
                    "seat": 0,
                    "kind": "human",
                    "bot": None,
                    "name": "Ann",
                    "token_hash": hashlib.sha256(TOKEN.encode()).hexdigest(),
                    "joined_at": now,
                },
                {
                    "code": CODE,
                    "seat": 1,
                    "kind": "bot",
                    "bot": "greedy",
                    "name": None,
                    "token_hash": None,
                    "joined_at": now,
                },
            ],
        )
        for number, table in enumerate([first, second]):
            if table is None:
                continue
            result = table.result
            ended = result is not None and (number == 0 or second_ended)
            conn.execute(
                tables["deals"]
                .insert()
                .values(
                    code=CODE,
                    number=number,
                    dealer=table.dealer,
                    seed=table.seed,
                    started_at=now,
                    ended_at=now if ended else None,
                    winner=result.winner if ended and result else None,
                    reason=result.reason.value if ended and result else None,
                    option=str(result.option) if ended and result and result.option else None,
                    turns=table.turns if ended else None,
                    scores=json.dumps(list(result.scores)) if ended and result else None,
                )
            )
            conn.execute(
                tables["events"].insert(),
                [
                    {"code": CODE, "deal": number, "seq": seq, "data": json.dumps(e.to_dict())}
                    for seq, e in enumerate(table.log)
                ],
            )
    engine.dispose()


# ------------------------------------------------------------------------------------------
def test_the_revisions_build_the_tables_the_code_uses(url: str) -> None:
    store = Store(url)
    try:
        assert revision(store.engine) == migrations.head()
        assert schema_differences(store.engine, metadata) == []
    finally:
        store.close()
    again = Store(url)  # a database at the latest revision is left as it is
    try:
        assert revision(again.engine) == migrations.head()
    finally:
        again.close()


def test_the_first_revision_is_the_schema_of_the_release_before_migrations(url: str) -> None:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            command.upgrade(migrations.alembic_config(conn), migrations.BASELINE)
        assert schema_differences(engine, OLD) == []
    finally:
        engine.dispose()


def test_a_database_of_the_release_before_migrations_is_upgraded_and_plays_on(url: str) -> None:
    first, second = old_deals()
    make_legacy_database(url, first, second)
    engine = sa.create_engine(url)
    assert revision(engine) is None
    with TestClient(create_app(url, **SETTINGS)) as client:
        assert revision(engine) == migrations.head()
        info = client.get(f"/api/tables/{CODE}").json()
        assert (info["status"], info["deal"], info["deals_done"]) == ("playing", 1, 1)
        assert [s["name"] for s in info["seats"]] == ["Ann", "Meera"]
        history = client.get(
            f"/api/tables/{CODE}/deals", headers={"Authorization": f"Bearer {TOKEN}"}
        ).json()
        assert first.scores is not None
        assert [d["scores"] for d in history["finished"]] == [list(first.scores)]
        replay = client.get(
            f"/api/tables/{CODE}/deals/0", headers={"Authorization": f"Bearer {TOKEN}"}
        ).json()
        assert replay["result"]["scores"] == list(first.scores)
        with client.websocket_connect(f"/ws/{CODE}") as ws:
            seat = Seat(ws, TOKEN)
            state = seat.hello()
            assert state["deal"]["hand"] == present.deal_view(second, 0)["hand"]
            assert state["deal"]["turns"] == second.turns and state["deal"]["my_turn"]
            assert state["match"]["totals"] == list(first.scores)
            final = seat.play_until(lambda s: s["room"]["status"] == "finished", random.Random(1))
        assert len(final["match"]["history"]) == 2 and sum(final["match"]["totals"]) == 0
    with TestClient(create_app(url, **SETTINGS)) as client:  # and again, already upgraded
        info = client.get(f"/api/tables/{CODE}").json()
        assert (info["status"], info["deals_done"]) == ("finished", 2)
    assert revision(engine) == migrations.head()
    engine.dispose()


def test_a_deal_that_ended_without_its_summary_is_repaired_on_purpose(url: str) -> None:
    first, second = old_deals()
    play_deal(second, make_bots(["random", "random"], seed=SEED + 1))
    make_legacy_database(url, first, second, second_ended=False)
    store = Store(url)
    try:
        stored = store.run_sync(lambda conn: repository.load_room(conn, CODE), write=False)
        assert stored is not None and stored.last is not None and not stored.last.ended
        # Reading wrote nothing: the summary is still missing.
        again = store.run_sync(lambda conn: repository.load_room(conn, CODE), write=False)
        assert again is not None and again.last is not None and not again.last.ended
    finally:
        store.close()
    with TestClient(create_app(url, **SETTINGS)) as client:
        info = client.get(f"/api/tables/{CODE}").json()
        assert (info["status"], info["deals_done"]) == ("finished", 2)
    store = Store(url)
    try:
        repaired = store.run_sync(lambda conn: repository.load_room(conn, CODE), write=False)
        assert repaired is not None and repaired.status == "finished"
        assert second.scores is not None
        assert [d.scores for d in repaired.deals] == [first.scores, second.scores]
    finally:
        store.close()


def test_a_database_with_only_some_of_the_tables_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'odd.sqlite3'}"
    engine = sa.create_engine(url)
    OLD.tables["rooms"].create(engine)
    engine.dispose()
    with pytest.raises(migrations.MigrationError, match="not deals, events, seats"):
        Store(url)
