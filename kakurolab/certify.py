"""The old home of certified uniqueness, kept so ``from kakurolab.certify import ...`` works:
everything lives in :mod:`kakurolab.proofs` now, and this module re-exports its face whole."""

from __future__ import annotations

from .proofs import *  # noqa: F403 -- a shim: the face's names, listed once in proofs.__all__
from .proofs import __all__ as __all__
