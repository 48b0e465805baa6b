"""The native core's move rows (``_native.sweep_moves``) against :func:`.moves.sweep_moves`.

``moves.py`` holds the rules and is the reference; the C twin must give the same rows, in the
same order, with an equal ``RawMove`` tuple in each — on every (state, purity, place) that
sweeps of generated hands meet, and on random valid places and states. A malformed place is
refused with a Python exception. Skipped where the core is not built.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from handgen import near_complete, random_deal
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy21.cards import ALL_CARDS, Card, counts_of
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver import backend, core, moves, runs
from rummy21.solver.moves import Place, Role, SuitMove, SweepRow
from rummy21.solver.runs import SLOTS, Phase
from rummy21.solver.sweep import SweepSpec, Variant, sweep

native = backend.NATIVE
pytestmark = pytest.mark.skipif(native is None, reason="the native core is not built")

CLASSIC = RuleSet.preset("classic")
RULES = (CLASSIC, RuleSet.preset("adda52"), CLASSIC.with_(joker_groups=False))
SPECS: tuple[dict[str, Any], ...] = (
    {"bound": 60},
    {"bound": 0},
    {"bound": 0, "exact": True},
    {"bound": 60, "variant": Variant.PUT_ASIDE},
    {"bound": 4, "variant": Variant.REPLACE},
    {"bound": 1, "variant": Variant.REPLACE_BUYING},
)

Triple = tuple[int, bool, Place]


def hands(seed: str, count: int, rules: RuleSet) -> Iterator[tuple[Card, list[Card]]]:
    rng = random.Random(seed)
    for i in range(count):
        yield random_deal(rng, rules) if i % 2 else near_complete(rng, rules, None)


def native_rows(state: int, purity: bool, place: Place) -> tuple[SweepRow, ...]:
    assert native is not None
    rows: tuple[SweepRow, ...] = native.sweep_moves(state, purity, place)
    return rows


def same(state: int, purity: bool, place: Place) -> None:
    """The C rows are Python's: equal, and alike down to each field's type (bool or int)."""
    twin = moves.sweep_moves(state, purity, place)
    mine = native_rows(state, purity, place)
    assert mine == twin, (state, purity, place)
    assert repr(mine) == repr(twin), (state, purity, place)
    for mine_row, twin_row in zip(mine, twin, strict=True):
        assert SuitMove._make(mine_row[-1]) == SuitMove._make(twin_row[-1])


@pytest.fixture(scope="module")
def met() -> set[Triple]:
    """Every (state, purity, place) the Python twin's sweeps ask sweep_moves for, over
    generated hands (each variant of the sweep, each rule set)."""
    found: set[Triple] = set()

    def recording(state: int, purity: bool, place: Place) -> tuple[SweepRow, ...]:
        found.add((state, purity, place))
        return moves.sweep_moves(state, purity, place)

    with pytest.MonkeyPatch.context() as patch, backend.using("python"):
        patch.setattr(core, "sweep_moves", recording)
        for r, rules in enumerate(RULES):
            for o, options in enumerate(SPECS):
                count = 2 if options.get("variant") is Variant.REPLACE_BUYING else 8
                for cut, hand in hands(f"moves/{r}/{o}", count, rules):
                    if options.get("variant") is Variant.PUT_ASIDE:
                        counts = counts_of(hand)
                        room = [c for c in ALL_CARDS if counts[c.index] < 3]
                        hand = hand + [random.Random(str(hand)).choice(room)]
                    mask = Jokers.from_cut(cut).joker_mask
                    sweep(SweepSpec(counts_of(hand), mask, rules, **options))
    return found


def test_the_rows_of_every_state_a_sweep_meets_are_pythons(met: set[Triple]) -> None:
    assert len(met) > 1000
    assert {place.phase for _, _, place in met} == set(Phase)
    assert {place.roles for _, _, place in met} >= {(Role.NATURAL,) * 2, (Role.EITHER,) * 2}
    assert any(place.buy for _, _, place in met) and any(place.aside for _, _, place in met)
    for state, purity, place in sorted(met, key=repr):
        same(state, purity, place)


def test_kept_rows_are_the_same_after_the_cache_is_emptied(met: set[Triple]) -> None:
    assert native is not None
    some = sorted(met, key=repr)[:200]
    before = [native_rows(*triple) for triple in some]
    assert native.cache_size() > 0
    native.clear_caches()
    assert native.cache_size() == 0
    assert [native_rows(*triple) for triple in some] == before


def test_the_native_sweep_asks_python_for_no_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(state: int, purity: bool, place: Place) -> tuple[SweepRow, ...]:
        raise AssertionError("the native core called moves.sweep_moves")

    cut, hand = next(hands("moves/no-python", 1, CLASSIC))
    spec = SweepSpec(counts_of(hand), Jokers.from_cut(cut).joker_mask, CLASSIC, 60)
    monkeypatch.setattr(core, "sweep_moves", refuse)
    with backend.using("native"):
        assert sweep(spec).finals()


def test_the_tables_mirrored_in_c_are_pythons() -> None:
    assert native is not None
    assert native.SLOTS == SLOTS == len(runs.RUN_CLASSES) + 1
    assert native.CLASSES == len(runs.RUN_CLASSES) == len(moves.NO_RUN_MOVES)
    assert len(Phase) == native.PHASES and len(Role) == native.ROLES
    assert runs.HIGH == SLOTS - 1  # the run classes come first (a move's triples are by class)


# ------------------------------------------------------------------ random places and states


@st.composite
def places(draw: st.DrawFn) -> Place:
    setless = draw(st.none() | st.integers(-1, 10))
    return Place(
        draw(st.integers(0, 3)),
        (draw(st.sampled_from(Role)), draw(st.sampled_from(Role))),
        draw(st.sampled_from(Phase)),
        draw(st.integers(1, 4)),
        draw(st.sampled_from((0, 0, 1, 2, 10))),
        draw(st.booleans()),
        draw(st.integers(-1, 3)),
        draw(st.integers(-1, 3)),
        setless,
        draw(st.integers(0, 3)),
        draw(st.booleans()),
        draw(st.booleans()),
        draw(st.booleans()),
    )


@st.composite
def states(draw: st.DrawFn) -> int:
    """A suit state with few open runs (the moves multiply with them), each count within its
    field's width most of the time."""
    counts = [0] * SLOTS
    for _ in range(draw(st.integers(0, 5))):
        counts[draw(st.integers(0, SLOTS - 1))] += 1
    counts[runs.I3] += draw(st.sampled_from((0, 0, 1, 4)))
    counts = [min(n, 3) if slot != runs.I3 else n for slot, n in enumerate(counts)]
    return runs.encode(counts)


def both(state: int, purity: bool, place: Place) -> tuple[object, object]:
    """Each side's rows, or the type of the exception it raised."""
    out: list[object] = []
    for side in (moves.sweep_moves, native_rows):
        try:
            out.append(side(state, purity, place))
        except OverflowError as error:  # a run count past its field (runs.encode)
            out.append(type(error))
    return out[0], out[1]


@settings(max_examples=600, deadline=None)
@given(state=states(), purity=st.booleans(), place=places())
def test_random_places_and_states_give_pythons_rows(state: int, purity: bool, place: Place) -> None:
    twin, mine = both(state, purity, place)
    assert mine == twin
    assert repr(mine) == repr(twin)


# ------------------------------------------------------------------ malformed places

PLACE = Place(1, (Role.NATURAL,) * 2, Phase.MID, 1, 0, False, 1, 1, None, 0, False, False, True)


def place_with(**fields: object) -> object:
    """PLACE with some fields changed, to what a Place may not hold."""
    return PLACE._replace(**fields)  # type: ignore[arg-type]


class Falsy:
    def __bool__(self) -> bool:
        raise ZeroDivisionError("no truth here")


BAD_PLACES: list[object] = [
    None,
    (),
    tuple(PLACE)[:12],
    [*PLACE],
    place_with(copies=4),
    place_with(copies=-1),
    place_with(copies="1"),
    place_with(roles=(Role.NATURAL,)),
    place_with(roles=[Role.NATURAL, Role.NATURAL]),
    place_with(roles=(Role.NATURAL, 5)),
    place_with(roles=(None, Role.NATURAL)),
    place_with(phase=5),
    place_with(phase=-1),
    place_with(reach=0),
    place_with(reach=5),
    place_with(padding=16),
    place_with(padding=1 << 70),
    place_with(next1=-2),
    place_with(next2=4),
    place_with(setless=-2),
    place_with(setless=1001),
    place_with(setless="7"),
    place_with(buy=4),
    place_with(buy=2.0),
]


@pytest.mark.parametrize("place", BAD_PLACES, ids=range(len(BAD_PLACES)))
def test_malformed_places_are_refused(place: Any) -> None:
    assert native is not None
    with pytest.raises((TypeError, ValueError, OverflowError)):
        native.sweep_moves(0, True, place)
    stage = native.stage_from({0: [(0, 0, "start")]})
    step = core.SuitStep(0, 80, place, 0, 0, 60, False, False)
    with pytest.raises((TypeError, ValueError, OverflowError)):
        native.suit_step(stage, step)


def test_a_truth_that_raises_is_passed_on() -> None:
    assert native is not None
    for field in ("exact", "replace", "aside", "bought_starts"):
        with pytest.raises(ZeroDivisionError):
            native.sweep_moves(0, True, place_with(**{field: Falsy()}))


def test_malformed_states_and_calls_are_refused() -> None:
    assert native is not None
    calls: list[Callable[[], object]] = [
        lambda: native.sweep_moves(-1, True, PLACE),
        lambda: native.sweep_moves(1 << runs.BITS, True, PLACE),
        lambda: native.sweep_moves("0", True, PLACE),
        lambda: native.sweep_moves(0, 2, PLACE),
        lambda: native.sweep_moves(0, None, PLACE),
        lambda: native.sweep_moves(0, True),
    ]
    for call in calls:
        with pytest.raises((TypeError, ValueError, OverflowError)):
            call()
