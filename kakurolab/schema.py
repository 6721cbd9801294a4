"""One vocabulary for results: the keys a solver outcome has, wherever it is printed or stored.

The CLI's ``--json`` objects, the experiment rows (``runs.jsonl``) and the bench report all
describe the same things: a status, solution counts, seconds.  :class:`ResultRecord` is that
shared part, built once from a :class:`~kakurolab.backends.Result`; ``docs/json.md`` lists the
keys.  Rows written before the vocabulary was shared used other names for the same seconds;
:func:`canonical` renames them on reading, so old result files still load and report the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from .backends.session import Result

RENAMED: dict[str, str] = {
    "time": "time_s",
    "encode_time": "encode_s",
    "solve_time": "solve_s",
    "wall_time": "wall_s",
    "timeout": "timeout_s",
    "find_time": "find_s",
    "refute_time": "refute_s",
    "certify_time": "certify_s",
    "whites": "white_cells",
}
"""Old experiment-row key -> its name in the shared vocabulary (seconds end in ``_s``,
counts of cells say what they count)."""


def canonical(row: Mapping[str, Any]) -> dict[str, Any]:
    """``row`` with old key names replaced by the shared ones (order kept)."""
    return {RENAMED.get(key, key): value for key, value in row.items()}


def seconds(value: float) -> float:
    """Seconds as every record stores them: rounded to the microsecond."""
    return round(value, 6)


@dataclass(frozen=True)
class ResultRecord:
    """What one solver run produced, under the shared keys."""

    status: str
    n_solutions: int
    complete: bool
    answer: str | None
    time_s: float
    encode_s: float
    solve_s: float
    backend: str
    options: dict[str, Any] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)
    message: str = ""

    @classmethod
    def from_result(cls, result: Result, status: str | None = None) -> ResultRecord:
        """The record of ``result``; ``status`` overrides its status (a caller that judged
        the run late, for example)."""
        solution = result.solution
        return cls(
            status=str(result.status) if status is None else status,
            n_solutions=len(result.solutions),
            complete=bool(result.complete),
            answer=solution.answer if solution is not None else None,
            time_s=seconds(result.time),
            encode_s=seconds(result.encode_time),
            solve_s=seconds(result.solve_time),
            backend=result.backend,
            options={k: v for k, v in result.options.items() if k != "backend"},
            stats=dict(result.stats),
            message=result.message,
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


__all__ = ["RENAMED", "ResultRecord", "canonical", "seconds"]
