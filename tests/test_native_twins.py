"""One list of twin pairs (``backend.TWINS``): every entry point of the native core is a twin
of the pure-Python core's function of the same name, or its own machinery
(``backend.NATIVE_ONLY``), and every twin is compared with its pair by a test named here. A
function added to the C core and not to the list, or listed and never compared, fails a test
that names it."""

from __future__ import annotations

import importlib
import random

import pytest
from handgen import near_complete

from rummy21.cards import counts_of
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.solver import backend
from rummy21.solver import core as twin
from rummy21.solver.sweep import SweepSpec, sweep

native = backend.NATIVE
pytestmark = pytest.mark.skipif(native is None, reason="the native core is not built")

COMPARED_BY: dict[str, tuple[str, ...]] = {
    "Stage": ("test_native_core", "test_a_stage_reads_like_the_dict_it_was_made_from"),
    "back_of": ("test_native_twins", "test_back_pointers_are_the_twins"),
    "close_position": ("test_native_core", "test_every_stage_of_every_sweep_is_the_twins"),
    "greedy_arrangement": ("test_native_quick", "test_generated_hands_are_the_twins"),
    "hand_plan": ("test_native_core", "test_a_hands_plan_is_the_twins"),
    "idle": ("test_native_sweep", "test_every_position_is_the_twins"),
    "marked": ("test_native_core", "test_every_stage_of_every_sweep_is_the_twins"),
    "max_pure_groups": ("test_native_sweep", "test_the_pure_group_bound_is_the_twins"),
    "pool_splits": ("test_native_core", "test_every_pool_splits_as_the_twins"),
    "rebuild_groups": ("test_native_core", "test_every_stage_of_every_sweep_is_the_twins"),
    "stage_from": ("test_native_moves", "test_the_rows_of_every_state_a_sweep_meets_are_pythons"),
    "suit_step": ("test_native_core", "test_every_stage_of_every_sweep_is_the_twins"),
    "suit_table": ("test_native_sweep", "test_a_suits_tables_are_the_twins"),
    "sweep_moves": ("test_native_moves", "test_the_rows_of_every_state_a_sweep_meets_are_pythons"),
    "sweep_positions": ("test_native_sweep", "test_every_position_is_the_twins"),
}
"""For each twin, the test (module, function) that compares the two cores on it."""


def test_every_native_entry_point_is_a_twin_or_its_own_machinery() -> None:
    found = {name for name in dir(native) if not name.startswith("_")}
    listed = set(backend.TWINS) | set(backend.NATIVE_ONLY)
    assert found - listed == set(), "native entry points missing from backend.TWINS"
    assert listed - found == set(), "listed entry points the native core lacks"
    assert not set(backend.TWINS) & set(backend.NATIVE_ONLY)


@pytest.mark.parametrize("name", backend.TWINS)
def test_each_twin_has_its_pair_and_a_test_that_compares_them(name: str) -> None:
    assert callable(getattr(twin, name, None)), f"core.py has no twin of the native {name}"
    assert callable(getattr(native, name))
    assert name in COMPARED_BY, f"no test compares the twins {name}: name one in COMPARED_BY"
    module, test = COMPARED_BY[name]
    assert callable(getattr(importlib.import_module(module), test, None)), (
        f"{module}.{test}, which should compare the twins {name}, does not exist"
    )


def test_the_map_names_only_listed_twins() -> None:
    assert set(COMPARED_BY) == set(backend.TWINS)


def test_back_pointers_are_the_twins() -> None:
    """Every entry of every stage a sweep keeps has the same back-pointer in both cores, and
    a balance no entry has is a LookupError in both."""
    assert native is not None
    rules = RuleSet.preset("classic")
    rng = random.Random("twins/back_of")
    checked = 0
    for _ in range(6):
        cut, hand = near_complete(rng, rules, None)
        spec = SweepSpec(counts_of(hand), Jokers.from_cut(cut).joker_mask, rules, 60)
        with backend.using("python"):
            python_run = sweep(spec)
        with backend.using("native"):
            native_run = sweep(spec)
        for python_stages, native_stages in zip(python_run.stages, native_run.stages, strict=True):
            for python_stage, native_stage in zip(python_stages, native_stages, strict=True):
                if python_stage is None:
                    assert native_stage is None
                    continue
                for key, entries in python_stage.items():
                    for balance, _, back in entries:
                        assert native.back_of(native_stage, key, balance) == back
                        assert twin.back_of(python_stage, key, balance) == back
                        checked += 1
                    missing = 1 + max(b for b, _, _ in entries)
                    for core, stage in ((twin, python_stage), (native, native_stage)):
                        with pytest.raises(LookupError):
                            core.back_of(stage, key, missing)
    assert checked > 100
