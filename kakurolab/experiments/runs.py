"""The records an experiment passes around: a run to do (:class:`RunSpec`) and what became
of it (:data:`Row`, one line of ``runs.jsonl``).

Both are typed here once; the planner makes specs, the executors carry them to a child, the
tasks turn them into rows, and the runs file, the report and the plots read the rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from ..model import Puzzle

DEFINITIVE = frozenset({"sat", "unsat"})
"""Statuses that end a run with an answer; everything else counts as unsolved."""

class Row(TypedDict, total=False):
    """One row of ``runs.jsonl`` (docs/experiments.md): every field with its type.

    A JSON object on disk and a dict in memory, so committed rows read and print unchanged
    (rows from before the shared vocabulary are renamed on reading); the types are checked
    statically here, and on reading by :data:`kakurolab.experiments.runsfile.ROW_RULES`.
    """

    # the run: what was measured, under which configuration
    key: str
    experiment: str
    instance: str
    set: str
    hash: str
    rows: int
    cols: int
    white_cells: int
    kind: str
    config: str
    backend: str
    options: dict[str, Any]
    encoding: str | None
    solver: str | None
    task: str
    repetition: int
    seed: int
    timeout_s: float
    start: str
    host: str
    pid: int
    # what happened
    status: str
    verified: bool | None
    outcome: str | None
    message: str
    answer: str | None
    digest: str | None
    n_solutions: int | None
    complete: bool | None
    verdict: str
    # time, size and memory
    time_s: float | None
    encode_s: float | None
    solve_s: float | None
    wall_s: float
    process_s: float
    cpu_s: float
    peak_rss_mb: float
    base_rss_mb: float
    variables: int | None
    clauses: int | None
    stats: dict[str, Any]
    # the up-only task
    fixed_cells: int
    solved_by_up: bool
    # the certify task (``certify.certificate_row``)
    find_s: float
    refute_s: float
    certify_s: float
    proof_lines: int
    proof_bytes: int
    steps: int | None
    check_times: dict[str, float]
    check_python: float | None
    check_native: float | None
    ratio_python: float | None
    ratio_native: float | None


@dataclass(frozen=True)
class RunSpec:
    """One run: an instance under a configuration, at one repetition, with its limits.

    Examples:
        >>> from kakurolab.experiments import load_experiment, plan
        >>> spec = plan(load_experiment(tiny_config)).specs[0]
        >>> spec.key, spec.backend, spec.task, spec.timeout
        ('standard/standard|native|0', 'native', 'unique', 5.0)
    """

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
