"""The JSON record of a file a command wrote (docs/json.md: ``output``, ``format``, ``bytes``).

Commands whose product is a file (render, convert -o, transform -o, generate -o, grade --report,
encodings --table-md -o, experiment report) print this record under ``--json`` instead of
staying silent, so a pipeline learns what was written where.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def written(path: str | Path, fmt: str, **extra: Any) -> dict[str, Any]:
    """``{"output": PATH, "format": FMT, "bytes": SIZE, ...extra}`` for a file just written."""
    return {"output": str(path), "format": fmt, "bytes": Path(path).stat().st_size, **extra}


def renamed(record: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``record`` with keys renamed to the shared vocabulary, order kept (for records a library
    module builds under its own names, e.g. the generator's ``seconds``)."""
    return {names.get(key, key): value for key, value in record.items()}
