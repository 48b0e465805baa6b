"""The quick first pass: the native ``greedy_arrangement`` against its twin (``greedy.py``),
and both against the quick arrangements of before the move to C.

The twin is the reference: on generated hands and the bench corpora, under each variant of
the rules the greedy pass reads (pure groups needed, set size, joker groups), the C function
gives the twin's answer exactly. The golden digests below are those of ``quick_arrangement``
as it was before the move (``quick.py`` at 50f4427): both cores must still give them.
Whatever is thrown at the C function is refused with a Python exception, never a crash. The
native tests skip where the core is not built; the golden ones run on the twin regardless.
"""

from __future__ import annotations

import hashlib
import os
import random
import resource
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from handgen import near_complete, random_deal, rule_variants
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy21.cards import ALL_CARDS, Card, counts_of, parse_cards
from rummy21.groups import MAX_SEQUENCE
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver import backend, greedy
from rummy21.solver.quick import Quick, quick_arrangement

native = backend.NATIVE
needs_native = pytest.mark.skipif(native is None, reason="the native core is not built")

CLASSIC = RuleSet.preset("classic")
VARIANTS = {
    **rule_variants("classic", "adda52", "no-joker-groups", "sets-of-3", "one-pure"),
    # (not the shared "two-pure": the golden digests were taken with this combination)
    "two-pure": CLASSIC.with_(pure_groups_needed=2, max_set_size=3, joker_groups=False),
}
CORPORA = Path(__file__).resolve().parents[1] / "bench"

Hand = tuple[Card, list[Card]]


def corpus(name: str) -> list[Hand]:
    """The hands of ``bench/corpus_<name>.txt`` (cut: cards, a line each)."""
    path = CORPORA / f"corpus_{name}.txt"
    if not path.exists():
        pytest.skip(f"no {path.name} here")
    hands = []
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            cut, _, cards = line.partition(":")
            hands.append((Card.parse(cut), parse_cards(cards)))
    return hands


def generated(seed: str, count: int, rules: RuleSet) -> Iterator[Hand]:
    """Random deals and near-complete hands, alternately."""
    rng = random.Random(seed)
    for i in range(count):
        yield random_deal(rng, rules) if i % 2 else near_complete(rng, rules, None)


def plus_one(rng: random.Random, hand: list[Card]) -> list[Card]:
    """A 22-card hand: ``hand`` and one more card the shoe still holds."""
    counts = counts_of(hand)
    return hand + [rng.choice([card for card in ALL_CARDS[:52] if counts[card.index] < 3])]


# ------------------------------------------------------------------ as before the move


def line(found: Quick | None) -> str:
    """A quick arrangement as one line of text: points, groups (kind: cards), loose cards."""
    if found is None:
        return "None"
    melds = " ".join(
        f"{meld.kind.value}:" + ",".join(map(str, meld.cards)) for meld in found.arrangement.groups
    )
    return f"{found.points}|{melds}|" + ",".join(map(str, found.arrangement.loose))


def digest(arrange: Callable[..., Quick | None], rules: RuleSet, hands: Iterable[Hand]) -> str:
    """The digest of the quick arrangements of ``hands``, a line each."""
    lines = hashlib.sha256()
    for cut, hand in hands:
        lines.update(line(arrange(counts_of(hand), Jokers.from_cut(cut), rules)).encode() + b"\n")
    return lines.hexdigest()[:16]


GOLDEN_CORPUS = {"random": "5ea2072fdd78bb4a", "near": "0d71df43fe0bd294"}
"""Digests of the corpora's quick arrangements (classic rules) before the move to C."""
GOLDEN_GENERATED = {
    "classic": "f791a3cd9988f275",
    "adda52": "bed7c69601c76ca3",
    "no-joker-groups": "91df2a58e4cd7f07",
    "sets-of-3": "e3a6bf4406ba3fc5",
    "one-pure": "b15bb482942181a9",
    "two-pure": "19a00905fae1e189",
}
"""Digests of 400 generated hands' quick arrangements per variant (seed ``quick/<name>``)."""


@pytest.mark.parametrize("core", backend.available())
@pytest.mark.parametrize("name", sorted(GOLDEN_CORPUS))
def test_the_corpora_arrange_as_before(core: str, name: str) -> None:
    with backend.using(core):
        assert digest(quick_arrangement, CLASSIC, corpus(name)) == GOLDEN_CORPUS[name]


@pytest.mark.parametrize("core", backend.available())
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_generated_hands_arrange_as_before(core: str, name: str) -> None:
    rules = VARIANTS[name]
    with backend.using(core):
        found = digest(quick_arrangement, rules, generated(f"quick/{name}", 400, rules))
    assert found == GOLDEN_GENERATED[name]


def test_a_quick_arrangement_reads_as_before() -> None:
    """One hand spelled out (the digests say only that something changed)."""
    hand = parse_cards("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D JK")
    for core in backend.available():
        with backend.using(core):
            found = quick_arrangement(counts_of(hand), Jokers.from_cut("7D"), CLASSIC)
        assert line(found) == (
            "0|pure_sequence:8S,9S,10S pure_sequence:AH,2H,3H,4H tunnela:5D,5D,5D "
            "pure_sequence:JC,QC,KC,AC set:9H,9C,JK impure_sequence:AD,8D,6D,7S|"
        )


# ------------------------------------------------------------------ native against the twin


def arguments(hand: list[Card], cut: Card, rules: RuleSet, longest: int) -> tuple[Any, ...]:
    """What quick.py passes the core for ``hand``."""
    return (
        counts_of(hand),
        Jokers.from_cut(cut).joker_mask,
        rules.pure_groups_needed,
        longest,
        rules.max_set_size,
        rules.joker_groups,
        MAX_SEQUENCE,
    )


def same(args: tuple[Any, ...]) -> None:
    """The C answer is the twin's: equal, and alike down to the types (tuples, ints)."""
    assert native is not None
    twin = greedy.greedy_arrangement(*args)
    mine = native.greedy_arrangement(*args)
    assert mine == twin, args
    assert repr(mine) == repr(twin), args


def every_way(hands: Iterable[Hand], rules: RuleSet) -> int:
    """Each hand (and, for one in four, a 22-card hand) with both tries of quick.py."""
    rng = random.Random(str(rules))
    met = 0
    for cut, hand in hands:
        for cards in (hand, plus_one(rng, hand)) if rng.random() < 0.25 else (hand,):
            for longest in (MAX_SEQUENCE, 3):
                same(arguments(cards, cut, rules, longest))
                met += 1
    return met


@needs_native
@pytest.mark.parametrize("variant", ["classic", "two-pure"])
@pytest.mark.parametrize("name", ["random", "near"])
def test_the_corpora_are_the_twins(name: str, variant: str) -> None:
    assert every_way(corpus(name), VARIANTS[variant]) >= 2000


@needs_native
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_generated_hands_are_the_twins(name: str) -> None:
    rules = VARIANTS[name]
    assert every_way(generated(f"native-quick/{name}", 600, rules), rules) >= 1200


@needs_native
@settings(max_examples=400, deadline=None)
@given(
    counts=st.lists(st.integers(0, 3), min_size=52, max_size=52),
    printed=st.integers(0, 7),
    mask=st.lists(st.booleans(), min_size=52, max_size=52),
    need=st.integers(0, 8),
    longest=st.integers(0, 16),
    max_set=st.sampled_from((3, 4)),
    joker_groups=st.booleans(),
    max_sequence=st.integers(0, 14),
)
def test_any_count_vector_is_the_twins(
    counts: list[int],
    printed: int,
    mask: list[bool],
    need: int,
    longest: int,
    max_set: int,
    joker_groups: bool,
    max_sequence: int,
) -> None:
    """Beyond what hands hold: up to three copies of every card, any cards wild."""
    same((counts + [printed], (*mask, True), need, longest, max_set, joker_groups, max_sequence))


@needs_native
def test_hands_with_every_card_are_the_twins() -> None:
    """The most copies of every card: the longest searches, and the most groups."""
    for copies in (1, 2, 3):
        for wild in ((), (0, 13, 26, 39), tuple(range(0, 52, 2))):
            mask = tuple(i in wild or i == 52 for i in range(53))
            for longest in (MAX_SEQUENCE, 3):
                same(([copies] * 52 + [3], mask, 7, longest, 4, True, MAX_SEQUENCE))


# ------------------------------------------------------------------ bad input


@needs_native
def test_wrong_arguments_are_refused() -> None:
    assert native is not None
    counts, mask = [1] * 21 + [0] * 32, (False,) * 52 + (True,)
    good = (counts, mask, 3, 13, 4, True, 13)

    def but(at: int, value: object) -> tuple[object, ...]:
        return (*good[:at], value, *good[at + 1 :])

    bad: list[tuple[object, ...]] = [
        (),
        good[:6],
        (*good, 1),
        but(0, counts[:52]),
        but(0, [*counts, 0]),
        but(0, [-1, *counts[1:]]),
        but(0, [4, *counts[1:]]),
        but(0, [*counts[:52], 256]),
        but(0, [1.0, *counts[1:]]),
        but(0, ["1", *counts[1:]]),
        but(0, [None, *counts[1:]]),
        but(0, [1 << 70, *counts[1:]]),
        but(0, 21),
        but(0, None),
        but(0, "1" * 53),
        but(1, mask[:52]),
        but(1, (2, *mask[1:])),
        but(1, (None, *mask[1:])),
        ([*counts[:52], 1], (*mask[:52], False), 3, 13, 4, True, 13),  # a printed joker not wild
        but(2, -1),
        (
            [3] * 52 + [0],
            mask,
            16,
            13,
            4,
            True,
            13,
        ),  # more than the core counts, and cards for them
        but(2, 1.5),
        but(3, -1),
        but(3, "13"),
        but(4, 2),
        but(4, 5),
        but(5, 2),
        but(5, None),
        but(6, -1),
        but(6, 1 << 40),
    ]
    for args in bad:
        with pytest.raises((TypeError, ValueError, OverflowError)):
            native.greedy_arrangement(*args)


@needs_native
def test_more_pure_groups_than_cards_allow_is_none_on_both() -> None:
    assert native is not None
    args = ([1] * 21 + [0] * 32, (False,) * 52 + (True,), 40, 13, 4, True, 13)
    assert native.greedy_arrangement(*args) is None
    assert greedy.greedy_arrangement(*args) is None


SCALARS = st.none() | st.booleans() | st.integers(-(1 << 70), 1 << 70) | st.text(max_size=3)


@needs_native
@settings(max_examples=300, deadline=None)
@given(
    junk=st.one_of(
        SCALARS,
        st.lists(SCALARS, min_size=53, max_size=53),  # (past the length check)
        st.lists(SCALARS, min_size=53, max_size=53).map(tuple),
        st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4), max_leaves=10),
    ),
    at=st.integers(0, 6),
)
def test_random_arguments_raise_and_never_crash(junk: Any, at: int) -> None:
    assert native is not None
    args: list[Any] = [[1] * 21 + [0] * 32, (False,) * 52 + (True,), 3, 13, 4, True, 13]
    args[at] = junk
    try:
        native.greedy_arrangement(*args)
    except (TypeError, ValueError, OverflowError):
        pass


# ------------------------------------------------------------------ no leak


def _rss_kib() -> int:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() // 1024


@needs_native
@pytest.mark.skipif(
    "libasan" in os.environ.get("LD_PRELOAD", ""),
    reason="AddressSanitizer holds freed memory back (its quarantine): the size grows anyway",
)
def test_a_long_loop_does_not_grow_the_process() -> None:
    """The same calls over and over, errors included: the resident size stays flat."""
    assert native is not None
    work = [
        arguments(hand, cut, CLASSIC, longest)
        for cut, hand in generated("native-quick/rss", 60, CLASSIC)
        for longest in (MAX_SEQUENCE, 3)
    ]
    full = ([3] * 52 + [3], (False,) * 52 + (True,), 7, 13, 4, True, 13)
    wrong = ([1] * 52 + ["x"], (False,) * 52 + (True,), 3, 13, 4, True, 13)

    def round_() -> None:
        for args in work:
            native.greedy_arrangement(*args)
        native.greedy_arrangement(*full)
        with pytest.raises(TypeError):
            native.greedy_arrangement(*wrong)

    for _ in range(3):
        round_()
    before = _rss_kib()
    for _ in range(60):
        round_()
    grown = _rss_kib() - before
    assert grown < 2048, f"the process grew by {grown} KiB over 60 rounds"
