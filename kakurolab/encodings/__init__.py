"""Encodings of Kakuro puzzles as CNF (through PySAT) and SMT formulas: pure, no solver runs here.

An encoding is named by its parts, ``kind=value`` joined by commas, e.g.
``cell=direct,sum=combo,alldiff=pairwise`` or ``smt=lia,logic=QF_FD``, or by a preset name
(``naive``, ``compact``, ``strong`` ...).  ``ENCODERS`` is a plain dict per part kind; the CNF
kinds come from :mod:`.cnf`, ``ENCODERS["smt"]`` from :mod:`.smt`.  :func:`parse_spec`
canonicalises a spec (defaults filled, sorted) and :func:`encode` builds the formula.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import KakuroError, UnknownNameError
from ..model import Puzzle
from .cnf import (
    CNF_DEFAULTS,
    CNF_ENCODERS,
    CNF_PRESETS,
    OPTIONAL_DEFAULTS,
    CNFEncoding,
    key_text,
)
from .encoding import Encoding, Part
from .smt import SMT_ENCODERS, SMT_PRESETS
from .spec import Spec, split_spec


@dataclass(frozen=True)
class Preset:
    """A named encoding spec (``kakuro encodings`` lists them), so results and the command
    line say ``fast`` instead of the full part list.

    Examples:
        >>> from kakurolab.encodings import PRESETS
        >>> PRESETS["fast"].spec
        'cell=direct,sum=combo:lean,alldiff=pairwise'
    """

    name: str
    spec: str
    doc: str


ENCODERS: dict[str, dict[str, Part]] = {**CNF_ENCODERS, "smt": SMT_ENCODERS}
"""Part kind -> value name -> Part."""

PRESETS: dict[str, Preset] = {
    name: Preset(name, spec, doc) for name, (spec, doc) in {**CNF_PRESETS, **SMT_PRESETS}.items()
}

DEFAULT_PRESET = "fast"
"""The fastest strong CNF preset (benchmarked on PE424 and janko with cadical195)."""


def parse_spec(text: str | Spec) -> Spec:
    """A preset name or a full spec, canonicalised; unknown parts raise UnknownNameError.

    Examples:
        >>> from kakurolab.encodings import parse_spec
        >>> str(parse_spec("cell=direct,sum=combo"))  # the other parts get their defaults
        'alldiff=none,amo=auto,cell=direct,redundant=none,sum=combo:full'
    """
    if isinstance(text, Spec):
        return text
    text = text.strip()
    if not text:
        raise KakuroError("empty encoding spec")
    if text in PRESETS:
        text = PRESETS[text].spec
    elif "=" not in text:
        raise UnknownNameError("encoding preset", text, PRESETS)
    parts = split_spec(text)
    if "smt" in parts:
        return _smt_spec(parts)
    return _cnf_spec(parts)


def _check_value(kind: str, value: str) -> str:
    """Validate ``value`` (with optional ``:arg``) of ``kind``; fill the default argument."""
    name, sep, arg = value.partition(":")
    table = ENCODERS[kind]
    if name not in table:
        raise UnknownNameError(f"{kind} encoding", name, table)
    part = table[name]
    if not part.args:
        if sep:
            raise KakuroError(f"{kind}={name} takes no argument, got {value!r}")
        return name
    if not sep:
        return f"{name}:{part.args[0]}"
    if arg not in part.args:
        raise UnknownNameError(f"{kind}={name} argument", arg, part.args)
    return value


def _cnf_spec(parts: dict[str, str]) -> Spec:
    for kind in parts:
        if kind not in CNF_ENCODERS:
            raise UnknownNameError("encoding part kind", kind, ENCODERS)
    canon = {kind: _check_value(kind, value) for kind, value in parts.items()}
    for kind, default in CNF_DEFAULTS.items():
        canon.setdefault(kind, _check_value(kind, default))
    sum_part = ENCODERS["sum"][canon["sum"].split(":")[0]]
    canon.setdefault("alldiff", "none" if sum_part.implies_alldiff else "pairwise")
    canon["alldiff"] = _check_value("alldiff", canon["alldiff"])
    if canon["alldiff"] == "none" and not sum_part.implies_alldiff:
        implying = [name for name, part in ENCODERS["sum"].items() if part.implies_alldiff]
        raise KakuroError(
            f"alldiff=none needs a sum encoding that implies all-different "
            f"({', '.join(implying)}), not sum={canon['sum']}"
        )
    for kind, default in OPTIONAL_DEFAULTS.items():
        if canon.get(kind) == default:
            del canon[kind]  # the default, left out so existing spec strings keep their name
    cell = canon["cell"]
    for kind in ("sum", "alldiff", "redundant"):
        part = ENCODERS[kind][canon[kind].split(":")[0]]
        if part.cells and cell not in part.cells:
            raise KakuroError(
                f"{kind}={canon[kind]} works with cell={'/'.join(part.cells)}, not cell={cell}"
            )
    return Spec.of(canon)


def _smt_spec(parts: dict[str, str]) -> Spec:
    name = parts["smt"]
    if name not in SMT_ENCODERS:
        raise UnknownNameError("smt encoding", name, SMT_ENCODERS)
    part = SMT_ENCODERS[name]
    for kind in parts:
        if kind != "smt" and kind not in part.options:
            raise UnknownNameError(f"option of smt={name}", kind, part.options or ["(none)"])
    return Spec.of(parts)


def encode(puzzle: Puzzle, spec: str | Spec) -> Encoding:
    """The puzzle as a formula under ``spec`` (a preset name or a full spec).

    Examples:
        >>> from kakurolab.encodings import encode
        >>> encoding = encode(puzzle, "fast")
        >>> encoding.stats()
        {'variables': 98, 'clauses': 466, 'literals': 1116}
    """
    canon = parse_spec(spec)
    if canon.family == "smt":
        build = SMT_ENCODERS[canon["smt"]].build
        assert build is not None
        return build(puzzle, canon)
    from .cnf import encode_cnf

    return encode_cnf(puzzle, canon)


def all_parts() -> dict[str, dict[str, str]]:
    """Kind -> value -> one-line doc, for listings (``kakuro encodings``).

    Examples:
        >>> from kakurolab.encodings import all_parts
        >>> sorted(all_parts()["cell"])
        ['direct', 'log', 'order']
    """
    return {
        kind: {name: part.doc for name, part in table.items()} for kind, table in ENCODERS.items()
    }


__all__ = [
    "DEFAULT_PRESET",
    "ENCODERS",
    "PRESETS",
    "CNFEncoding",
    "Encoding",
    "Part",
    "Preset",
    "Spec",
    "all_parts",
    "encode",
    "key_text",
    "parse_spec",
]
