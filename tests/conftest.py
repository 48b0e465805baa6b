"""Shared test settings: hypothesis profiles and the worked examples from RULES.md."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings

settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

EXAMPLES = Path(__file__).resolve().parents[2] / "shared" / "examples" / "analysis.jsonl"
LOCAL_EXAMPLES = Path(__file__).resolve().parent / "data" / "analysis.jsonl"


def worked_examples() -> list[dict[str, Any]]:
    """The worked hands of RULES.md (a copy is kept in tests/data for fresh clones)."""
    path = EXAMPLES if EXAMPLES.exists() else LOCAL_EXAMPLES
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
