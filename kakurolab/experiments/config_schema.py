"""The schema of an experiment config: one msgspec type per field, as ``web/protocol.py``
declares its messages, and the check that refuses a table in one line naming the field, its
value and what it must be (the type's description)."""

from __future__ import annotations

import math
import re
from typing import Annotated, Any

import msgspec
from msgspec import Meta, Struct

from ..errors import KakuroError
from .tasks import TASKS

TASK_NAMES = tuple(TASKS)
"""The tasks a config may name (one record each in ``tasks.TASKS``)."""

MAX_RUNS = 100_000
"""The most runs one experiment may plan (instances x configurations x repetitions), and so
the most repetitions, configurations, selected ids or generated seeds: a bigger grid is a
typo, or several experiments.  Checked by arithmetic before anything is expanded."""
MAX_TIMEOUT = 7 * 24 * 3600.0
"""The longest timeout per run (a week): anything longer is no limit at all."""
MAX_MEMORY_MB = 2**24
"""The largest ``memory_mb`` (16 TiB): ``RLIMIT_AS`` in bytes must fit the kernel's type."""
NAME_PATTERN = r"[A-Za-z0-9_.-]+"
"""Experiment and set names: they become file names under ``results/``."""


# One msgspec struct per table: each field's type, range and pattern, and the words a
# refusal says it must be (``description``).


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    return _is_int(value) or (isinstance(value, float) and math.isfinite(value))


Name = Annotated[
    str, Meta(pattern=f"^{NAME_PATTERN}$", description="letters, digits, '.', '_' or '-'")
]
Text = Annotated[str, Meta(min_length=1, description="a non-empty string")]
AnyText = Annotated[str, Meta(description="a string")]
Flag = Annotated[bool, Meta(description="true or false")]
Count = Annotated[int, Meta(ge=0, description="an integer at least 0")]
Positive = Annotated[int, Meta(ge=1, description="an integer at least 1")]
Seconds = Annotated[
    float, Meta(gt=0, le=MAX_TIMEOUT, description=f"a number above 0 and at most {MAX_TIMEOUT:g}")
]
Task = Annotated[
    str,
    Meta(pattern=f"^({'|'.join(map(re.escape, TASK_NAMES))})$"),
]
Scalar = str | bool | int | float
"""A backend option's plain value (a date, a table or a list of lists is none)."""


def _one_or_list(kind: Any, must_be: str, most: int = MAX_RUNS) -> Any:
    """A value of ``kind``, or a list of 1 to ``most`` of them."""
    many = Annotated[list[kind], Meta(min_length=1, max_length=most)]
    return Annotated[kind | many, Meta(description=f"{must_be}, or a list of 1 to {most} of them")]


class TopTable(Struct, forbid_unknown_fields=True):
    """The top-level fields.  ``count_limit = 0`` means no limit, as ``kakuro count --limit
    0``; the ``[[puzzles]]`` and ``[[configs]]`` tables are checked one by one."""

    name: Name | None = None
    description: AnyText = ""
    task: Annotated[
        Task | Annotated[list[Task], Meta(min_length=1, max_length=len(TASK_NAMES))],
        Meta(description=f"one of {', '.join(TASK_NAMES)}, or a list of 1 to {len(TASKS)} of them"),
    ] = "solve"
    timeout: Seconds = 10.0
    memory_mb: Annotated[
        int, Meta(ge=64, le=MAX_MEMORY_MB, description=f"an integer from 64 to {MAX_MEMORY_MB}")
    ] = 2048
    repetitions: Annotated[
        int, Meta(ge=1, le=MAX_RUNS, description=f"an integer from 1 to {MAX_RUNS}")
    ] = 1
    count_limit: Count = 0
    puzzles: Annotated[
        list[dict[str, Any]], Meta(min_length=1, description="one or more [[puzzles]] tables")
    ] = []
    configs: Annotated[
        list[dict[str, Any]], Meta(min_length=1, description="one or more [[configs]] tables")
    ] = []
    report: Annotated[dict[str, Any], Meta(description="a table")] = {}


SELECT_MUST_BE = 'ids and ranges like "1-20,25", or a non-empty list of ids'
Select = Annotated[
    str | Annotated[list[str | Annotated[int, Meta(ge=0)]], Meta(min_length=1)],
    Meta(description=SELECT_MUST_BE),
]


class SetTable(Struct, forbid_unknown_fields=True):
    """A ``[[puzzles]]`` table: exactly one of file, shipped, generate, and filters."""

    file: Text | None = None
    shipped: Text | None = None
    generate: Annotated[dict[str, Any], Meta(description="a table")] | None = None
    name: Name | None = None
    select: Select | None = None
    first: Positive | None = None
    max_whites: Positive | None = None
    format: Text | None = None


class GenerateTable(Struct, forbid_unknown_fields=True):
    """``generate = {...}``: the size, difficulty and seeds, plus options of
    ``kakurolab.generator.generate``."""

    size: Annotated[str, Meta(description='a string like "12x12"')] | None = None
    difficulty: Text = "normal"
    seeds: Annotated[
        Annotated[int, Meta(ge=1, le=MAX_RUNS)]
        | Annotated[list[Annotated[int, Meta(ge=0)]], Meta(min_length=1, max_length=MAX_RUNS)],
        Meta(description=f"a count from 1 to {MAX_RUNS}, or a non-empty list of integers >= 0"),
    ] = 1
    symmetric: Flag = True
    logic_only: Flag = True
    backend: Text = "native"
    max_repairs: Count | None = None
    max_layouts: Positive = 200
    node_limit: Count | None = None
    timeout: Seconds | None = None


TWO_LABELS = "a list of two configuration labels"


class ReportTable(Struct, forbid_unknown_fields=True):
    """``[report]``: which two configurations a scatter plot compares, and which puzzle sets
    form one family for the growth exponents."""

    scatter: (
        Annotated[list[str], Meta(min_length=2, max_length=2, description=TWO_LABELS)] | None
    ) = None
    growth: Annotated[
        dict[str, Annotated[list[str], Meta(min_length=1)]],
        Meta(
            min_length=1,
            description='a table of families, each a non-empty list of puzzle set names: '
            '{loose = ["loose"]}',
        ),
    ] | None = None


CONFIG_FIELDS: dict[str, Any] = {
    "backend": _one_or_list(Text, "a non-empty string"),
    "label": AnyText,
    "soft_timeout": Flag,
}
"""The fixed keys of a ``[[configs]]`` table; every other key is a backend option."""
OPTION_FIELDS: dict[str, Any] = {
    name: _one_or_list(kind, must_be)
    for name, (kind, must_be) in {
        "encoding": (Text, "a non-empty string"),
        "solver": (Text, "a non-empty string"),
        "logic": (Text, "a non-empty string"),
        "tactic": (Text, "a non-empty string"),
        "params": (AnyText, "a string"),
        "seed": (Count, "an integer at least 0"),
        "random_seed": (Count, "an integer at least 0"),
        "num_workers": (Positive, "an integer at least 1"),
        "node_limit": (Count, "an integer at least 0"),
        "max_time_in_seconds": (Seconds, f"a number above 0 and at most {MAX_TIMEOUT:g}"),
    }.items()
}
"""Types of the backend options the shipped backends take (the backend then checks the
names and values it accepts); other options must be plain values."""
OTHER_OPTION = _one_or_list(Scalar, "a string, number or true/false")
CONFIG_META = {"label", "soft_timeout"}
"""Keys of a ``[[configs]]`` table that are not backend options."""


FIELDS: dict[type[Struct], dict[str, Any]] = {
    table: {f.name: f.type for f in msgspec.structs.fields(table)}
    for table in (TopTable, SetTable, GenerateTable, ReportTable)
}
"""Each table's field types, resolved once, at import (the bounds are the constants' values
then)."""


def show(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def must_be(kind: Any, error: msgspec.ValidationError) -> str:
    """The words of ``kind``'s description (msgspec's own message when it has none)."""
    info = msgspec.inspect.type_info(kind)
    for part in (info, *getattr(info, "types", ())):  # a union: the described member
        schema = getattr(part, "extra_json_schema", None) or {}
        if schema.get("description"):
            return str(schema["description"])
    return str(error).split(" - at ")[0]


def _finite(value: Any) -> bool:
    """No inf or nan in a value or a list of values (msgspec takes them for a float without
    bounds)."""
    if isinstance(value, list):
        return all(_finite(x) for x in value)
    return not isinstance(value, float) or math.isfinite(value)


def option_type(key: str) -> Any:
    """The type of a ``[[configs]]`` key: a fixed key's, a known option's, or a plain
    value (or a list of them)."""
    return CONFIG_FIELDS.get(key) or OPTION_FIELDS.get(key, OTHER_OPTION)


def check_value(value: Any, kind: Any, where: str, key: str) -> None:
    """Refuse ``value`` unless it is a ``kind``, in one line naming the field."""
    try:
        msgspec.convert(value, kind, strict=True)
    except msgspec.ValidationError as exc:
        wanted = must_be(kind, exc)
    else:
        if _finite(value):
            return
        wanted = "a finite number"
    raise KakuroError(f"{where}: {key} = {show(value)}: must be {wanted}")


def check_table(table: Any, struct: type[Struct], where: str) -> None:
    """Refuse a table with unknown keys or any value its field's type refuses."""
    if not isinstance(table, dict):
        raise KakuroError(f"{where}: must be a table")
    fields = FIELDS[struct]
    unknown = sorted(k for k in table if k not in fields)
    if unknown:
        raise KakuroError(f"{where}: unknown key(s) {unknown}; known: {sorted(fields)}")
    for key, value in table.items():
        check_value(value, fields[key], where, key)
