"""Griffe extension: the project's docstrings, written for reading in code, as Markdown.

The docstrings use Sphinx-style roles (``:class:`Table```, ``:func:`~rummy21.solver.solve```,
``:mod:`.view```) and bare doctests (``>>>`` lines). This turns each role into an autorefs
cross-reference and each doctest into a ``pycon`` code block, once the package is loaded:

* a name that resolves to an object of the package (as Python would resolve it where the
  docstring is, or relative with a leading dot) links to it when the site documents it, and
  reads as code when it does not (private helpers, modules left out of the reference);
* a built-in, or a full path outside the package (``secrets.SystemRandom``), reads as code;
* a name that resolves to nothing is a cross-reference the build cannot find: a warning, and
  with ``mkdocs build --strict`` an error — as it should be, wherever the docstring is shown.
"""

from __future__ import annotations

import builtins
import html
import re
from typing import Any

import griffe

ROLE = re.compile(
    r":(?:py:)?(?P<role>class|func|meth|mod|exc|attr|data|obj|const):"
    r"`(?P<text>[^`]+)`"
)
EXPLICIT = re.compile(r"^(?P<title>.+?)\s*<(?P<target>[^<>]+)>$")
CALLABLE_ROLES = {"func", "meth"}


class SphinxRoles(griffe.Extension):
    """Rewrite every docstring of the loaded package (see the module docstring)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            if obj.docstring is not None:
                obj.docstring.value = _markdown(obj, pkg, obj.docstring.value)


def _markdown(obj: griffe.Object, pkg: griffe.Module, text: str) -> str:
    return ROLE.sub(lambda m: _reference(obj, pkg, m), _doctests_as_code(text))


def _objects(obj: griffe.Object) -> list[griffe.Object]:
    found = [obj]
    for member in obj.members.values():
        if not member.is_alias:
            found.extend(_objects(member))  # type: ignore[arg-type]
    return found


def _reference(obj: griffe.Object, pkg: griffe.Module, match: re.Match[str]) -> str:
    role, text = match["role"], match["text"].strip()
    explicit = EXPLICIT.match(text)
    if explicit:
        title, target = explicit["title"], explicit["target"]
    else:
        target = text
        title = text.lstrip("~").lstrip(".")
        if text.startswith("~"):
            title = title.rsplit(".", 1)[-1]
    target = target.lstrip("~")
    if role in CALLABLE_ROLES:
        title += "()"
    code = f"<code>{html.escape(title)}</code>"
    path = _resolve(obj, pkg, target, role)
    if path is None:  # nowhere: autorefs reports it
        return f'<autoref identifier="{html.escape(target)}">{code}</autoref>'
    if path.split(".", 1)[0] != pkg.name:  # standard library, built-ins
        return code
    return f'<autoref identifier="{html.escape(path)}" optional>{code}</autoref>'


def _resolve(obj: griffe.Object, pkg: griffe.Module, target: str, role: str) -> str | None:
    """The full path ``target`` names where ``obj``'s docstring is, or ``None``."""
    if target.startswith("."):
        scope: griffe.Object | None = obj
        while scope is not None:
            if scope.is_module or role != "mod":
                candidate = scope.path + target
                if _exists(pkg, candidate):
                    return candidate
            scope = scope.parent
        return None
    head, _, rest = target.partition(".")
    if head == pkg.name:
        return target if _exists(pkg, target) else None
    try:
        base = obj.resolve(head)
    except griffe.NameResolutionError:
        if rest:  # a full path outside the package: sqlalchemy.X
            return target
        return head if hasattr(builtins, head) else None
    path = f"{base}.{rest}" if rest else base
    if path.split(".", 1)[0] != pkg.name:
        return path
    return path if _exists(pkg, path) else None


def _exists(pkg: griffe.Module, path: str) -> bool:
    head, _, rest = path.partition(".")
    if head != pkg.name:
        return False
    if not rest:
        return True
    try:
        pkg[rest]
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return False
    return True


def _doctests_as_code(text: str) -> str:
    """Fence each run of doctest lines (a ``>>>`` line up to the next blank line) as pycon."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if not stripped.startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(stripped)]
        block = []
        while i < len(lines) and lines[i].strip():
            block.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        if out and out[-1].strip():
            out.append("")
        out.extend([f"{indent}```pycon", *(indent + b for b in block), f"{indent}```", ""])
    return "\n".join(out).rstrip("\n")
