"""The Ray backend: a small tournament on a local Ray equals the local backend's.

Slow (a local Ray takes seconds to start); skipped when Ray is not installed (the ``ray``
extra, part of the ``test`` extra).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import rummy21.cli.tournament  # noqa: F401  (registers the command)
from rummy21.cli import app
from rummy21.tournament import Settings, run_shoes, summarize

ray = pytest.importorskip("ray")

pytestmark = pytest.mark.slow


def test_ray_plays_the_same_shoes_as_local_processes() -> None:
    settings = Settings(("random", "greedy"), players=2, deals=3, seed=8, turn_limit=8)
    local = list(run_shoes(settings, range(3), jobs=1))
    on_ray = list(run_shoes(settings, range(3), jobs=1, backend="ray"))
    assert sorted(on_ray, key=lambda r: r.number) == local
    assert summarize(settings, on_ray) == summarize(settings, local)
    assert not ray.is_initialized()  # the Ray it started is shut down


def test_the_command_on_ray() -> None:
    args = ["tournament", "--bots", "random,random", "--players", "3", "--deals", "2"]
    args += ["--turn-limit", "100", "--seed", "2", "--json", "--jobs", "1"]
    runner = CliRunner()
    local, on_ray = runner.invoke(app, args), runner.invoke(app, [*args, "--backend", "ray"])
    assert local.exit_code == on_ray.exit_code == 0, on_ray.output
    summaries = [json.loads(r.stdout.splitlines()[-1])["summary"] for r in (local, on_ray)]
    for summary in summaries:
        summary.pop("timing")
    assert summaries[0] == summaries[1]
