"""The old home of unit-propagation closures and exact counts, kept so ``from
kakurolab.analysis import ...`` works: it lives in :mod:`kakurolab.proofs.analysis` now."""

from __future__ import annotations

from .proofs.analysis import (
    CountTimeout,
    candidates,
    exact_count,
    pysat_closure,
    unit_closure,
    up_fixed_cells,
)

__all__ = [
    "CountTimeout",
    "candidates",
    "exact_count",
    "pysat_closure",
    "unit_closure",
    "up_fixed_cells",
]
