"""The declared schema of a certificate's JSON files: ``manifest.json``, ``solution.json`` and
``steps.json``, decoded with msgspec (as ``web/`` decodes a browser's messages).

A certificate comes from anyone; each of its JSON files is decoded into the structs below in
one step, which say every field's type, range and pattern.  Anything else (a ``files`` field
that is a list, an entry that is a string, 100,000 nested ``[``, ``{"steps": 5}``, a digit
that is not ASCII) is one :class:`SchemaError` line, never a traceback.  The claims and their
kinds are checked against each other here too (:func:`check_claim`).
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar

import msgspec
from msgspec import Meta, Struct

from ..errors import KakuroError
from .formula import FORMULA, MANIFEST, PROOF, PUZZLE, SOLUTION, STEPS

T = TypeVar("T")

MAX_JSON_BYTES = 16_000_000
"""The largest manifest, solution or steps file read (a 140x140 grid's steps are ~2 MB)."""

CLAIMS = ("unique", "unsat")
KINDS = ("drat", "steps")
REQUIRED: dict[str, tuple[str, ...]] = {
    "unique": (PUZZLE, SOLUTION, FORMULA, PROOF),
    "unsat": (PUZZLE, FORMULA, PROOF),
}
"""The files each claim needs (``steps.json`` is optional, for ``unique`` only)."""

Sha256 = Annotated[str, Meta(pattern="^[0-9a-f]{64}$")]
Size = Annotated[int, Meta(ge=0, le=1 << 50)]
Name = Annotated[str, Meta(max_length=200)]
Digit = Annotated[int, Meta(ge=1, le=9)]
LetterDigit = Annotated[int, Meta(ge=0, le=9)]
Letter = Annotated[str, Meta(pattern="^[A-J]$")]
CellName = Annotated[str, Meta(pattern="^r[0-9]{1,3}c[0-9]{1,3}$")]
Row = Annotated[str, Meta(max_length=1000)]


class SchemaError(KakuroError, ValueError):
    """A certificate file that does not follow the declared schema."""


class FileEntry(Struct, forbid_unknown_fields=True):
    sha256: Sha256
    bytes: Size


class FormulaInfo(Struct):
    variables: Size
    clauses: Size
    blocking_clause: list[int] | None = None


class Manifest(Struct):
    """``manifest.json``; fields older certificates lack have their old defaults."""

    format: Literal["kakurolab-certificate/1"]  # formula.FORMAT
    puzzle: Name
    claim: Literal["unique", "unsat"]
    kinds: list[Literal["drat", "steps"]]
    encoding: Annotated[str, Meta(max_length=500)]
    files: dict[
        Literal["puzzle.txt", "solution.json", "formula.cnf", "proof.drat", "steps.json"],
        FileEntry,
    ]
    encoder: int = 1
    reference_encoding: bool = False
    solver: Name = ""
    formula: FormulaInfo | None = None


class SolutionFile(Struct):
    """``solution.json``: one string per grid row, letters for a cryptic puzzle."""

    rows: list[Row]
    puzzle: Name | None = None
    letters: dict[Letter, LetterDigit] = {}
    answer: str | None = None


class StepRecord(Struct):
    """One step of ``steps.json`` (``logic.Step.to_json``); other keys are prose."""

    technique: Name = "?"
    eliminations: dict[CellName, list[Digit]] = {}
    placements: dict[CellName, Digit] = {}
    text: str | None = None


class StepsFile(Struct):
    steps: list[StepRecord]
    puzzle: Name | None = None
    claim: Literal["unique"] = "unique"


def decode(raw: bytes, kind: type[T], what: str) -> T:
    """``raw`` JSON as ``kind``, or one :class:`SchemaError` line naming the file ``what``."""
    if len(raw) > MAX_JSON_BYTES:
        raise SchemaError(f"{what} is larger than {MAX_JSON_BYTES:,} bytes")
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.ValidationError as exc:
        raise SchemaError(f"{what}: {_short(str(exc))}") from None
    except (msgspec.DecodeError, RecursionError) as exc:
        raise SchemaError(f"{what} is not JSON: {_short(str(exc))}") from None


def _short(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 200 else line[:197] + "..."


def read_manifest(raw: bytes) -> Manifest:
    """The manifest, its claim and kinds agreeing with the files it lists."""
    manifest = decode(raw, Manifest, MANIFEST)
    check_claim(manifest)
    return manifest


def check_claim(manifest: Manifest) -> None:
    """The claim's files are there, and ``kinds`` names exactly the certificates shipped: a
    DRAT proof always, deduction steps iff ``steps.json`` is listed (``unique`` only)."""
    for name in REQUIRED[manifest.claim]:
        if name not in manifest.files:
            raise SchemaError(f"a {manifest.claim!r} certificate lists no {name}")
    if manifest.claim == "unsat" and (SOLUTION in manifest.files or STEPS in manifest.files):
        raise SchemaError("an 'unsat' certificate has no solution and no steps")
    want = ["drat"] + (["steps"] if STEPS in manifest.files else [])
    if sorted(manifest.kinds) != sorted(want):
        raise SchemaError(
            f"kinds {manifest.kinds} do not match the files: a {manifest.claim!r} certificate "
            f"with {', '.join(sorted(manifest.files))} has kinds {want}"
        )

