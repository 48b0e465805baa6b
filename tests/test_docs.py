"""The documentation site says what the code does: its examples run, its copies are exact.

Every ``pycon`` block of a page runs as a doctest (a page's blocks share one namespace, in
order), so the outputs printed on the pages are the outputs of the code. The rules page shows
a copy of RULES.md and the worked examples of ``tests/data``: where the originals (the shared
folder beside the repository) are at hand, the copies must equal them.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
from conftest import EXAMPLES, LOCAL_EXAMPLES

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SHARED_RULES = ROOT.parent / "shared" / "RULES.md"
PYCON = re.compile(r"^```pycon\n(.*?)^```$", re.MULTILINE | re.DOTALL)
PAGES = sorted(p for p in DOCS.rglob("*.md") if PYCON.search(p.read_text(encoding="utf-8")))


def test_some_pages_have_examples() -> None:
    assert {p.name for p in PAGES} >= {"getting-started.md", "event-log.md"}


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_page_examples_run(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    namespace: dict[str, object] = {}
    for block in PYCON.finditer(text):
        line = text.count("\n", 0, block.start(1))
        test = doctest.DocTestParser().get_doctest(block[1], namespace, page.name, str(page), line)
        runner.run(test, clear_globs=False)
        namespace = test.globs  # the next block goes on from here
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} example(s) of {page.name} failed (see above)"


@pytest.mark.skipif(not SHARED_RULES.exists(), reason="no shared RULES.md beside the repository")
def test_rules_page_is_rules_md() -> None:
    copy = DOCS / "includes" / "RULES.md"
    assert copy.read_text(encoding="utf-8") == SHARED_RULES.read_text(encoding="utf-8"), (
        "RULES.md changed: copy it to docs/includes/RULES.md"
    )


@pytest.mark.skipif(not EXAMPLES.exists(), reason="no shared worked examples")
def test_worked_examples_copy_is_exact() -> None:
    assert LOCAL_EXAMPLES.read_bytes() == EXAMPLES.read_bytes(), (
        "the worked examples changed: copy them to tests/data/analysis.jsonl"
    )


def test_rules_page_includes_the_copy() -> None:
    page = (DOCS / "rules.md").read_text(encoding="utf-8")
    assert '--8<-- "RULES.md:1:1"' in page and '--8<-- "RULES.md:2:"' in page
    assert "<!-- generated: worked-examples -->" in page
