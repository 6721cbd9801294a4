"""The JSON record of a file a command wrote (docs/json.md: ``output``, ``format``, ``bytes``).

Commands whose product is a file (render, convert -o, transform -o, generate -o, grade --report,
encodings --table-md -o, experiment report) print this record under ``--json`` instead of
staying silent, so a pipeline learns what was written where.

Every output file is written through :mod:`kakurolab.fileio` (whole or not at all, one line on
failure); a file name made from a puzzle id goes through :func:`named_output`, so an id from a
file we did not write never chooses the directory.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

from ..fileio import check_writable, safe_name, write_bytes, write_text

__all__ = [
    "check_writable",
    "named_output",
    "renamed",
    "safe_name",
    "write_bytes",
    "write_text",
    "written",
]


def written(path: str | Path, fmt: str, **extra: Any) -> dict[str, Any]:
    """``{"output": PATH, "format": FMT, "bytes": SIZE, ...extra}`` for a file just written;
    ``bytes`` is None for standard output, a device or a FIFO (they keep no size)."""
    size = None
    if str(path) != "-":
        info = Path(path).stat()
        size = info.st_size if stat.S_ISREG(info.st_mode) else None
    return {"output": str(path), "format": fmt, "bytes": size, **extra}


def renamed(record: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``record`` with keys renamed to the shared vocabulary, order kept (for records a library
    module builds under its own names, e.g. the generator's ``seconds``)."""
    return {names.get(key, key): value for key, value in record.items()}


def named_output(puzzle_id: str, suffix: str, output: str | None) -> str:
    """Where a command writes a puzzle's file: ``output`` when it names a file (or ``-``);
    else ``<safe id><suffix>`` in the directory ``output`` names, or in the current one."""
    name = safe_name(puzzle_id) + suffix
    if output is None:
        return name
    if output != "-" and Path(output).is_dir():
        return str(Path(output) / name)
    return output
