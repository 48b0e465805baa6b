"""Benchmark the research environment against the gin-rummy engines researchers use.

    python bench/bench_env.py [--rounds 5] [--seconds 3] [--players 2] [--seed 1] [--json]

Uniformly random agents — each picks uniformly among the actions its observation's mask
allows — play on

* ``rummy21``: this package's PettingZoo environment (``rummy21.env.env``), through the
  PettingZoo loop (``agent_iter``, ``last`` — which builds the observation and its mask
  from the seat's view — and ``step``);
* ``rummy21 (long deals)``: the same, but an agent drops or declares only when nothing else
  is allowed, so deals run to the turn limit or the stock's end: the cost of a step inside a
  deal, as gin rummy's random deals (over 100 actions) measure it;
* RLCard's ``gin-rummy`` (``env.step`` builds the next player's state: its observation and
  legal actions) and OpenSpiel's ``gin_rummy`` (the observation tensor and legal actions built
  at every decision; chance nodes — dealing — are not counted as actions), when installed
  (``pip install rlcard open_spiel``; neither is a dependency of rummy21).

Each round gives every engine ``--seconds`` of one core, one after another, each starting from
the same seed; the figures are medians over the rounds, and the ratios compare the medians.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from rummy21.env import raw_env
from rummy21.env.actions import ACTION_COUNT, DECLARE, DROP

Runner = Callable[[float, int, int], tuple[int, int, float]]
"""(seconds, seed, players) -> (actions, deals, elapsed seconds)."""

PLAIN = np.ones(ACTION_COUNT, dtype=bool)
PLAIN[DROP] = False
PLAIN[DECLARE:] = False


def rummy21(
    seconds: float, seed: int, players: int, long_deals: bool = False
) -> tuple[int, int, float]:
    e = raw_env(players=players)
    rng = random.Random(seed)
    e.reset(seed=seed)
    actions = deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            mask = obs["action_mask"]
            if long_deals:
                plain = mask & PLAIN
                mask = plain if plain.any() else mask
            e.step(rng.choice(np.flatnonzero(mask).tolist()))
            actions += 1
        deals += 1
        e.reset()
    return actions, deals, time.perf_counter() - start


def rummy21_long(seconds: float, seed: int, players: int) -> tuple[int, int, float]:
    return rummy21(seconds, seed, players, long_deals=True)


def rlcard_gin(seconds: float, seed: int, players: int) -> tuple[int, int, float]:
    rlcard = importlib.import_module("rlcard")
    game = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    actions = deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = game.reset()
        while not game.is_over():
            state, _ = game.step(rng.choice(list(state["legal_actions"])))
            actions += 1
        deals += 1
    return actions, deals, time.perf_counter() - start


def openspiel_gin(seconds: float, seed: int, players: int) -> tuple[int, int, float]:
    pyspiel = importlib.import_module("pyspiel")
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions = deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            player = state.current_player()
            state.observation_tensor(player)
            state.apply_action(rng.choice(state.legal_actions(player)))
            actions += 1
        deals += 1
    return actions, deals, time.perf_counter() - start


def engines() -> dict[str, Runner | str]:
    """Each engine's runner, or why it is missing."""
    found: dict[str, Runner | str] = {
        "rummy21": rummy21,
        "rummy21 (long deals)": rummy21_long,
    }
    for name, module, runner in (
        ("RLCard gin-rummy", "rlcard", rlcard_gin),
        ("OpenSpiel gin_rummy", "pyspiel", openspiel_gin),
    ):
        try:
            importlib.import_module(module)
        except ImportError as error:
            found[name] = f"not installed ({error})"
        else:
            found[name] = runner
    return found


def measure(rounds: int, seconds: float, players: int, seed: int) -> dict[str, Any]:
    runners = engines()
    rates: dict[str, list[tuple[float, float, float]]] = {n: [] for n in runners}
    for _ in range(rounds):
        for name, runner in runners.items():
            if isinstance(runner, str):
                continue
            actions, deals, elapsed = runner(seconds, seed, players)
            rates[name].append((actions / elapsed, deals / elapsed, actions / max(deals, 1)))
    results: dict[str, Any] = {}
    for name, runner in runners.items():
        if isinstance(runner, str):
            results[name] = {"missing": runner}
            continue
        results[name] = {
            "actions_per_second": round(statistics.median(r[0] for r in rates[name])),
            "deals_per_second": round(statistics.median(r[1] for r in rates[name]), 1),
            "actions_per_deal": round(statistics.median(r[2] for r in rates[name]), 1),
            "rounds": [round(r[0]) for r in rates[name]],
        }
    ours = results["rummy21"]["actions_per_second"]
    for name in ("RLCard gin-rummy", "OpenSpiel gin_rummy"):
        if "missing" not in results[name]:
            theirs = results[name]["actions_per_second"]
            results[name]["rummy21_ratio"] = round(ours / theirs, 2)
            long = results["rummy21 (long deals)"]["actions_per_second"]
            results[name]["rummy21_long_ratio"] = round(long / theirs, 2)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=2, help="rummy21's seats (gin: 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = measure(args.rounds, args.seconds, args.players, args.seed)
    if args.json:
        print(json.dumps({"python": platform.python_version(), "results": results}))
        return
    print(
        f"uniformly random agents, {args.rounds} rounds × {args.seconds:g} s an engine, "
        f"rummy21 at {args.players} seats; Python {platform.python_version()}"
    )
    print(f"{'engine':24} {'actions/s':>10} {'deals/s':>9} {'actions/deal':>13}   rounds")
    for name, r in results.items():
        if "missing" in r:
            print(f"{name:24} {r['missing']}")
            continue
        print(
            f"{name:24} {r['actions_per_second']:>10,} {r['deals_per_second']:>9,.1f} "
            f"{r['actions_per_deal']:>13,.1f}   {r['rounds']}"
        )
    for name, r in results.items():
        if "rummy21_ratio" in r:
            print(
                f"rummy21 / {name}: {r['rummy21_ratio']:.2f}× actions/s "
                f"(long deals: {r['rummy21_long_ratio']:.2f}×)"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
