"""The old home of unit-propagation closures and exact counts, kept so ``from
kakurolab.analysis import ...`` works: it lives in :mod:`kakurolab.proofs.analysis` now."""

from __future__ import annotations

from .proofs.analysis import *  # noqa: F403 -- a shim: the names are listed once, in its __all__
from .proofs.analysis import __all__ as __all__
