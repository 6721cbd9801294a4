"""The old home of the deduction-steps checker, kept so ``from kakurolab.stepcheck import ...``
works: it lives in :mod:`kakurolab.proofs.stepcheck` now."""

from __future__ import annotations

from .proofs.stepcheck import (
    DIGITS,
    ClaimedStep,
    Justified,
    StepError,
    StepReport,
    allowed_here,
    cell_label,
    check_steps,
    parse_cell,
    read_steps,
    replay,
    run_label,
)

__all__ = [
    "DIGITS",
    "ClaimedStep",
    "Justified",
    "StepError",
    "StepReport",
    "allowed_here",
    "cell_label",
    "check_steps",
    "parse_cell",
    "read_steps",
    "replay",
    "run_label",
]
