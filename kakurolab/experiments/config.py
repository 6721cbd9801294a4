"""Experiment configurations: a TOML file becomes puzzles x configurations x repetitions.

A configuration table whose option values are lists expands into their cartesian product, so
``backend = "pysat"``, ``encoding = ["naive", "strong"]``, ``solver = ["cadical195",
"glucose4"]`` is four configurations.  Relative paths are resolved against the project root
(the nearest ancestor of the config file holding ``pyproject.toml``), so every config reads
the shipped real data as ``data/...`` wherever it is run from.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import KakuroError
from ..model import Block, ClueCell, Puzzle, White

TASK_NAMES = ("solve", "unique", "count", "up-only", "certify")
"""The tasks a config may name; ``runner.TASKS`` holds their implementations."""

_TOP_KEYS = {
    "name",
    "description",
    "task",
    "timeout",
    "memory_mb",
    "repetitions",
    "count_limit",
    "puzzles",
    "configs",
    "report",
}
_SET_KEYS = {"file", "shipped", "generate", "name", "select", "first", "max_whites", "format"}
_CONFIG_META = {"label", "soft_timeout"}
"""Keys of a ``[[configs]]`` table that are not backend options."""


@dataclass(frozen=True)
class Instance:
    """One puzzle of an experiment, named ``<set>/<puzzle id>`` and hashed by its content."""

    id: str
    set: str
    puzzle: Puzzle
    hash: str


@dataclass(frozen=True)
class Configuration:
    """One backend with fixed options; ``label`` names it in rows, tables and plots."""

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
    """Parse and check a config file; every mistake is a one-line KakuroError."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise KakuroError(f"{path}: no such experiment config") from None
    except tomllib.TOMLDecodeError as exc:
        raise KakuroError(f"{path}: bad TOML: {exc}") from None
    return parse_experiment(data, path)


def parse_experiment(data: Mapping[str, Any], path: Path) -> Experiment:
    where = str(path)
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise KakuroError(f"{where}: unknown key(s) {sorted(unknown)}; known: {sorted(_TOP_KEYS)}")
    name = _get(data, "name", str, where, default=path.stem)
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise KakuroError(f"{where}: name {name!r} must be letters, digits, '.', '_' or '-'")
    task = data.get("task", "solve")
    tasks = task if isinstance(task, list) else [task]
    unknown_tasks = [t for t in tasks if t not in TASK_NAMES]
    if unknown_tasks or not tasks:
        shown = repr(unknown_tasks[0]) if unknown_tasks else "[]"
        raise KakuroError(f"{where}: unknown task {shown}; known: {', '.join(TASK_NAMES)}")
    timeout = float(_get(data, "timeout", (int, float), where, default=10.0))
    memory = _get(data, "memory_mb", int, where, default=2048)
    reps = _get(data, "repetitions", int, where, default=1)
    limit = _get(data, "count_limit", int, where, default=None)
    if timeout <= 0 or reps < 1 or (memory is not None and memory < 64):
        raise KakuroError(f"{where}: need timeout > 0, repetitions >= 1 and memory_mb >= 64")
    sets = data.get("puzzles")
    if not isinstance(sets, list) or not sets:
        raise KakuroError(f"{where}: needs at least one [[puzzles]] table")
    for i, entry in enumerate(sets, 1):
        _check_set(entry, f"{where}: [[puzzles]] #{i}")
    raw = data.get("configs")
    if not isinstance(raw, list) or not raw:
        raise KakuroError(f"{where}: needs at least one [[configs]] table")
    configs = [
        c for i, entry in enumerate(raw, 1) for c in expand(entry, f"{where}: [[configs]] #{i}")
    ]
    if len(tasks) > 1:  # the task becomes one more axis, named in front of the label
        configs = [replace(c, label=f"{t}:{c.label}", task=t) for t in tasks for c in configs]
    else:
        configs = [replace(c, task=tasks[0]) for c in configs]
    labels = [c.label for c in configs]
    dupes = sorted({lab for lab in labels if labels.count(lab) > 1})
    if dupes:
        raise KakuroError(f"{where}: configuration label(s) {dupes} appear twice")
    report = data.get("report", {})
    if not isinstance(report, dict):
        raise KakuroError(f"{where}: [report] must be a table")
    return Experiment(
        name=name,
        path=path,
        root=project_root(path),
        tasks=tasks,
        timeout=timeout,
        memory_mb=memory,
        repetitions=reps,
        count_limit=limit,
        description=str(data.get("description", "")),
        sets=list(sets),
        configs=configs,
        report=report,
    )


def expand(entry: Any, where: str) -> list[Configuration]:
    """The configurations of one ``[[configs]]`` table: the product of its list options."""
    if not isinstance(entry, dict) or not isinstance(entry.get("backend"), str | list):
        raise KakuroError(f'{where}: needs backend = "NAME" (or a list of names)')
    axes: dict[str, list[Any]] = {}
    for key, value in entry.items():
        if key in _CONFIG_META:
            continue
        values = value if isinstance(value, list) else [value]
        if not values:
            raise KakuroError(f"{where}: option {key!r} is an empty list")
        axes[key] = values
    template = entry.get("label")
    result = []
    for combo in itertools.product(*axes.values()):
        chosen = dict(zip(axes, combo, strict=True))
        backend = str(chosen.pop("backend"))
        if template is not None:
            try:
                label = str(template).format(backend=backend, **chosen)
            except KeyError as exc:
                raise KakuroError(f"{where}: label uses unknown option {exc}") from None
        else:
            label = "/".join([backend, *(_short(v) for v in chosen.values())])
        soft = entry.get("soft_timeout", True)
        if not isinstance(soft, bool):
            raise KakuroError(f"{where}: soft_timeout must be true or false")
        result.append(Configuration(label, backend, chosen, soft_timeout=soft))
    return result


def _short(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _check_set(entry: Any, where: str) -> None:
    if not isinstance(entry, dict):
        raise KakuroError(f"{where}: must be a table")
    unknown = set(entry) - _SET_KEYS
    if unknown:
        raise KakuroError(f"{where}: unknown key(s) {sorted(unknown)}; known: {sorted(_SET_KEYS)}")
    sources = [k for k in ("file", "shipped", "generate") if k in entry]
    if len(sources) != 1:
        raise KakuroError(f"{where}: needs exactly one of file, shipped, generate")


def _get(data: Mapping[str, Any], key: str, kind: Any, where: str, default: Any) -> Any:
    value = data.get(key, default)
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise KakuroError(f"{where}: {key} has the wrong type ({type(value).__name__})")
    return value


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


def load_instances(experiment: Experiment) -> list[Instance]:
    """Every puzzle the experiment names, in config order; missing files fail clearly."""
    instances: list[Instance] = []
    for i, entry in enumerate(experiment.sets, 1):
        where = f"{experiment.path}: [[puzzles]] #{i}"
        cache = experiment.results_dir / "generated"
        set_name, puzzles = _load_set(entry, experiment.root, where, cache)
        for puzzle in puzzles:
            instances.append(
                Instance(f"{set_name}/{puzzle.id}", set_name, puzzle, puzzle_hash(puzzle))
            )
    ids = [inst.id for inst in instances]
    dupes = sorted({x for x in ids if ids.count(x) > 1})
    if dupes:
        raise KakuroError(
            f"{experiment.path}: instance id(s) {dupes[:3]} appear twice; name the sets"
        )
    return instances


def _load_set(
    entry: Mapping[str, Any], root: Path, where: str, cache: Path
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
        name, puzzles = _generate(entry["generate"], entry.get("name"), where, cache)
    return str(name), _select(puzzles, entry, where)


def _generate(spec: Any, name: str | None, where: str, cache: Path) -> tuple[str, list[Puzzle]]:
    """Puzzles from ``kakurolab.generator``: ``generate = {size=, difficulty=, seeds=}``.

    Large puzzles take the generator a while, so a set is generated once and kept beside the
    results (``results/<name>/generated/<set>-<spec hash>.kakuro``); later runs and resumes
    read that file.  Delete it to generate afresh.
    """
    import importlib
    import json
    import sys

    from ..formats import dumps, load

    if not isinstance(spec, dict) or "size" not in spec:
        raise KakuroError(f'{where}: generate needs a table like {{size = "12x12", seeds = 3}}')
    key = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:10]
    set_name = name or f"gen-{spec['size']}"
    path = cache / f"{set_name}-{key}.kakuro"
    if path.exists():
        return set_name, load(path, format="kakuro")
    try:
        generator = importlib.import_module("kakurolab.generator")
    except ImportError:
        raise KakuroError(f"{where}: generated sets need kakurolab.generator (absent)") from None
    make = getattr(generator, "generate", None)
    parse_size = getattr(generator, "parse_size", None)
    if make is None or parse_size is None:
        raise KakuroError(f"{where}: kakurolab.generator has no generate()/parse_size() here")
    options = {k: v for k, v in spec.items() if k not in ("seeds", "size", "difficulty")}
    difficulty = str(spec.get("difficulty", "normal"))
    seeds = spec.get("seeds", 1)
    seeds = list(range(seeds)) if isinstance(seeds, int) else list(seeds)
    nrows, ncols = parse_size(str(spec["size"]))
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
    cache.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(puzzles, "kakuro"), encoding="utf-8")
    return set_name, puzzles


def _select(puzzles: list[Puzzle], entry: Mapping[str, Any], where: str) -> list[Puzzle]:
    select = entry.get("select")
    if select is not None:
        wanted = parse_select(select, where)
        by_id = {p.id: p for p in puzzles}
        missing = [w for w in wanted if w not in by_id]
        if missing:
            raise KakuroError(f"{where}: no puzzle with id {missing[0]!r} in this set")
        puzzles = [by_id[w] for w in wanted]
    max_whites = entry.get("max_whites")
    if max_whites is not None:  # before ``first``: "the first N small puzzles"
        puzzles = [p for p in puzzles if len(p.whites) <= int(max_whites)]
    first = entry.get("first")
    if first is not None:
        puzzles = puzzles[: int(first)]
    return puzzles


def parse_select(select: Any, where: str = "select") -> list[str]:
    """Ids from ``"1-20,25"`` (numeric ranges) or a list of ids."""
    items: Iterable[Any] = select if isinstance(select, list) else str(select).split(",")
    ids: list[str] = []
    for item in items:
        text = str(item).strip()
        match = re.fullmatch(r"(\d+)-(\d+)", text)
        if match:
            lo, hi = int(match[1]), int(match[2])
            if lo > hi:
                raise KakuroError(f"{where}: empty range {text!r}")
            ids.extend(str(i) for i in range(lo, hi + 1))
        elif text:
            ids.append(text)
    return ids
