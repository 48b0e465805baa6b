"""The deployment example runs: ``deploy/run.sh --check`` starts two ``rummy21 serve --broker``
processes behind nginx (with ``deploy/nginx/rummy21.conf`` as shipped), plays a table through
nginx, kills one process and plays on (``deploy/check.py``).

Runs when nginx is installed and ``RUMMY21_TEST_POSTGRES`` and ``RUMMY21_TEST_REDIS`` hold
URLs (`.ci/run` sets them); skipped otherwise.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import fresh_database

POSTGRES = os.environ.get("RUMMY21_TEST_POSTGRES")
REDIS = os.environ.get("RUMMY21_TEST_REDIS")
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
pytestmark = [
    pytest.mark.skipif(
        not (POSTGRES and REDIS), reason="RUMMY21_TEST_POSTGRES and RUMMY21_TEST_REDIS not set"
    ),
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed"),
]
pytest.importorskip("sqlalchemy")
pytest.importorskip("redis")

ROOT = Path(__file__).resolve().parent.parent


def three_free_ports() -> int:
    """A port with the next two free as well (nginx's, then the two servers')."""
    for _ in range(50):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            base: int = sock.getsockname()[1]
        if base > 65000:
            continue
        try:
            for offset in (1, 2):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", base + offset))
        except OSError:
            continue
        return base
    raise AssertionError("no three free ports in a row")


@pytest.fixture()
def database() -> Iterator[str]:
    assert POSTGRES is not None
    with fresh_database(POSTGRES) as url:
        yield url


def test_two_servers_behind_nginx_lose_nothing_when_one_dies(database: str) -> None:
    assert REDIS is not None
    done = subprocess.run(
        [
            "bash",
            str(ROOT / "deploy" / "run.sh"),
            "--check",
            database,
            REDIS,
            str(three_free_ports()),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "RUMMY21": shutil.which("rummy21") or "rummy21"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "check passed" in done.stdout
    assert "one server killed: " in done.stdout
