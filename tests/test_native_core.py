"""The native core (``rummy21.solver._native``) against its pure-Python twin (``core.py``).

The twin is the reference: on every sweep, every layer and every stage must hold the same
states with the same entries in the same order (so that arrangements, and the card put aside,
come out the same). Whatever is thrown at the C functions — wrong types, malformed rows,
numbers out of range, impossible hands — is refused with a Python exception, never a crash;
and a long loop does not grow the process. Skipped where the core is not built (the
cross-check and the rest of the suite then run on the twin alone).
"""

from __future__ import annotations

import itertools
import os
import random
import resource
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from handgen import near_complete, random_deal, rule_variants
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy21.cards import ALL_CARDS, Card, CardError, counts_of
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver import backend, least_after_put_aside, pools, replacements, solve
from rummy21.solver import core as twin
from rummy21.solver.core import Closing, SuitStep
from rummy21.solver.moves import Place, Role
from rummy21.solver.runs import Phase
from rummy21.solver.sweep import Sweep, SweepSpec, Variant, sweep

native = backend.NATIVE
pytestmark = pytest.mark.skipif(native is None, reason="the native core is not built")

CLASSIC = RuleSet.preset("classic")
RULES = rule_variants("classic", "adda52", "no-joker-groups")


def hands(seed: str, count: int, rules: RuleSet) -> Iterator[tuple[Card, list[Card]]]:
    rng = random.Random(seed)
    for i in range(count):
        yield random_deal(rng, rules) if i % 2 else near_complete(rng, rules, None)


def plus_one(rng: random.Random, hand: list[Card]) -> list[Card]:
    """A 22-card hand: ``hand`` and one more card the shoe still holds."""
    counts = counts_of(hand)
    room = [card for card in ALL_CARDS if counts[card.index] < 3]
    return hand + [rng.choice(room)]


def snapshot(run: Sweep) -> list[Any]:
    """Everything a sweep kept: every layer and stage, as plain lists, in order; and the
    groups rebuilt from each final state (by the same core)."""
    out: list[Any] = [list(layer.items()) for layer in run.layers]
    for stages in run.stages:
        out.append([None if stage is None else list(stage.items()) for stage in stages])
    need = run.spec.rules.pure_groups_needed
    for final in run.finals():
        out.append(run.core.rebuild_groups(run.layers, run.stages, final.key, final.balance, need))
    return out


def both(spec: SweepSpec) -> tuple[list[Any], list[Any]]:
    with backend.using("python"):
        twin = snapshot(sweep(spec))
    with backend.using("native"):
        mine = snapshot(sweep(spec))
    return twin, mine


SPECS = [
    ("pure save", {}),
    ("nothing loose", {"bound": 0}),
    ("option A, exact", {"bound": 0, "exact": True}),
    ("put aside", {"variant": Variant.PUT_ASIDE}),
    ("replace", {"bound": 4, "variant": Variant.REPLACE}),
    # (buying cards multiplies the states: a few hands, one card bought)
    ("replace, buying", {"bound": 1, "variant": Variant.REPLACE_BUYING, "hands": 3}),
]


@pytest.mark.parametrize("rules_name", sorted(RULES))
@pytest.mark.parametrize(("label", "options"), SPECS, ids=[label for label, _ in SPECS])
def test_every_stage_of_every_sweep_is_the_twins(
    rules_name: str, label: str, options: dict[str, Any]
) -> None:
    rules = RULES[rules_name]
    for cut, hand in hands(f"native/{rules_name}/{label}", options.get("hands", 12), rules):
        if options.get("variant") is Variant.PUT_ASIDE:
            hand = plus_one(random.Random(str(hand)), hand)
        spec = SweepSpec(
            counts_of(hand),
            Jokers.from_cut(cut).joker_mask,
            rules,
            options.get("bound", 60),
            exact=options.get("exact", False),
            variant=options.get("variant", Variant.PURE_SAVE),
        )
        twin, mine = both(spec)
        assert mine == twin, f"{label}: cut {cut}, hand {' '.join(map(str, hand))}"


def test_the_answers_are_the_twins_for_the_solver_calls() -> None:
    for cut, hand in hands("native/answers", 30, CLASSIC):
        counts, jokers = counts_of(hand), Jokers.from_cut(cut)
        found = {}
        for core in ("python", "native"):
            with backend.using(core):
                found[core] = (
                    solve(counts, jokers, CLASSIC),
                    least_after_put_aside(counts, jokers, CLASSIC, 80),
                    replacements(counts, jokers, CLASSIC, 3),
                )
        assert found["native"] == found["python"], f"cut {cut}"


# ------------------------------------------------------------------ a Stage as a mapping


def test_a_stage_reads_like_the_dict_it_was_made_from() -> None:
    assert native is not None
    big = 1 << 100 | 12345
    layer = {7: [(0, 0, "start"), (-1, 3, "other")], big: [(2, 5, "x")], 0: [(0, 1, "y")]}
    stage = native.stage_from(layer)
    assert len(stage) == 3
    assert list(stage) == [7, big, 0] == stage.keys()
    assert stage.items() == list(layer.items())
    assert stage[big] == [(2, 5, "x")]
    assert 7 in stage and 8 not in stage and "7" not in stage and -1 not in stage
    assert stage.get(8) is None and stage.get(8, "no") == "no" and stage.get(-5) is None
    with pytest.raises(KeyError):
        stage[8]
    with pytest.raises(KeyError):
        stage[1 << 200]
    with pytest.raises(KeyError):
        stage["a"]
    assert "3 states" in repr(stage)
    with pytest.raises(TypeError):
        type(stage)()


# ------------------------------------------------------------------ a hand's plan


@pytest.mark.parametrize("rules_name", sorted(RULES))
def test_a_hands_plan_is_the_twins(rules_name: str) -> None:
    """What a sweep reads of a hand, for each kind of sweep: the same numbers, of the same
    types, as :func:`core.hand_plan` works out (21 and 22 cards)."""
    assert native is not None
    rules = RULES[rules_name]
    rng = random.Random(rules_name)
    for cut, hand in hands(f"native/plan/{rules_name}", 40, rules):
        if rng.random() < 0.5:
            hand = plus_one(rng, hand)
        counts, mask = counts_of(hand), Jokers.from_cut(cut).joker_mask
        for replace, aside, bound in ((False, False, 0), (False, True, 0), (True, False, 3)):
            args = (counts, mask, rules.pure_groups_needed, rules.joker_groups)
            more = (rules.max_set_size, replace, aside, bound)
            want = twin.hand_plan(*args, *more)
            found = native.hand_plan(*args, *more)
            assert tuple(found) == tuple(want)
            assert [type(f) for f in found] == [type(w) for w in want]
            assert all(
                [type(x) for x in f] == [type(y) for y in w]
                for f, w in zip(found[10:], want[10:], strict=True)
            )


def test_hand_plan_refuses_what_no_hand_is() -> None:
    assert native is not None
    counts, mask = [1] * 21 + [0] * 32, (False,) * 53
    bad_calls: list[Callable[[], object]] = [
        lambda: native.hand_plan(counts[:52], mask, 3, True, 4, False, False, 0),
        lambda: native.hand_plan(counts, mask[:50], 3, True, 4, False, False, 0),
        lambda: native.hand_plan([4] + counts[1:], mask, 3, True, 4, False, False, 0),
        lambda: native.hand_plan([-1] + counts[1:], mask, 3, True, 4, False, False, 0),
        lambda: native.hand_plan(counts, mask, 64, True, 4, False, False, 0),
        lambda: native.hand_plan(counts, mask, 3, True, 5, False, False, 0),
        lambda: native.hand_plan(counts, mask, 3, True, 4, True, False, 500),
        lambda: native.hand_plan(counts, mask, 3, True, 4, False, False),
        lambda: native.hand_plan(None, mask, 3, True, 4, False, False, 0),
    ]
    for call in bad_calls:
        with pytest.raises((TypeError, ValueError)):
            call()


# ------------------------------------------------------------------ pool splits

_JOKERISH = [tuple(bool(bits >> s & 1) for s in range(4)) for bits in range(16)]


@pytest.mark.parametrize("max_set", [3, 4])
def test_every_pool_splits_as_the_twins(max_set: int) -> None:
    """Every pool (0..3 copies of each suit), with every set of suits joker cards, splits
    into the same sets as :func:`pools.pool_splits` says, in the same order: with loose cards
    worth points and worth none (then every split ties on points), and with ``every``."""
    assert native is not None
    for x in itertools.product(range(4), repeat=4):
        for jokerish in _JOKERISH:
            for points in (7,) if any(jokerish[1:3]) else (0, 1, 7):
                for every in (False, True):
                    want = pools.pool_splits(x, jokerish, points, max_set, every)
                    assert native.pool_splits(x, jokerish, points, max_set, every) == want


def test_pool_splits_refuses_what_no_pool_is() -> None:
    assert native is not None
    bad_calls: list[Callable[[], object]] = [
        lambda: native.pool_splits((4, 0, 0, 0), (False,) * 4, 5, 4),
        lambda: native.pool_splits((1, 0, 0), (False,) * 4, 5, 4),
        lambda: native.pool_splits((1, 0, 0, -1), (False,) * 4, 5, 4),
        lambda: native.pool_splits((1, 1, 1, 0), (False,) * 3, 5, 4),
        lambda: native.pool_splits((1, 1, 1, 0), (False,) * 4, -1, 4),
        lambda: native.pool_splits((1, 1, 1, 0), (False,) * 4, 5, 5),
        lambda: native.pool_splits((1, 1, 1, 0), (False,) * 4, 5),
        lambda: native.pool_splits([1, 1, 1, 0], (False,) * 4, 5, 4),
    ]
    for call in bad_calls:
        with pytest.raises((TypeError, ValueError)):
            call()


# ------------------------------------------------------------------ bad input, no crash

PLACE = Place(1, (Role.NATURAL,) * 2, Phase.FIRST, 1, 0, False, 1, 1, None, 0, False, False, True)
STEP = SuitStep(0, 80, PLACE, 0, 0, 60, False, False)
CLOSING = Closing(3, 0, (0,), False, (False,) * 4, 5, 4, 0, 0, 60, False, False, False)


def test_wrong_arguments_are_refused() -> None:
    assert native is not None
    stage = native.stage_from({0: [(0, 0, "start")]})
    bad_calls: list[Callable[[], object]] = [
        lambda: native.suit_step({}, STEP),
        lambda: native.suit_step(stage, STEP[:5]),
        lambda: native.suit_step(stage, STEP._replace(at_suit=-1)),
        lambda: native.suit_step(stage, STEP._replace(at_suit=1000)),
        lambda: native.suit_step(stage, STEP._replace(bound=1 << 80)),
        lambda: native.suit_step(stage, STEP._replace(slack="many")),  # type: ignore[arg-type]
        lambda: native.suit_step(stage),
        lambda: native.close_position(stage, CLOSING[:3]),
        lambda: native.close_position(stage, CLOSING._replace(pure_left=())),
        lambda: native.close_position(stage, CLOSING._replace(need=64)),
        lambda: native.close_position(stage, CLOSING._replace(spend=500)),
        lambda: native.close_position([], CLOSING),
        lambda: native.stage_from([1, 2]),
        lambda: native.stage_from({-1: [(0, 0, None)]}),
        lambda: native.stage_from({1 << 130: [(0, 0, None)]}),
        lambda: native.stage_from({1: (0, 0, None)}),
        lambda: native.stage_from({1: [(0, 0)]}),
        lambda: native.stage_from({1: [("a", 0, None)]}),
        lambda: native.marked(stage, -1),
        lambda: native.marked({}, 3),
        lambda: native.idle(stage, "0"),
        lambda: native.configure(1),
        lambda: native.configure(at_suit=(0, 1)),
        lambda: native.rebuild_groups([stage, stage], [[stage] * 5], 0, 0, 3),
        lambda: native.rebuild_groups([stage, stage], [[stage] * 4], 0, 0, 3),
        lambda: native.rebuild_groups([stage, stage], [[None] * 5], 0, 7, 3),
        lambda: native.rebuild_groups([stage] * 17, [[None] * 5] * 16, 0, 0, 3),
        lambda: native.rebuild_groups([stage], [], 0, 0, 64),
        lambda: native.rebuild_groups(stage, [], 0, 0, 3),
    ]
    for call in bad_calls:
        with pytest.raises((TypeError, ValueError, OverflowError, LookupError)):
            call()


@settings(max_examples=300, deadline=None)
@given(
    junk=st.recursive(
        st.none() | st.booleans() | st.integers(-(1 << 140), 1 << 140) | st.text(max_size=3),
        lambda inner: st.lists(inner, max_size=14).map(tuple) | st.lists(inner, max_size=4),
        max_leaves=30,
    )
)
def test_random_arguments_raise_and_never_crash(junk: Any) -> None:
    assert native is not None
    stage = native.stage_from({0: [(0, 0, "start")], 5 << 20: [(1, 2, "start")]})
    calls: tuple[Callable[[], object], ...] = (
        lambda: native.suit_step(stage, junk),
        lambda: native.close_position(stage, junk),
        lambda: native.stage_from({1: junk}),
        lambda: native.stage_from(junk),
        lambda: native.marked(stage, junk),
        lambda: native.idle(stage, junk),
        lambda: native.pool_splits(junk, (False,) * 4, 5, 4),
        lambda: native.pool_splits((1, 1, 0, 0), junk, 5, 4),
        lambda: native.rebuild_groups([stage, stage], junk, 0, 0, 3),
        lambda: native.rebuild_groups(junk, [[None] * 5], 0, 0, 3),
        lambda: native.hand_plan(junk, (False,) * 53, 3, True, 4, False, False, 0),
    )
    for call in calls:
        try:
            call()
        except (TypeError, ValueError, OverflowError, LookupError, AttributeError):
            pass


@settings(max_examples=200, deadline=None)
@given(
    counts=st.lists(st.integers(-2, 5), min_size=50, max_size=56),
    cut=st.integers(0, 52),
)
def test_count_vectors_that_no_hand_has_are_refused(counts: list[int], cut: int) -> None:
    """Random count vectors, impossible ones included, through the native core: an impossible
    one is a CardError, a possible one the twin's answer."""
    jokers = Jokers.from_cut(ALL_CARDS[cut])
    possible = len(counts) == 53 and min(counts) >= 0 and max(counts) <= 3
    found = {}
    for core in ("native", "python"):
        with backend.using(core):
            if not possible:
                with pytest.raises(CardError):
                    solve(counts, jokers, CLASSIC)
                with pytest.raises(CardError):
                    least_after_put_aside(counts, jokers, CLASSIC, 50)
                with pytest.raises(CardError):
                    replacements(counts, jokers, CLASSIC, 2)
                continue
            found[core] = solve(counts, jokers, CLASSIC)
    assert found.get("native") == found.get("python")


# ------------------------------------------------------------------ no leak


def _rss_kib() -> int:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() // 1024


@pytest.mark.skipif(
    "libasan" in os.environ.get("LD_PRELOAD", ""),
    reason="AddressSanitizer holds freed memory back (its quarantine): the size grows anyway",
)
def test_a_long_loop_does_not_grow_the_process() -> None:
    """The same hands solved over and over: once the memo tables hold them, the resident size
    stays flat (a reference or a block leaked per solve would grow it steadily)."""
    work = [
        (counts_of(hand), Jokers.from_cut(cut)) for cut, hand in hands("native/rss", 40, CLASSIC)
    ]

    def round_() -> None:
        with backend.using("native"):
            for counts, jokers in work:
                solve(counts, jokers, CLASSIC)
                least_after_put_aside(counts, jokers, CLASSIC, 60)

    for _ in range(3):
        round_()
    before = _rss_kib()
    for _ in range(12):
        round_()
    grown = _rss_kib() - before
    assert grown < 4096, f"the process grew by {grown} KiB over 12 rounds of 40 hands"
