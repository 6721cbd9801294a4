"""SMT encodings (filled in by the SMT side).

``SMT_ENCODERS`` maps the value of the ``smt=`` spec part to a :class:`~..base.Part` whose
``build(puzzle, spec)`` returns an :class:`~..base.Encoding`; ``Part.options`` lists the extra
spec kinds it accepts (e.g. ``logic``).  ``SMT_PRESETS`` adds named presets.
"""

from __future__ import annotations

from ..base import Part

SMT_ENCODERS: dict[str, Part] = {}
SMT_PRESETS: dict[str, tuple[str, str]] = {}
"""Preset name -> (spec, one-line doc)."""
