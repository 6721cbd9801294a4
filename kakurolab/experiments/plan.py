"""Experiment configurations: a TOML file becomes puzzles x configurations x repetitions.

A configuration table whose option values are lists expands into their cartesian product, so
``backend = "pysat"``, ``encoding = ["naive", "strong"]``, ``solver = ["cadical195",
"glucose4"]`` is four configurations.  Relative paths are resolved against the project root
(the nearest ancestor of the config file holding ``pyproject.toml``), so every config reads
the shipped real data as ``data/...`` wherever it is run from.

Every field is checked once, by the msgspec schema of ``config_schema`` (the structs
``TopTable``, ``SetTable``, ``GenerateTable``, ``ReportTable``, and ``CONFIG_FIELDS`` with
``OPTION_FIELDS`` for the open-ended ``[[configs]]`` tables): a mistake is one line naming
the field.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import re
import string
import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from ..errors import KakuroError
from ..fileio import read_limited, write_text
from ..model import Block, ClueCell, Puzzle, White
from .config_schema import (
    CONFIG_META,
    MAX_RUNS,
    SELECT_MUST_BE,
    GenerateTable,
    Name,
    ReportTable,
    Select,
    SetTable,
    TopTable,
    check_table,
    check_value,
    must_be,
    option_type,
    show,
)

if TYPE_CHECKING:
    from ..formats import InvalidPuzzle


@dataclass(frozen=True)
class Instance:
    """One puzzle of an experiment, named ``<set>/<puzzle id>`` and hashed by its content.

    Examples:
        >>> from kakurolab.experiments import load_experiment, load_instances
        >>> instance = load_instances(load_experiment(tiny_config))[0]
        >>> instance.id, instance.set, instance.puzzle.shape
        ('standard/standard', 'standard', (5, 5))
    """

    id: str
    set: str
    puzzle: Puzzle
    hash: str


@dataclass(frozen=True)
class Configuration:
    """One backend with fixed options; ``label`` names it in rows, tables and plots.

    Examples:
        >>> from kakurolab.experiments import load_experiment
        >>> config = load_experiment(tiny_config).configs[0]
        >>> config.label, config.backend, config.task
        ('native', 'native', 'unique')
    """

    label: str
    backend: str
    options: Mapping[str, Any]
    task: str = "solve"
    soft_timeout: bool = True
    """Pass the timeout to the backend; when false only the hard kill enforces it."""


@dataclass
class Experiment:
    """A parsed config: what to run (sets, configurations, tasks) and under which limits.

    ``root`` is the project root that relative paths and ``results/`` hang from.
    ``count_limit`` None means count every solution (``count_limit = 0`` in the file).

    Examples:
        >>> from kakurolab.experiments import load_experiment
        >>> experiment = load_experiment(tiny_config)
        >>> experiment.name, experiment.task, experiment.timeout, experiment.results_dir.name
        ('tiny', 'unique', 5.0, 'tiny')
    """

    name: str
    path: Path
    root: Path
    tasks: list[str] = field(default_factory=lambda: ["solve"])
    timeout: float = 10.0
    memory_mb: int | None = 2048
    repetitions: int = 1
    count_limit: int | None = None
    description: str = ""
    sets: list[dict[str, Any]] = field(default_factory=list)
    configs: list[Configuration] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)

    @property
    def task(self) -> str:
        return "+".join(self.tasks)

    @property
    def results_dir(self) -> Path:
        return self.root / "results" / self.name


def load_experiment(path: str | Path) -> Experiment:
    """Parse and check a config file; every mistake is a one-line KakuroError.

    Examples:
        >>> from kakurolab.experiments import load_experiment
        >>> print(tiny_config.read_text())
        name = "tiny"
        task = "unique"
        timeout = 5
        [[puzzles]]
        shipped = "samples/standard.kakuro"
        [[configs]]
        backend = "native"
        <BLANKLINE>
        >>> load_experiment(tiny_config).name
        'tiny'
    """
    path = Path(path)
    try:
        data = tomllib.loads(read_limited(path).decode("utf-8"))
    except FileNotFoundError:
        raise KakuroError(f"{path}: no such experiment config") from None
    except IsADirectoryError:
        raise KakuroError(f"{path}: is a directory, not an experiment config") from None
    except UnicodeDecodeError:
        raise KakuroError(f"{path}: not a text file (invalid UTF-8)") from None
    except OSError as exc:
        raise KakuroError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise KakuroError(f"{path}: bad TOML: {exc}") from None
    except RecursionError:
        raise KakuroError(f"{path}: bad TOML: nesting too deep") from None
    return parse_experiment(data, path)


def parse_experiment(data: Mapping[str, Any], path: Path) -> Experiment:
    where = str(path)
    check_table(data, TopTable, where)
    name = data.get("name", path.stem)
    try:
        msgspec.convert(name, Name)
    except msgspec.ValidationError as exc:
        message = f"{where}: name {name!r} (from the file name) must be {must_be(Name, exc)}"
        raise KakuroError(message) from None
    task = data.get("task", "solve")
    tasks = list(dict.fromkeys(task if isinstance(task, list) else [task]))
    if "puzzles" not in data:
        raise KakuroError(f"{where}: needs at least one [[puzzles]] table")
    for i, entry in enumerate(data["puzzles"], 1):
        _check_set(entry, f"{where}: [[puzzles]] #{i}")
    if "configs" not in data:
        raise KakuroError(f"{where}: needs at least one [[configs]] table")
    tables_of = [(t, f"{where}: [[configs]] #{i}") for i, t in enumerate(data["configs"], 1)]
    # Counted before any table is multiplied out: many tables, each under the limit, may
    # still add up to millions of configurations (gigabytes, had they been built first).
    n_configs = sum(config_count(entry, at) for entry, at in tables_of)
    reps = data.get("repetitions", 1)
    if n_configs * len(tasks) * reps > MAX_RUNS:
        raise KakuroError(
            f"{where}: {n_configs * len(tasks)} configuration(s) x {reps} repetition(s) "
            f"is more than {MAX_RUNS} runs per instance (the most one experiment may plan)"
        )
    configs = [c for entry, at in tables_of for c in expand(entry, at)]
    if len(tasks) > 1:  # the task becomes one more axis, named in front of the label
        configs = [replace(c, label=f"{t}:{c.label}", task=t) for t in tasks for c in configs]
    else:
        configs = [replace(c, task=tasks[0]) for c in configs]
    dupes = sorted(lab for lab, n in Counter(c.label for c in configs).items() if n > 1)
    if dupes:
        raise KakuroError(f"{where}: configuration label(s) {dupes} appear twice")
    report = data.get("report", {})
    check_table(report, ReportTable, f"{where}: [report]")
    return Experiment(
        name=name,
        path=path,
        root=project_root(path),
        tasks=tasks,
        timeout=float(data.get("timeout", 10.0)),
        memory_mb=data.get("memory_mb", 2048),
        repetitions=reps,
        count_limit=data.get("count_limit") or None,  # 0: no limit
        description=data.get("description", ""),
        sets=list(data["puzzles"]),
        configs=configs,
        report=dict(report),
    )


def _axes(entry: Any, where: str) -> dict[str, list[Any]]:
    """The checked option axes of one ``[[configs]]`` table (each a list of values)."""
    if not isinstance(entry, dict) or "backend" not in entry:
        raise KakuroError(f'{where}: needs backend = "NAME" (or a list of names)')
    for key, value in entry.items():
        check_value(value, option_type(key), where, key)
    return {
        key: value if isinstance(value, list) else [value]
        for key, value in entry.items()
        if key not in CONFIG_META
    }


def config_count(entry: Any, where: str) -> int:
    """How many configurations a table makes, by arithmetic (nothing is multiplied out)."""
    size = math.prod(len(values) for values in _axes(entry, where).values())
    if size > MAX_RUNS:
        raise KakuroError(f"{where}: {size} configurations; at most {MAX_RUNS}")
    return size


def expand(entry: Any, where: str) -> list[Configuration]:
    """The configurations of one ``[[configs]]`` table: the product of its list options."""
    config_count(entry, where)  # the size first
    axes = _axes(entry, where)
    template = entry.get("label")
    if template is not None:
        _check_label(template, set(axes), where)
    soft = entry.get("soft_timeout", True)
    result = []
    for combo in itertools.product(*axes.values()):
        chosen = dict(zip(axes, combo, strict=True))
        backend = chosen.pop("backend")
        if template is not None:
            label = _format_label(template, {"backend": backend, **chosen}, where)
        else:
            label = "/".join([backend, *(_short(v) for v in chosen.values())])
        result.append(Configuration(label, backend, chosen, soft_timeout=soft))
    return result


def _check_label(template: str, names: set[str], where: str) -> None:
    """A label names options as ``{option}``: no positions, attributes or indexes."""
    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
    except ValueError as exc:
        raise KakuroError(f"{where}: label = {show(template)}: {exc}") from None
    for name in fields:
        if name not in names:
            raise KakuroError(
                f"{where}: label = {show(template)}: {{{name}}} is not an option of this "
                f"table; use {', '.join('{' + n + '}' for n in sorted(names))}"
            )


def _format_label(template: str, values: Mapping[str, Any], where: str) -> str:
    try:
        return template.format_map(values)
    except (ValueError, KeyError, IndexError, AttributeError, TypeError) as exc:
        raise KakuroError(f"{where}: label = {show(template)}: {exc}") from None


def _short(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _check_set(entry: dict[str, Any], where: str) -> None:
    check_table(entry, SetTable, where)
    sources = [k for k in ("file", "shipped", "generate") if k in entry]
    if len(sources) != 1:
        raise KakuroError(f"{where}: needs exactly one of file, shipped, generate")
    if "select" in entry:
        select_items(entry["select"], f"{where}: select")
    if "generate" in entry:
        spec = entry["generate"]
        check_table(spec, GenerateTable, f"{where}: generate")
        if "size" not in spec:
            raise KakuroError(f'{where}: generate needs size, e.g. {{size = "12x12", seeds = 3}}')


def project_root(path: Path) -> Path:
    """The nearest ancestor of ``path`` holding pyproject.toml (else the config's folder)."""
    path = path.resolve()
    for parent in path.parents:
        if (parent / "pyproject.toml").exists():
            return parent
    return path.parent


# -- puzzles -----------------------------------------------------------------------------


def canonical_text(puzzle: Puzzle) -> str:
    """The grid alone, independent of id and file format: the input of the instance hash."""
    lines = [f"{puzzle.nrows}x{puzzle.ncols}"]
    for row in puzzle.grid:
        cells = []
        for sq in row:
            if isinstance(sq, White):
                cells.append(sq.letter or "O")
            elif isinstance(sq, ClueCell):
                cells.append(f"({sq.down or ''}\\{sq.across or ''})")
            elif isinstance(sq, Block):
                cells.append("X")
            else:  # pragma: no cover - the model has no other squares
                raise TypeError(sq)
        lines.append(" ".join(cells))
    return "\n".join(lines) + "\n"


def puzzle_hash(puzzle: Puzzle) -> str:
    return hashlib.sha256(canonical_text(puzzle).encode()).hexdigest()


def load_instances(
    experiment: Experiment,
    *,
    keep_generated: bool = True,
    invalid: list[dict[str, Any]] | None = None,
) -> list[Instance]:
    """Every valid puzzle the experiment names, in config order; missing files fail clearly.

    An invalid puzzle of a set (an impossible clue, a text that does not parse) is left out,
    as ``solve`` leaves it out of a batch, and described in ``invalid`` (one skip record
    each, for skipped.json) when a list is given.  ``keep_generated`` false generates sets
    in memory only (``experiment plan`` writes nothing); a set generated before is still read
    from its file.

    Examples:
        >>> from kakurolab.experiments import load_experiment, load_instances
        >>> [i.id for i in load_instances(load_experiment(tiny_config))]
        ['standard/standard']
    """
    instances: list[Instance] = []
    for i, entry in enumerate(experiment.sets, 1):
        where = f"{experiment.path}: [[puzzles]] #{i}"
        cache = experiment.results_dir / "generated"
        bad: list[InvalidPuzzle] = []
        set_name, puzzles = _load_set(entry, experiment.root, where, cache, keep_generated, bad)
        wanted = None if entry.get("select") is None else set(parse_select(entry["select"]))
        for wrong in bad:
            if wanted is not None and wrong.id not in wanted:
                continue
            if invalid is not None:
                invalid.append(
                    {
                        "config": "all",
                        "instances": f"{set_name}/{wrong.id}",
                        "reason": f"invalid puzzle: {wrong.error}",
                    }
                )
        for puzzle in puzzles:
            instances.append(
                Instance(f"{set_name}/{puzzle.id}", set_name, puzzle, puzzle_hash(puzzle))
            )
    ids = [inst.id for inst in instances]
    dupes = sorted(x for x, n in Counter(ids).items() if n > 1)
    if dupes:
        raise KakuroError(
            f"{experiment.path}: instance id(s) {dupes[:3]} appear twice; name the sets"
        )
    return instances


def _load_set(
    entry: Mapping[str, Any],
    root: Path,
    where: str,
    cache: Path,
    keep: bool,
    bad: list[InvalidPuzzle] | None = None,
) -> tuple[str, list[Puzzle]]:
    from ..formats import load_report

    def load(path: Path, format: str | None) -> list[Puzzle]:
        report = load_report(path, format=format)
        if bad is not None:
            bad.extend(report.invalid)
        else:
            report.raise_first()
        return report.puzzles

    fmt = entry.get("format")
    if "file" in entry:
        path = Path(entry["file"])
        path = path if path.is_absolute() else root / path
        if not path.exists():
            raise KakuroError(
                f"{where}: puzzle file {path} is missing (the real collections ship in data/ "
                "at the root of the checkout)"
            )
        name = entry.get("name") or path.stem
        puzzles = load(path, format=fmt)
    elif "shipped" in entry:
        base = Path(__file__).resolve().parents[1] / "data"
        path = base / str(entry["shipped"])
        if not path.exists():
            raise KakuroError(f"{where}: no shipped puzzle set {entry['shipped']!r} under {base}")
        name = entry.get("name") or path.stem
        if path.is_dir():
            # Every puzzle file in it (a manifest describes, it holds no puzzles); ids repeat
            # between files, so each puzzle is named by its file too.
            files = sorted(
                p
                for p in path.iterdir()
                if p.is_file() and p.name != "manifest.json" and not p.name.startswith(".")
            )
            puzzles = [p.with_id(f"{f.stem}/{p.id}") for f in files for p in load(f, format=fmt)]
        else:
            puzzles = load(path, format=fmt)
    else:
        name, puzzles = _generate(entry["generate"], entry.get("name"), where, cache, keep)
    invalid = frozenset(b.id for b in bad or ())
    return str(name), _select(puzzles, entry, where, invalid)


def _generate(
    spec: Mapping[str, Any], name: str | None, where: str, cache: Path, keep: bool
) -> tuple[str, list[Puzzle]]:
    """Puzzles from ``kakurolab.generator``: ``generate = {size=, difficulty=, seeds=}``.

    Large puzzles take the generator a while, so a set is generated once and kept beside the
    results (``results/<name>/generated/<set>-<hash>.kakuro``); later runs and resumes read
    that file.  Delete it to generate afresh.  The hash covers the spec and the generator's
    version: another version makes other puzzles from the same seeds, so a set an earlier
    generator cached is not measured as if this one had made it.
    """
    import json
    import sys

    from ..formats import dumps, load
    from ..generator import GENERATOR_VERSION, generate, parse_size

    keyed = {**spec, "generator": GENERATOR_VERSION}
    key = hashlib.sha256(json.dumps(keyed, sort_keys=True).encode()).hexdigest()[:10]
    try:
        nrows, ncols = parse_size(spec["size"])
    except KakuroError as exc:
        raise KakuroError(f"{where}: generate.size: {exc}") from None
    set_name = name or f"gen-{nrows}x{ncols}"
    path = cache / f"{set_name}-{key}.kakuro"
    if path.exists():
        return set_name, load(path, format="kakuro")
    options = {k: v for k, v in spec.items() if k not in ("seeds", "size", "difficulty")}
    difficulty = spec.get("difficulty", "normal")
    seeds = spec.get("seeds", 1)
    seeds = list(range(seeds)) if isinstance(seeds, int) else list(seeds)
    print(
        f"kakuro: generating {len(seeds)} {nrows}x{ncols} puzzle(s) for {set_name}", file=sys.stderr
    )
    puzzles = []
    for seed in seeds:
        try:
            made = generate(nrows, ncols, difficulty, seed=seed, **options)
        except KakuroError as exc:
            raise KakuroError(f"{where}: generator failed for seed {seed}: {exc}") from None
        puzzles.append(made.puzzle.with_id(f"{nrows}x{ncols}-{difficulty}-s{seed}"))
    if keep:
        cache.mkdir(parents=True, exist_ok=True)
        write_text(path, dumps(puzzles, "kakuro"))
    return set_name, puzzles


def _select(
    puzzles: list[Puzzle],
    entry: Mapping[str, Any],
    where: str,
    invalid: frozenset[str] = frozenset(),
) -> list[Puzzle]:
    """The set's puzzles its filters keep; ``invalid`` ids (left out, described elsewhere)
    may be selected without being missing."""
    select = entry.get("select")
    if select is not None:
        # A range cannot name more ids than the set holds: checked before it is expanded.
        items = select_items(select, f"{where}: select")
        if select_count(items) > len(puzzles) + len(invalid):
            raise KakuroError(
                f"{where}: select = {show(select)} names {select_count(items)} ids; "
                f"the set has only {len(puzzles) + len(invalid)} puzzle(s)"
            )
        wanted = [w for w in parse_select(select, f"{where}: select") if w not in invalid]
        by_id = {p.id: p for p in puzzles}
        missing = [w for w in wanted if w not in by_id]
        if missing:
            raise KakuroError(f"{where}: no puzzle with id {missing[0]!r} in this set")
        puzzles = [by_id[w] for w in wanted]
    max_whites = entry.get("max_whites")
    if max_whites is not None:  # before ``first``: "the first N small puzzles"
        puzzles = [p for p in puzzles if len(p.whites) <= max_whites]
    first = entry.get("first")
    if first is not None:
        puzzles = puzzles[:first]
    return puzzles


SelectItem = str | tuple[int, int]
"""One item of a ``select``: an id, or an inclusive range of numeric ids."""


def select_items(select: Any, where: str = "select") -> list[SelectItem]:
    """The items of ``"1-20,25"`` or of a list of ids, ranges kept unexpanded."""
    try:
        msgspec.convert(select, Select, strict=True)
    except msgspec.ValidationError:
        raise KakuroError(f"{where} = {show(select)}: must be {SELECT_MUST_BE}") from None
    raw = select if isinstance(select, list) else select.split(",")
    items: list[SelectItem] = []
    for item in raw:
        piece = str(item).strip()
        match = re.fullmatch(r"(\d+)\s*-\s*(\d+)", piece)
        if match:
            low, high = int(match[1]), int(match[2])
            if low > high:
                raise KakuroError(f"{where}: empty range {piece!r}")
            items.append((low, high))
        elif piece:
            items.append(piece)
    if not items:
        raise KakuroError(f"{where}: names no puzzle")
    return items


def select_count(items: list[SelectItem]) -> int:
    return sum(1 if isinstance(it, str) else it[1] - it[0] + 1 for it in items)


def parse_select(select: Any, where: str = "select", most: int = MAX_RUNS) -> list[str]:
    """Ids from ``"1-20,25"`` (numeric ranges) or a list of ids, at most ``most`` of them
    (counted before any range is expanded, so ``1-100000000`` costs nothing)."""
    items = select_items(select, where)
    if select_count(items) > most:
        raise KakuroError(f"{where} names {select_count(items)} ids, more than {most}")
    ids: list[str] = []
    for item in items:
        if isinstance(item, str):
            ids.append(item)
        else:
            ids.extend(str(i) for i in range(item[0], item[1] + 1))
    return ids
