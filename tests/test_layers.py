"""The folder layout is the architecture: each layer imports only from the layers before it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "rummy21"
LAYERS = [
    {"cards", "ruleset"},
    {"jokers"},
    {"groups"},
    {"solver"},
    {"analysis", "distance", "suggest"},
    {"game"},
    {"bots"},
    {"server"},
    {"cli"},
]
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}


def _unit(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rummy21."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("rummy21."))
    return found


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if _unit(p) != "__init__")


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES])
def test_imports_only_earlier_layers(path: Path) -> None:
    unit = _unit(path)
    assert unit in RANK, f"{unit} has no layer: add it to LAYERS"
    for target in _imports(path):
        assert target in RANK, f"{path.name} imports unknown unit {target}"
        assert RANK[target] <= RANK[unit], f"{unit} (layer {RANK[unit]}) imports {target} (layer {RANK[target]})"
