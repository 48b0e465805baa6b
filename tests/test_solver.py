"""The solver's own contracts beside its answers (those are checked against the reference in
test_crosscheck.py and others): the group kinds it names, the cycle collector it leaves
alone unless asked, and the limits of its states."""

from __future__ import annotations

import gc
import threading

import pytest
import reference as ref
from handgen import corpus, rule_variants

from rummy21.cards import Card, CardError, counts_of
from rummy21.groups import GroupKind
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver import (
    Arrangement,
    least_after_put_aside,
    paused_collection,
    replacements,
    solve,
)
from rummy21.solver.runs import HIGH, I2, I3, LI3, LP3, P1, P2, P3, decode, encode, forget_purity
from rummy21.solver.sweep import SweepSpec

CLASSIC = RuleSet.preset("classic")
VARIANTS = rule_variants("classic", "adda52", "no-joker-groups", "sets-of-3")


def check_kinds(arrangement: Arrangement, cut: Card, rules: RuleSet) -> None:
    """Each group's kind is one the reference can read it as, and the pure ones are enough."""
    readings = ref.check_groups([meld.cards for meld in arrangement.groups], cut, rules)
    for meld, kinds in zip(arrangement.groups, readings, strict=True):
        assert isinstance(meld.kind, GroupKind)
        assert meld.kind.value in kinds, (meld, sorted(kinds))
    assert sum(meld.kind.is_pure for meld in arrangement.groups) >= rules.pure_groups_needed


@pytest.mark.parametrize("name", VARIANTS)
def test_group_kinds_are_readings_the_rules_accept(name: str) -> None:
    rules = VARIANTS[name]
    for cut, hand, _ in corpus(31, 40, 80, rules):
        found = solve(counts_of(hand), Jokers.from_cut(cut), rules)
        for arrangement in (found.pure_arrangement, found.option_a):
            if arrangement is not None:
                check_kinds(arrangement, cut, rules)


def test_the_groups_of_a_replacement_are_named_too() -> None:
    checked = 0
    for cut, hand, _ in corpus(32, 0, 40):
        found = replacements(counts_of(hand), Jokers.from_cut(cut), CLASSIC, 2)
        if found is not None:  # (the groups of the hand after the swap)
            check_kinds(found.arrangement, cut, CLASSIC)
            checked += 1
    assert checked > 10


def test_solving_leaves_the_cycle_collector_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    switched: list[str] = []
    monkeypatch.setattr(gc, "disable", lambda: switched.append("disable"))
    monkeypatch.setattr(gc, "enable", lambda: switched.append("enable"))
    for cut, hand, _ in corpus(33, 5, 5):
        counts, jokers = counts_of(hand), Jokers.from_cut(cut)
        solve(counts, jokers, CLASSIC)
        replacements(counts, jokers, CLASSIC, 1)
        counts[next(i for i, n in enumerate(counts) if n < 3)] += 1  # a 22nd card
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
    assert not gc.isenabled()  # the other thread's pause is still open
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


def test_a_suit_state_holds_the_most_runs_a_hand_can_open() -> None:
    # At most three runs begin at each place (three copies of a card): so at most three of
    # each class but I3, whose runs may have begun at any of 11 places.
    most = [3] * 8
    most[I3] = 33
    assert decode(encode(most)) == tuple(most)
    state = [0] * 8
    state[P2], state[P3], state[LP3], state[I3] = 3, 3, 3, 33
    state[P1], state[HIGH] = 3, 3
    # Forgetting purity adds the pure runs to their impure twins (begun at the same places).
    assert decode(forget_purity(encode(state))) == (3, 0, 0, 3, 36, 0, 3, 3)
    for slot, too_many in ((P1, 4), (I2, 4), (LI3, 4), (HIGH, 4), (I3, 64)):
        wrong = [0] * 8
        wrong[slot] = too_many
        with pytest.raises(OverflowError):
            encode(wrong)


def test_a_sweep_refuses_four_copies_of_a_card() -> None:
    counts = [0] * 53
    counts[5] = 4
    with pytest.raises(CardError, match="4 copies of 6S, but the shoe holds only 3"):
        SweepSpec(counts, Jokers.from_cut("KH").joker_mask, CLASSIC, 0)
