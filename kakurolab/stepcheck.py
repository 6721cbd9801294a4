"""The old home of the deduction-steps checker, kept so ``from kakurolab.stepcheck import ...``
works: it lives in :mod:`kakurolab.proofs.stepcheck` now."""

from __future__ import annotations

from .proofs.stepcheck import *  # noqa: F403 -- a shim: the names are listed once, in its __all__
from .proofs.stepcheck import __all__ as __all__
