"""The real puzzle collections shipped in the repository's ``data/`` folder.

One place names them, so tests, the bench, the examples and the experiments read the same
files; ``data/README.md`` gives each file's source and terms.
"""

from __future__ import annotations

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
"""``data/`` at the root of a checkout (an editable install reads it in place)."""

PE424 = DATA_DIR / "p424_kakuro200.txt"
JANKO_DEV = DATA_DIR / "janko_kakuro_dev.json"
JANKO_ODDITIES = DATA_DIR / "janko_publisher_oddities.json"
JANKO_BEYOND_RUNS = DATA_DIR / "janko_beyond_runs.json"
STRESS_LOOSE = DATA_DIR / "stress_loose_101x31.txt"
