"""Experiment configurations: a TOML file becomes puzzles x configurations x repetitions.

A configuration table whose option values are lists expands into their cartesian product, so
``backend = "pysat"``, ``encoding = ["naive", "strong"]``, ``solver = ["cadical195",
"glucose4"]`` is four configurations.  Relative paths are resolved against the project root
(the nearest ancestor of the config file holding ``pyproject.toml``), so every config reads
the shipped real data as ``data/...`` wherever it is run from.

Every field is checked once, by the schema below (:data:`TOP_RULES`, :data:`SET_RULES`,
:data:`GENERATE_RULES`, :data:`CONFIG_RULES`): a mistake is one line naming the field.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import re
import string
import tomllib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import KakuroError
from ..fileio import write_text
from ..model import Block, ClueCell, Puzzle, White
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


# -- the schema ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """What one field must be: ``must_be`` is said in the message, ``test`` decides."""

    must_be: str
    test: Callable[[Any], bool]

    def holds(self, value: Any) -> bool:
        try:
            return bool(self.test(value))
        except (TypeError, ValueError, OverflowError):
            return False


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    return _is_int(value) or (isinstance(value, float) and math.isfinite(value))


def integer(low: int, high: int | None = None) -> Rule:
    bounds = f"at least {low}" if high is None else f"from {low} to {high}"
    return Rule(
        f"an integer {bounds}",
        lambda v: _is_int(v) and v >= low and (high is None or v <= high),
    )


def number(high: float) -> Rule:
    """A finite number above zero (``inf``, ``nan`` and booleans are refused)."""
    return Rule(f"a number above 0 and at most {high:g}", lambda v: is_number(v) and 0 < v <= high)


def text(pattern: str = r"(?s).+", must_be: str = "a non-empty string") -> Rule:
    return Rule(must_be, lambda v: isinstance(v, str) and re.fullmatch(pattern, v) is not None)


def choice(names: Sequence[str]) -> Rule:
    return Rule(f"one of {', '.join(names)}", lambda v: isinstance(v, str) and v in names)


def one_or_list(rule: Rule, most: int = MAX_RUNS) -> Rule:
    """A value, or a non-empty list of such values (at most ``most``)."""
    return Rule(
        f"{rule.must_be}, or a list of 1 to {most} of them",
        lambda v: (
            rule.holds(v)
            or (isinstance(v, list) and 0 < len(v) <= most and all(rule.holds(x) for x in v))
        ),
    )


def tables(what: str) -> Rule:
    return Rule(
        f"one or more [[{what}]] tables",
        lambda v: isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v),
    )


ANY_TEXT = Rule("a string", lambda v: isinstance(v, str))
BOOL = Rule("true or false", lambda v: isinstance(v, bool))
TABLE = Rule("a table", lambda v: isinstance(v, dict))
SCALAR = Rule("a string, number or true/false", lambda v: isinstance(v, str | bool) or is_number(v))
NAME = text(NAME_PATTERN, "letters, digits, '.', '_' or '-'")
_SELECT_ITEM = re.compile(r"\s*(?:(\d+)\s*-\s*(\d+)|([^,]*?))\s*")


def _select_ok(value: Any) -> bool:
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list) or not items:
        return False
    return all(isinstance(x, str) or (_is_int(x) and x >= 0) for x in items)


TOP_RULES: dict[str, Rule] = {
    "name": NAME,
    "description": ANY_TEXT,
    "task": one_or_list(choice(TASK_NAMES), len(TASK_NAMES)),
    "timeout": number(MAX_TIMEOUT),
    "memory_mb": integer(64, MAX_MEMORY_MB),
    "repetitions": integer(1, MAX_RUNS),
    "count_limit": integer(0),
    "puzzles": tables("puzzles"),
    "configs": tables("configs"),
    "report": TABLE,
}
"""The top-level fields.  ``count_limit = 0`` means no limit, as ``kakuro count --limit 0``."""
SET_RULES: dict[str, Rule] = {
    "file": text(),
    "shipped": text(),
    "generate": TABLE,
    "name": NAME,
    "select": Rule('ids and ranges like "1-20,25", or a non-empty list of ids', _select_ok),
    "first": integer(1),
    "max_whites": integer(1),
    "format": text(),
}
"""A ``[[puzzles]]`` table: exactly one of file, shipped, generate, and filters."""
GENERATE_RULES: dict[str, Rule] = {
    "size": text(must_be='a string like "12x12"'),
    "difficulty": text(),
    "seeds": Rule(
        f"a count from 1 to {MAX_RUNS}, or a non-empty list of integers >= 0",
        lambda v: (
            (_is_int(v) and 1 <= v <= MAX_RUNS)
            or (
                isinstance(v, list)
                and 0 < len(v) <= MAX_RUNS
                and all(_is_int(s) and s >= 0 for s in v)
            )
        ),
    ),
    "symmetric": BOOL,
    "logic_only": BOOL,
    "backend": text(),
    "max_repairs": integer(0),
    "max_layouts": integer(1),
    "node_limit": integer(0),
    "timeout": number(MAX_TIMEOUT),
}
"""``generate = {...}``: the size, difficulty and seeds, plus options of
``kakurolab.generator.generate``."""
CONFIG_RULES: dict[str, Rule] = {
    "backend": one_or_list(text()),
    "label": ANY_TEXT,
    "soft_timeout": BOOL,
}
"""The fixed keys of a ``[[configs]]`` table; every other key is a backend option."""
OPTION_RULES: dict[str, Rule] = {
    "encoding": text(),
    "solver": text(),
    "logic": text(),
    "tactic": text(),
    "params": ANY_TEXT,
    "seed": integer(0),
    "random_seed": integer(0),
    "num_workers": integer(1),
    "node_limit": integer(0),
    "max_time_in_seconds": number(MAX_TIMEOUT),
}
"""Types of the backend options the shipped backends take (the backend then checks the
names and values it accepts); other options must be plain values."""
_CONFIG_TABLE = {**CONFIG_RULES, **{k: one_or_list(r) for k, r in OPTION_RULES.items()}}
_CONFIG_META = {"label", "soft_timeout"}
"""Keys of a ``[[configs]]`` table that are not backend options."""


def _show(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def check_table(
    table: Mapping[str, Any], rules: Mapping[str, Rule], where: str, extra: Rule | None = None
) -> None:
    """Refuse unknown keys (unless ``extra`` rules them) and any value its rule refuses."""
    unknown = sorted(k for k in table if k not in rules)
    if unknown and extra is None:
        raise KakuroError(f"{where}: unknown key(s) {unknown}; known: {sorted(rules)}")
    for key, value in table.items():
        rule = rules.get(key, extra)
        if rule is not None and not rule.holds(value):
            raise KakuroError(f"{where}: {key} = {_show(value)}: must be {rule.must_be}")


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
        data = tomllib.loads(path.read_text(encoding="utf-8"))
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
    check_table(data, TOP_RULES, where)
    name = data.get("name", path.stem)
    if not NAME.holds(name):
        raise KakuroError(f"{where}: name {name!r} (from the file name) must be {NAME.must_be}")
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
    check_table(report, {"scatter": _SCATTER, "growth": _GROWTH}, f"{where}: [report]")
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


_SCATTER = Rule(
    "a list of two configuration labels",
    lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v),
)


_GROWTH = Rule(
    'a table of families, each a non-empty list of puzzle set names: {loose = ["loose"]}',
    lambda v: isinstance(v, dict)
    and bool(v)
    and all(
        isinstance(sets, list) and sets and all(isinstance(s, str) for s in sets)
        for sets in v.values()
    ),
)
"""``[report] growth``: which puzzle sets form one family for the growth exponents."""


def _axes(entry: Any, where: str) -> dict[str, list[Any]]:
    """The checked option axes of one ``[[configs]]`` table (each a list of values)."""
    if not isinstance(entry, dict) or "backend" not in entry:
        raise KakuroError(f'{where}: needs backend = "NAME" (or a list of names)')
    check_table(entry, _CONFIG_TABLE, where, extra=one_or_list(SCALAR))
    return {
        key: value if isinstance(value, list) else [value]
        for key, value in entry.items()
        if key not in _CONFIG_META
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
        raise KakuroError(f"{where}: label = {_show(template)}: {exc}") from None
    for name in fields:
        if name not in names:
            raise KakuroError(
                f"{where}: label = {_show(template)}: {{{name}}} is not an option of this "
                f"table; use {', '.join('{' + n + '}' for n in sorted(names))}"
            )


def _format_label(template: str, values: Mapping[str, Any], where: str) -> str:
    try:
        return template.format_map(values)
    except (ValueError, KeyError, IndexError, AttributeError, TypeError) as exc:
        raise KakuroError(f"{where}: label = {_show(template)}: {exc}") from None


def _short(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _check_set(entry: dict[str, Any], where: str) -> None:
    check_table(entry, SET_RULES, where)
    sources = [k for k in ("file", "shipped", "generate") if k in entry]
    if len(sources) != 1:
        raise KakuroError(f"{where}: needs exactly one of file, shipped, generate")
    if "select" in entry:
        select_items(entry["select"], f"{where}: select")
    if "generate" in entry:
        spec = entry["generate"]
        check_table(spec, GENERATE_RULES, f"{where}: generate")
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


def load_instances(experiment: Experiment, *, keep_generated: bool = True) -> list[Instance]:
    """Every puzzle the experiment names, in config order; missing files fail clearly.

    ``keep_generated`` false generates sets in memory only (``experiment plan`` writes
    nothing); a set generated before is still read from its file.

    Examples:
        >>> from kakurolab.experiments import load_experiment, load_instances
        >>> [i.id for i in load_instances(load_experiment(tiny_config))]
        ['standard/standard']
    """
    instances: list[Instance] = []
    for i, entry in enumerate(experiment.sets, 1):
        where = f"{experiment.path}: [[puzzles]] #{i}"
        cache = experiment.results_dir / "generated"
        set_name, puzzles = _load_set(entry, experiment.root, where, cache, keep_generated)
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
    entry: Mapping[str, Any], root: Path, where: str, cache: Path, keep: bool
) -> tuple[str, list[Puzzle]]:
    from ..formats import load

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
    return str(name), _select(puzzles, entry, where)


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
    import importlib
    import json
    import sys

    from ..formats import dumps, load

    try:
        generator = importlib.import_module("kakurolab.generator")
    except ImportError:
        raise KakuroError(f"{where}: generated sets need kakurolab.generator (absent)") from None
    version = getattr(generator, "GENERATOR_VERSION", None)
    keyed = {**spec, "generator": version}
    key = hashlib.sha256(json.dumps(keyed, sort_keys=True).encode()).hexdigest()[:10]
    make = getattr(generator, "generate", None)
    parse_size = getattr(generator, "parse_size", None)
    if make is None or parse_size is None:
        raise KakuroError(f"{where}: kakurolab.generator has no generate()/parse_size() here")
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
            made = make(nrows, ncols, difficulty, seed=seed, **options)
        except KakuroError as exc:
            raise KakuroError(f"{where}: generator failed for seed {seed}: {exc}") from None
        puzzle = getattr(made, "puzzle", made)
        puzzles.append(puzzle.with_id(f"{nrows}x{ncols}-{difficulty}-s{seed}"))
    if keep:
        cache.mkdir(parents=True, exist_ok=True)
        write_text(path, dumps(puzzles, "kakuro"))
    return set_name, puzzles


def _select(puzzles: list[Puzzle], entry: Mapping[str, Any], where: str) -> list[Puzzle]:
    select = entry.get("select")
    if select is not None:
        # A range cannot name more ids than the set holds: checked before it is expanded.
        items = select_items(select, f"{where}: select")
        if select_count(items) > len(puzzles):
            raise KakuroError(
                f"{where}: select = {_show(select)} names {select_count(items)} ids; "
                f"the set has only {len(puzzles)} puzzle(s)"
            )
        wanted = parse_select(select, f"{where}: select")
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
    if not _select_ok(select):
        raise KakuroError(f"{where} = {_show(select)}: must be {SET_RULES['select'].must_be}")
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
