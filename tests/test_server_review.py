"""The coach at the server: a finished deal's review for the history page — a player's own
seat only (any seat for an outsider of a public table), worked out in the bots' queue with
its progress, then kept in the database, equal to ``rummy21 review``'s."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from starlette.testclient import TestClient
from test_server_helpers import make_app
from test_server_history import bearer, deal_logs, play

from rummy21.review import review_deal

WORLDS = 12
"""The server's review budget in these tests (its default is the search's 96)."""


def wait_review(client: TestClient, path: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    """Every answer to ``path`` until the review is done (the last)."""
    answers = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        reply = client.get(path, headers=headers)
        assert reply.status_code == 200, reply.text
        answers.append(reply.json())
        if answers[-1]["status"] == "done":
            return answers
        time.sleep(0.05)
    raise AssertionError(f"no review after 120 s: {answers[-1]}")


def test_a_player_reviews_its_own_seat_and_the_review_is_kept(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, review_worlds=WORLDS)) as client:
        made, joined, _ = play(client, public=False)
        code = made["code"]
        path = f"/api/tables/{code}/deals/0/review"
        answers = wait_review(client, path, bearer(made["token"]))
        assert answers[0]["status"] in ("running", "done")
        running = [a for a in answers if a["status"] == "running"]
        assert all(a["total"] is None or 0 <= a["done"] <= a["total"] for a in running)
        review = answers[-1]["review"]
        assert answers[-1]["seat"] == 0
        lines = deal_logs(tmp_path, code)[0]
        expected = review_deal(lines, seat=0, worlds=WORLDS)
        assert review["summary"] == expected.summary()
        assert [d["played"] for d in review["decisions"]] == [
            str(d.played) for d in expected.decisions
        ]
        assert all(isinstance(d["step"], int) and d["step"] > 0 for d in review["decisions"])
        assert review["chart"].startswith("<svg")
        # Asked again: the kept review, at once.
        again = client.get(path, headers=bearer(made["token"])).json()
        assert again["status"] == "done" and again["review"] == review
        # Bob reviews his own seat, not Ann's; nobody else reviews anything.
        mine = client.get(path, headers=bearer(joined["token"])).json()
        assert mine["seat"] == 1
        other = client.get(path + "?seat=0", headers=bearer(joined["token"]))
        assert other.status_code == 403 and "only its own seat" in other.text
        assert client.get(path).status_code == 403
        assert (
            client.get(
                f"/api/tables/{code}/deals/7/review", headers=bearer(made["token"])
            ).status_code
            == 409
        )


def test_an_outsider_of_a_public_table_reviews_any_seat(tmp_path: Path) -> None:
    with TestClient(make_app(tmp_path, review_worlds=WORLDS)) as client:
        made, _, _ = play(client, public=True)
        path = f"/api/tables/{made['code']}/deals/1/review"
        assert client.get(path).status_code == 400  # which seat?
        done = wait_review(client, path + "?seat=2", {})[-1]
        assert done["seat"] == 2 and done["review"]["summary"]["seat"] == 2
        assert client.get(path + "?seat=5").status_code == 400
