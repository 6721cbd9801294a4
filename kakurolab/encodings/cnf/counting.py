"""Exact solution counting with the Ganak model counter (extra ``count``).

The count is *projected* onto the grid variables (cells' own variables and letters): every
grid counts once however many ways the auxiliaries of the encoding can be set.
"""

from __future__ import annotations

from ...errors import KakuroError, require
from ...model import Puzzle
from ..spec import Spec


def exact_count(puzzle: Puzzle, spec: str | Spec = "combo") -> int:
    """The number of solutions of the puzzle, by projected model counting over the CNF."""
    from .. import encode
    from . import CNFEncoding

    pyganak = require("pyganak", extra="count", feature="exact counting")
    enc = encode(puzzle, spec)
    if not isinstance(enc, CNFEncoding):
        raise KakuroError(f"exact counting needs a CNF encoding, not {enc.spec}")
    if enc.lazy_runs:
        raise KakuroError("exact counting needs every sum in the CNF; sum=lazy leaves them out")
    if any(not clause for clause in enc.clauses):
        return 0
    counter = pyganak.Counter()  # type: ignore[attr-defined]
    counter.new_vars(enc.n_vars)
    counter.add_clauses(enc.clauses)
    counter.set_sampling_set(enc.grid_vars)
    return int(counter.count())
