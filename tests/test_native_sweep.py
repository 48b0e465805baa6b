"""A sweep's positions in one native call (``_native.sweep_positions``) against its twin,
:func:`rummy21.solver.core.sweep_positions`.

The twin is the reference: from the same first layer and the same plan, the native call must
give the same stages (``None`` for the same idle suits) and the same layers — the same states
with the same entries in the same order — for every variant of the sweep, Option A on and
off, several bounds and rule sets, on generated hands and the benchmark corpora. A malformed
plan is refused with a Python exception, never a crash. Skipped where the core is not built.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from handgen import near_complete, random_deal, rule_variants
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy21.cards import ALL_CARDS, Card, counts_of, parse_cards
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver import backend, core
from rummy21.solver.core import SweepPlan
from rummy21.solver.sweep import SweepSpec, Variant, _first_layer, plan_of

native = backend.NATIVE
pytestmark = pytest.mark.skipif(native is None, reason="the native core is not built")

CLASSIC = RuleSet.preset("classic")
RULES = rule_variants("classic", "adda52", "no-joker-groups", "one-pure", "two-pure", "sets-of-3")
SPECS: dict[str, dict[str, Any]] = {
    # (``hands``: generated hands per rule set, over six rule sets; fewer where the states
    # multiply. The rule engine's correctness is test_crosscheck's: these check the twins agree)
    "pure save": {"bound": 60, "hands": 20},
    "bound 25": {"bound": 25, "hands": 20},
    "nothing loose": {"bound": 0, "hands": 30},
    "option A": {"bound": 0, "exact": True, "hands": 20},
    "option A, bound 20": {"bound": 20, "exact": True, "hands": 10},
    "put aside": {"bound": 30, "variant": Variant.PUT_ASIDE, "hands": 8},
    "put aside, exact": {"bound": 10, "exact": True, "variant": Variant.PUT_ASIDE, "hands": 4},
    "replace": {"bound": 3, "variant": Variant.REPLACE, "hands": 5},
    "replace, exact": {"bound": 2, "exact": True, "variant": Variant.REPLACE, "hands": 3},
    "replace, buying": {"bound": 1, "variant": Variant.REPLACE_BUYING, "hands": 2},
    "replace, buying 2": {"bound": 2, "variant": Variant.REPLACE_BUYING, "hands": 2},
    "replace, buying, exact": {
        "bound": 1,
        "exact": True,
        "variant": Variant.REPLACE_BUYING,
        "hands": 2,
    },
}
CORPUS = Path(__file__).resolve().parents[1] / "bench"


def hands(seed: str, count: int, rules: RuleSet) -> Iterator[tuple[Card, list[Card]]]:
    rng = random.Random(seed)
    for i in range(count):
        yield random_deal(rng, rules) if i % 2 else near_complete(rng, rules, None)


def corpus(name: str, count: int) -> list[tuple[Card, list[Card]]]:
    """The first ``count`` hands of ``bench/corpus_<name>.txt``."""
    out: list[tuple[Card, list[Card]]] = []
    for line in (CORPUS / f"corpus_{name}.txt").read_text().splitlines():
        if line and not line.startswith("#") and len(out) < count:
            cut, _, cards = line.partition(":")
            out.append((Card.parse(cut), parse_cards(cards)))
    return out


def plus_one(hand: list[Card]) -> list[Card]:
    """A 22-card hand: ``hand`` and one more card the shoe still holds (seeded by the hand)."""
    counts = counts_of(hand)
    room = [card for card in ALL_CARDS if counts[card.index] < 3]
    return hand + [random.Random(str(hand)).choice(room)]


def spec_of(cut: Card, hand: list[Card], rules: RuleSet, options: dict[str, Any]) -> SweepSpec:
    variant = options.get("variant", Variant.PURE_SAVE)
    if variant is Variant.PUT_ASIDE:
        hand = plus_one(hand)
    return SweepSpec(
        counts_of(hand),
        Jokers.from_cut(cut).joker_mask,
        rules,
        options["bound"],
        exact=options.get("exact", False),
        variant=variant,
    )


def positions(module: ModuleType, spec: SweepSpec) -> list[Any]:
    """Every stage and layer ``module``'s sweep_positions gives for ``spec``, as plain lists."""
    first = module.stage_from(_first_layer(spec))
    stages, layers = module.sweep_positions(first, plan_of(spec))
    assert len(stages) == len(layers) == 15
    assert all(len(here) == 5 and here[0] is not None for here in stages)
    out: list[Any] = [list(layer.items()) for layer in layers]
    for here in stages:
        out.append([None if stage is None else list(stage.items()) for stage in here])
    return out


def same_positions(spec: SweepSpec, what: str) -> None:
    twin = positions(core, spec)
    mine = positions(native, spec)  # type: ignore[arg-type]
    assert mine == twin, what


@pytest.mark.parametrize("rules_name", sorted(RULES))
@pytest.mark.parametrize("label", sorted(SPECS))
def test_every_position_is_the_twins(rules_name: str, label: str) -> None:
    rules, options = RULES[rules_name], SPECS[label]
    for cut, hand in hands(f"native-sweep/{rules_name}/{label}", options["hands"], rules):
        spec = spec_of(cut, hand, rules, options)
        same_positions(spec, f"{label}, {rules_name}: cut {cut}, {' '.join(map(str, hand))}")


@pytest.mark.parametrize("name", ["near", "random"])
@pytest.mark.parametrize("label", ["nothing loose", "option A", "bound 25", "put aside", "replace"])
def test_the_corpus_hands_sweep_as_the_twin(name: str, label: str) -> None:
    for cut, hand in corpus(name, 2 * SPECS[label]["hands"]):
        spec = spec_of(cut, hand, CLASSIC, SPECS[label])
        same_positions(spec, f"{label}: cut {cut}, {' '.join(map(str, hand))}")


def test_the_sweep_runs_the_core_in_use() -> None:
    """``sweep`` keeps the first layer, then the layers sweep_positions gives."""
    from rummy21.solver.sweep import sweep

    cut, hand = next(hands("native-sweep/shape", 1, CLASSIC))
    spec = spec_of(cut, hand, CLASSIC, SPECS["pure save"])
    for name, module in (("python", core), ("native", native)):
        with backend.using(name):
            run = sweep(spec)
        assert run.core is module and len(run.layers) == 16 and len(run.stages) == 15
        assert run.finals()


# ------------------------------------------------------------------ bad input, no crash


def valid_plan() -> tuple[Any, SweepPlan]:
    """A native first layer and the plan of a generated hand."""
    assert native is not None
    cut, hand = next(hands("native-sweep/bad", 1, CLASSIC))
    spec = spec_of(cut, hand, CLASSIC, SPECS["pure save"])
    return native.stage_from(_first_layer(spec)), plan_of(spec)


def altered(plan: SweepPlan, **fields: Any) -> SweepPlan:
    """``plan`` with ``fields`` changed, to anything."""
    return plan._replace(**fields)


def with_row(table: tuple[Any, ...], i: int, row: Any) -> tuple[Any, ...]:
    return (*table[:i], row, *table[i + 1 :])


def test_a_malformed_plan_is_refused() -> None:
    assert native is not None
    layer, plan = valid_plan()
    run = native.sweep_positions
    bad_calls: list[Callable[[], object]] = [
        lambda: run(layer),
        lambda: run(layer, plan, plan),
        lambda: run({}, plan),
        lambda: run(layer, plan[:19]),
        lambda: run(layer, list(plan)),
        lambda: run(layer, altered(plan, need=64)),
        lambda: run(layer, altered(plan, need=-1)),
        lambda: run(layer, altered(plan, spend=128)),
        lambda: run(layer, altered(plan, bound=1 << 80)),
        lambda: run(layer, altered(plan, max_set="4")),
        lambda: run(layer, altered(plan, padding=16)),
        lambda: run(layer, altered(plan, mask=plan.mask[:51])),
        lambda: run(layer, altered(plan, mask=(*plan.mask[:51], 2))),
        lambda: run(layer, altered(plan, rank_points=None)),
        lambda: run(layer, altered(plan, supply_after=plan.supply_after[:15])),
        lambda: run(layer, altered(plan, ahead=(*plan.ahead[:16], -1))),
        lambda: run(layer, altered(plan, pure_left=plan.pure_left[:15])),
        lambda: run(layer, altered(plan, pure_left=with_row(plan.pure_left, 3, ()))),
        lambda: run(layer, altered(plan, pure_left=with_row(plan.pure_left, 3, (0, 0)))),
        lambda: run(layer, altered(plan, pure_left=with_row(plan.pure_left, 3, ("x",)))),
        lambda: run(layer, altered(plan, pure_left=5)),
        lambda: run(layer, altered(plan, at=plan.at[:3])),
        lambda: run(layer, altered(plan, at=with_row(plan.at, 2, plan.at[2][:16]))),
        lambda: run(layer, altered(plan, at=with_row(plan.at, 2, (4,) * 17))),
        lambda: run(layer, altered(plan, near=with_row(plan.near, 0, (2,) * 16))),
        lambda: run(layer, altered(plan, reach=with_row(plan.reach, 1, (0,) * 16))),
        lambda: run(layer, altered(plan, pure_ok="x" * 4)),
        lambda: run(layer, altered(plan, bought_starts=(None,) * 4)),
    ]
    for call in bad_calls:
        with pytest.raises((TypeError, ValueError, OverflowError)):
            call()
    stages, layers = run(layer, plan)  # (and still fine)
    assert len(stages) == len(layers) == 15


@settings(max_examples=300, deadline=None)
@given(
    field=st.integers(0, 19),
    junk=st.recursive(
        st.none() | st.booleans() | st.integers(-(1 << 70), 1 << 70) | st.text(max_size=3),
        lambda inner: st.lists(inner, max_size=18).map(tuple) | st.lists(inner, max_size=4),
        max_leaves=40,
    ),
)
def test_random_plans_raise_or_sweep_and_never_crash(field: int, junk: Any) -> None:
    assert native is not None
    layer, plan = valid_plan()
    calls: tuple[Callable[[], object], ...] = (
        lambda: native.sweep_positions(layer, junk),
        lambda: native.sweep_positions(junk, plan),
        lambda: native.sweep_positions(layer, with_row(plan, field, junk)),
    )
    for call in calls:
        try:
            call()
        except (TypeError, ValueError, OverflowError):
            pass


def _same_table(ranks: tuple[int, ...]) -> None:
    assert native is not None
    want, got = core.suit_table(ranks), native.suit_table(ranks)
    assert got == want, ranks
    # (bools where the twin has bools, ints where it has ints: True == 1 would hide it)
    assert [[type(v) for v in part] for part in got] == [[type(v) for v in part] for part in want]


def test_a_suits_tables_are_the_twins() -> None:
    """``suit_table`` (what a sweep reads of one suit, groups_after included) in C equals
    ``core.suit_table``: on every suit of the corpora's hands, on every suit with copies in
    the first seven places only, and on random suits of every density."""
    for name in ("random", "near"):
        for _, hand in corpus(name, 1000):
            counts = counts_of(hand)
            for s in range(4):
                _same_table(tuple(counts[s * 13 : s * 13 + 13]))
    for low in itertools.product(range(4), repeat=7):
        _same_table((*low, 0, 0, 0, 0, 0, 0))
    rng = random.Random(13)
    for _ in range(20_000):
        weights = rng.choice(((0, 0, 0, 1, 1, 2, 3), (0, 1, 2, 3), (0, 0, 0, 0, 0, 1)))
        _same_table(tuple(rng.choice(weights) for _ in range(13)))


@pytest.mark.parametrize(
    "ranks",
    [(), (0,) * 12, (0,) * 14, (0,) * 12 + (4,), (-1,) + (0,) * 12, ("1",) * 13, 5, None],
    ids=repr,
)
def test_a_malformed_suit_is_refused(ranks: Any) -> None:
    assert native is not None
    with pytest.raises((TypeError, ValueError)):
        native.suit_table(ranks)


def test_the_pure_group_bound_is_the_twins() -> None:
    """``max_pure_groups`` in C equals the twin (``bounds.max_pure_groups``) on the corpora's
    hands, their 22-card extensions, and random count vectors of every density (printed
    jokers up to 9)."""
    assert native is not None
    vectors = []
    for name in ("random", "near"):
        for _, hand in corpus(name, 1000):
            vectors += [counts_of(hand), counts_of(plus_one(hand))]
    rng = random.Random(14)
    for _ in range(20_000):
        weights = rng.choice(((0, 0, 0, 1, 1, 2, 3), (0, 1, 2, 3), (0, 0, 0, 0, 0, 1)))
        vectors.append([rng.choice(weights) for _ in range(52)] + [rng.randrange(10)])
    for counts in vectors:
        assert native.max_pure_groups(counts) == core.max_pure_groups(counts), counts
    with backend.using("native"):
        assert backend.max_pure_groups(vectors[0]) == core.max_pure_groups(vectors[0])


@pytest.mark.parametrize(
    "counts",
    [[0] * 52, [0] * 54, [4] + [0] * 52, [-1] + [0] * 52, [0] * 52 + [256], ["1"] * 53, None],
    ids=lambda c: repr(c)[:30],
)
def test_a_malformed_count_vector_gets_no_pure_group_bound(counts: Any) -> None:
    assert native is not None
    with pytest.raises((TypeError, ValueError)):
        native.max_pure_groups(counts)
