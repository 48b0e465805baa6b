"""The folder layout is the architecture: each layer imports only from the layers before it.

Every import of the package is read with :mod:`ast`, whatever its form: ``import rummy21.x``,
``from rummy21.x import y``, ``from rummy21 import x`` and relative imports (``from . import y``,
``from ..cards import Card``), at module level or inside a function. Inside a layer, the modules
import one another without a cycle (a cycle is two modules that can only change together); an
import made only for the type checker (under ``if TYPE_CHECKING:``) is not a dependency at run time
and may point back.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "rummy21"
LAYERS = [
    {"cards", "ruleset", "workers", "charts"},
    {"jokers"},
    {"groups"},
    {"solver"},
    {"analysis", "distance", "suggest"},
    {"game"},
    {"bots"},
    {"env"},
    {"tournament", "learn", "review"},
    {"server"},
    {"cli"},
]
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _unit(module: str) -> str:
    """The top-level unit of a module: ``rummy21.solver.core`` -> ``solver``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:``."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in {
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        }:
            found.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return found


def _imports(module: str, *, runtime_only: bool = False) -> Iterator[str]:
    """The package's modules ``module`` imports (a name imported from a package that is a
    module of its own counts as that module)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text())
    skip = _type_checking_only(tree) if runtime_only else set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.split(".")[0] == "rummy21")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                if path.name != "__init__.py":
                    base.pop()
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != "rummy21":
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                yield submodule if submodule in MODULES else source


LAYERED = sorted(m for m in MODULES if m != "rummy21")


@pytest.mark.parametrize("module", LAYERED)
def test_imports_only_earlier_layers(module: str) -> None:
    unit = _unit(module)
    assert unit in RANK, f"{unit} has no layer: add it to LAYERS"
    for target in _imports(module):
        assert target in MODULES, f"{module} imports {target}, which is not a module"
        if target == "rummy21":
            raise AssertionError(f"{module} imports the package root; import the unit itself")
        other = _unit(target)
        assert RANK[other] <= RANK[unit], (
            f"{module} (layer {RANK[unit]}) imports {target} (layer {RANK[other]})"
        )


def test_every_listed_unit_exists() -> None:
    units = {_unit(m) for m in LAYERED}
    assert set(RANK) == units, (
        f"listed but missing: {sorted(set(RANK) - units)}; "
        f"present but unlisted: {sorted(units - set(RANK))}"
    )


def test_no_import_cycle_between_modules() -> None:
    graph = {m: {t for t in _imports(m, runtime_only=True) if t != m} for m in MODULES}
    # A package's __init__ re-exports its modules; a module importing a name from its own
    # package is the same dependency as importing the module that defines it.
    state: dict[str, int] = {}
    path: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if target.startswith(module + ".") or module.startswith(target + "."):
                continue  # a package and its own modules
            if state.get(target) == 1:
                cycles.append(path[path.index(target) :] + [target])
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_reader_sees_every_import_form(tmp_path: Path) -> None:
    """The import reader itself: relative, package-root and dotted forms all resolve."""
    probe = PACKAGE / "solver" / "core.py"
    assert probe.exists()
    forms = {
        "from . import runs": "rummy21.solver.runs",
        "from .runs import Run": "rummy21.solver.runs",
        "from ..cards import Card": "rummy21.cards",
        "from rummy21 import groups": "rummy21.groups",
        "import rummy21.game.table": "rummy21.game.table",
    }
    for source, expected in forms.items():
        fake = "rummy21.solver._probe"
        MODULES[fake] = tmp_path / "_probe.py"
        MODULES[fake].write_text(source + "\n")
        try:
            assert list(_imports(fake)) == [expected], source
        finally:
            del MODULES[fake]
