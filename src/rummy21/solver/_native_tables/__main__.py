"""``python -S -m rummy21.solver._native_tables HEADER`` (see the package)."""

from __future__ import annotations

import sys

from rummy21.solver._native_tables import main

sys.exit(main())
