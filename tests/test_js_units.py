"""The browser table's pure JavaScript (the reducer, the views' models, the layout, the cards,
the socket and the storage) under Node's own test runner.

The files in ``tests/js`` import the modules as the page does (``/static/layout.js``); a resolve
hook maps that path to the package's static folder. Skipped where no Node.js 20+ is installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JS_TESTS = ROOT / "tests" / "js"
NODE = shutil.which("node")


def _node_major() -> int:
    if NODE is None:
        return 0
    out = subprocess.run([NODE, "--version"], capture_output=True, text=True, check=False).stdout
    match = re.match(r"v(\d+)", out.strip())
    return int(match.group(1)) if match else 0


pytestmark = pytest.mark.skipif(_node_major() < 20, reason="needs Node.js 20 or later")


def test_the_table_modules_pass_their_node_tests() -> None:
    files = sorted(str(path.relative_to(ROOT)) for path in JS_TESTS.glob("*.test.mjs"))
    assert files, "no JavaScript tests found"
    assert NODE is not None
    result = subprocess.run(
        [NODE, "--import", "./tests/js/static-imports.mjs", "--test", *files],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    passed = re.search(r"^# pass (\d+)$", report, re.MULTILINE)
    failed = re.search(r"^# fail (\d+)$", report, re.MULTILINE)
    assert passed and int(passed.group(1)) >= 30, report
    assert failed and int(failed.group(1)) == 0, report
