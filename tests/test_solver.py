"""The solver's own contracts beside its answers (those are checked against the reference in
test_crosscheck.py and others): the cycle collector it leaves alone unless asked."""

from __future__ import annotations

import gc
import threading

import pytest

from rummy21.cards import counts_of
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver import least_after_put_aside, paused_collection, replacements, solve

from handgen import corpus

CLASSIC = RuleSet.preset("classic")


def test_solving_leaves_the_cycle_collector_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    switched: list[str] = []
    monkeypatch.setattr(gc, "disable", lambda: switched.append("disable"))
    monkeypatch.setattr(gc, "enable", lambda: switched.append("enable"))
    for cut, hand, _ in corpus(33, 5, 5):
        counts, jokers = counts_of(hand), Jokers.from_cut(cut)
        solve(counts, jokers, CLASSIC)
        replacements(counts, jokers, CLASSIC, 1)
        counts[next(i for i, n in enumerate(counts) if n < 3)] += 1     # a 22nd card
        least_after_put_aside(counts, jokers, CLASSIC, 30)
    assert switched == []


def test_pauses_nest_and_overlap_across_threads() -> None:
    assert gc.isenabled()
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with paused_collection():
            held.set()
            release.wait()

    other = threading.Thread(target=hold)
    other.start()
    held.wait()
    with paused_collection():
        with paused_collection():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert not gc.isenabled()           # the other thread's pause is still open
    release.set()
    other.join()
    assert gc.isenabled()


def test_a_pause_leaves_a_collector_switched_off_as_it_was() -> None:
    gc.disable()
    try:
        with paused_collection():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
