"""The runs file, ``results/<name>/runs.jsonl``: every read, append and resume decision.

Rows are appended one JSON line at a time, flushed, so a killed run loses at most the line it
was writing.  Reading is defensive: a line that is not a usable row is skipped with a note,
never trusted and never fatal.  :func:`pending` decides what a resumed run still has to do.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import KakuroError
from ..schema import canonical
from .config_schema import is_number
from .runs import Row, RunSpec

MAX_SHOWN_PROBLEMS = 5
"""Bad lines of a results file named one by one; the rest are counted."""


@dataclass(frozen=True)
class Rule:
    """What one field of a row must be: ``must_be`` is said in the note, ``test`` decides
    (a row read back is data, never trusted: any exception is a refusal)."""

    must_be: str
    test: Callable[[Any], bool]

    def holds(self, value: Any) -> bool:
        try:
            return bool(self.test(value))
        except (TypeError, ValueError, OverflowError):
            return False


def integer(low: int) -> Rule:
    return Rule(
        f"an integer at least {low}",
        lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= low,
    )


def _maybe(rule: Rule) -> Rule:
    return Rule(f"{rule.must_be}, or null", lambda v: v is None or rule.holds(v))


_SECONDS = _maybe(Rule("a number >= 0", lambda v: is_number(v) and v >= 0))
_COUNT = _maybe(integer(0))
_FLAG = _maybe(Rule("true or false", lambda v: isinstance(v, bool)))
_WORDS = _maybe(Rule("a string", lambda v: isinstance(v, str)))
ROW_REQUIRED: dict[str, Rule] = {
    name: Rule("a non-empty string", lambda v: isinstance(v, str) and bool(v))
    for name in ("key", "instance", "config", "hash", "status")
}
"""Fields without which a row means nothing (resume, tables and disagreements need them)."""
ROW_RULES: dict[str, Rule] = {
    **ROW_REQUIRED,
    **{name: _SECONDS for name in ("time_s", "wall_s", "timeout_s", "encode_s")},
    **{name: _SECONDS for name in ("solve_s", "peak_rss_mb", "base_rss_mb", "cpu_s")},
    "process_s": _SECONDS,
    **{name: _COUNT for name in ("repetition", "white_cells", "fixed_cells", "variables")},
    **{name: _COUNT for name in ("clauses", "n_solutions")},
    **{name: _FLAG for name in ("verified", "solved_by_up", "complete")},
    **{name: _WORDS for name in ("outcome", "message", "backend", "set", "digest")},
    "task": Rule("a string", lambda v: isinstance(v, str)),
    "answer": _maybe(Rule("a string of digits", lambda v: isinstance(v, str) and v.isdecimal())),
    "options": _maybe(Rule("a table", lambda v: isinstance(v, dict))),
}
"""The fields the runner and the report read, with their types: a row breaking one is
skipped with a warning rather than trusted (or crashing a table)."""


def row_problem(row: Any) -> str | None:
    """Why a parsed line is not a usable row, or None."""
    if not isinstance(row, dict):
        return f"not a row (a JSON {type(row).__name__})"
    for name in ROW_REQUIRED:
        if name not in row:
            return f"row without {name!r}"
    for name, rule in ROW_RULES.items():
        if name in row and not rule.holds(row[name]):
            return f"{name} = {str(row[name])[:30]!r}: must be {rule.must_be}"
    return None


def _parse_line(raw: bytes) -> Any:
    """One JSON line; ValueError says what is wrong with it."""
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except RecursionError:
        raise ValueError("not JSON (nesting too deep)") from None
    except ValueError as exc:  # JSONDecodeError, and integers past Python's digit limit
        raise ValueError(f"not JSON ({str(exc)[:60]})") from None


def last_line(data: bytes) -> str:
    """The one decision about the end of a results file, shared by reader and writer.

    ``closed``: empty, or ends with a newline.  ``complete``: the last line lacks its
    newline but is whole JSON (the writer died between the row and its newline): it is a
    row, and the writer adds the newline.  ``torn``: an unfinished write, which the reader
    ignores and the writer cuts off before appending.
    """
    if not data or data.endswith(b"\n"):
        return "closed"
    try:
        _parse_line(data[data.rfind(b"\n") + 1 :])
    except ValueError:
        return "torn"
    return "complete"


@dataclass
class RunsFile:
    """A ``runs.jsonl`` read defensively: its good rows and a note per bad line."""

    rows: list[Row]
    problems: list[str]


def scan_runs(path: Path) -> RunsFile:
    """Every usable row of a results file; bad lines become problems, never exceptions."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return RunsFile([], [])
    except OSError as exc:
        raise KakuroError(f"{path}: cannot read: {exc.strerror or exc}") from None
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    torn = last_line(data) == "torn"
    result = RunsFile([], [])
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        if torn and number == len(lines):
            result.problems.append(f"line {number}: unfinished last line, ignored")
            continue
        try:
            row = _parse_line(raw)
            if isinstance(row, dict):
                row = canonical(row)  # rows written before the shared key names
        except ValueError as exc:
            result.problems.append(f"line {number}: {exc}, skipped")
            continue
        problem = row_problem(row)
        if problem:
            result.problems.append(f"line {number}: {problem}, skipped")
        else:
            result.rows.append(row)
    return result


def read_rows(path: Path, *, quiet: bool = False) -> list[Row]:
    """The usable rows of a runs.jsonl, warning (unless ``quiet``) about each bad line.

    Examples:
        >>> from kakurolab.experiments import load_experiment, make_executor, read_rows
        >>> from kakurolab.experiments import run_experiment
        >>> experiment = load_experiment(tiny_config)
        >>> summary = run_experiment(experiment, make_executor("local"), progress=False)
        >>> rows = read_rows(summary.results_dir / "runs.jsonl")
        >>> [(row["instance"], row["status"], row["verdict"]) for row in rows]
        [('standard/standard', 'sat', 'unique')]
    """
    found = scan_runs(path)
    if not quiet:
        for problem in found.problems[:MAX_SHOWN_PROBLEMS]:
            warn(f"{path}: {problem}")
        if len(found.problems) > MAX_SHOWN_PROBLEMS:
            warn(f"{path}: {len(found.problems) - MAX_SHOWN_PROBLEMS} more bad line(s) skipped")
    return found.rows


def latest_rows(rows: Iterable[Row]) -> dict[str, Row]:
    """One row per key (the last one written wins)."""
    return {row["key"]: row for row in rows if "key" in row}


class RowWriter:
    """Appends rows as JSON lines, flushed one by one; first settles the last line
    (:func:`last_line`): a whole row gets its newline, a torn one is cut off."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size:
            with path.open("rb+") as fh:
                data = fh.read()
                state = last_line(data)
                if state == "torn":
                    fh.truncate(data.rfind(b"\n") + 1)
                elif state == "complete":
                    fh.write(b"\n")
        self.fh = path.open("a", encoding="utf-8")

    def write(self, row: Row) -> None:
        self.fh.write(json.dumps(row, sort_keys=True, default=str) + "\n")
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()




@dataclass
class Resume:
    """What a run of planned specs finds in its runs file."""

    done: dict[str, Row]
    """The finished rows, by key (the last one written wins)."""
    pending: list[RunSpec]
    """The planned specs without a row, in plan order."""
    stale: list[str]
    """Keys whose row was measured on a different puzzle under the same id (kept)."""

    def done_of(self, specs: Sequence[RunSpec]) -> int:
        return sum(spec.key in self.done for spec in specs)


def pending(path: Path, specs: Sequence[RunSpec]) -> Resume:
    """The specs of a plan still to run, given the rows already in ``path``."""
    done = latest_rows(read_rows(path))
    return Resume(
        done=done,
        pending=[s for s in specs if s.key not in done],
        stale=[s.key for s in specs if s.key in done and done[s.key]["hash"] != s.hash],
    )


def warn(message: str) -> None:
    import sys

    print(f"kakuro: warning: {message}", file=sys.stderr, flush=True)
