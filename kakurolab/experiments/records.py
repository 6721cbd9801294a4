"""The records an experiment passes around: a run to do (:class:`RunSpec`) and what became
of it (:data:`Row`, one line of ``runs.jsonl``).

Both are typed here once; the planner makes specs, the executors carry them to a child, the
tasks turn them into rows, and the runs file, the report and the plots read the rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model import Puzzle

DEFINITIVE = frozenset({"sat", "unsat"})
"""Statuses that end a run with an answer; everything else counts as unsolved."""

Row = dict[str, Any]
"""One row of ``runs.jsonl``: JSON, so a plain mapping, with the fields
:data:`kakurolab.experiments.runsfile.ROW_RULES` checks on reading."""


@dataclass(frozen=True)
class RunSpec:
    """One run: an instance under a configuration, at one repetition, with its limits."""

    key: str
    """``instance|configuration|repetition``: what resume matches rows by."""
    experiment: str
    instance: str
    set: str
    hash: str
    puzzle: Puzzle
    config: str
    backend: str
    task: str
    repetition: int
    timeout: float
    options: Mapping[str, Any] = field(default_factory=dict)
    soft_timeout: bool = True
    """Pass the timeout to the backend; when false only the hard kill enforces it."""
    count_limit: int | None = None
    memory_mb: int | None = None

    @property
    def seed(self) -> int:
        return self.repetition

    @property
    def soft(self) -> float | None:
        """The timeout handed to the backend (None: the hard kill alone enforces it)."""
        return self.timeout if self.soft_timeout else None
