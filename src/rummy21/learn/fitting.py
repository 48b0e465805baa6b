"""What the learning stages' fits share: PyTorch, loaded only when a fit runs; a fit's folder,
checked before it is written or resumed; and its curve, written as CSV.

The policy's fit (:mod:`rummy21.learn.train`) and the reach network's
(:mod:`rummy21.learn.reach`) both stand on these, so neither imports the other for them;
stage 3 (:mod:`rummy21.learn.improve`) fits with them too.
"""

from __future__ import annotations

import csv
import importlib
import json
from pathlib import Path
from typing import Any


def torch_module() -> Any:
    """PyTorch, imported on first use: playing a shipped network never needs it."""
    try:
        return importlib.import_module("torch")
    except ImportError:
        raise ValueError(
            "training needs PyTorch: pip install 'rummy21[train]' (the CPU build: "
            "pip install torch --index-url https://download.pytorch.org/whl/cpu)"
        ) from None


def check_fit(out: Path, name: str, settings: dict[str, Any], resume: bool, what: str) -> Path:
    """Make the fit's folder ``out`` (or, resuming, check that its settings file ``name``
    says ``settings``); the settings file's path, for the caller to write."""
    out.mkdir(parents=True, exist_ok=True)
    spec = out / name
    if spec.exists() and not resume:
        raise ValueError(f"{out} holds {what} already; resume it with --resume")
    if spec.exists() and json.loads(spec.read_text()) != settings:
        raise ValueError(f"{out} holds {what} with other settings: {spec.read_text()}")
    return spec


def write_curve(path: Path, curve: list[dict[str, float]]) -> None:
    """The fit's curve as a CSV file, a line an epoch."""
    with path.open("w", newline="") as sink:
        writer = csv.DictWriter(sink, fieldnames=list(curve[0]))
        writer.writeheader()
        writer.writerows(curve)
