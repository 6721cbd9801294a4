"""The ``auto`` backend: a configuration picked for the puzzle from cheap features of it.

A user who does not know the field (native propagation, CNF presets on CaDiCaL, CP-SAT, SMT)
should not have to: ``--backend auto`` measures a few features of the puzzle (size, white
cells, runs, the mean number of digit sets a run's clue allows, cryptic or not, and, only
when the rule asks for it, a *probe*: the share of white cells the native root fixpoint leaves
open), walks a small decision tree over them, and opens the configuration at the leaf it
reaches.  The tree is data, ``kakurolab/data/auto/rule.json``, learned from the committed
experiment runs by ``python -m kakurolab.experiments.autofit`` (docs/experiments.md, "auto");
nothing here knows which backend wins where.

The chosen session is opened through the chosen backend's own ``open`` (its rule checker,
its child process for solvers that overrun their limit), and the choice travels in the
session's statistics under ``auto``: the configuration, the features measured, the tests on
the path that fired and the seconds the features took (``--json``: docs/json.md).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from .. import deadline as deadlines
from ..combos import count as digit_sets
from ..errors import KakuroError
from ..model import Puzzle, Solution
from .config import Config, check_options
from .registry import BACKENDS
from .session import Backend, Session, Status

AUTO_RULE_FILE = Path(__file__).resolve().parents[1] / "data" / "auto" / "rule.json"
"""The shipped rule, written by ``python -m kakurolab.experiments.autofit``."""

AUTO_RULE_VERSION = 1
"""The layout of a rule file this module reads (``version`` in the file)."""

FALLBACK = "native"
"""The configuration opened when the rule's choice cannot run here (its extra is missing):
the baseline, which needs no optional package."""


# -- features ----------------------------------------------------------------------------


def _whites(puzzle: Puzzle) -> float:
    return float(len(puzzle.whites))


def _cells(puzzle: Puzzle) -> float:
    return float(puzzle.nrows * puzzle.ncols)


def _cryptic(puzzle: Puzzle) -> float:
    return 1.0 if puzzle.is_cryptic else 0.0


def _mean_run(puzzle: Puzzle) -> float:
    runs = puzzle.runs
    return sum(len(run.cells) for run in runs) / len(runs) if runs else 0.0


def _mean_sets(puzzle: Puzzle) -> float:
    """Mean digit sets per numeric clue (1: every run's digits are forced as a set); 0 for a
    cryptic puzzle, whose letter clues have no value before the letters are known."""
    counts = [
        digit_sets(len(run.cells), run.clue.value)
        for run in puzzle.runs
        if run.clue is not None and run.clue.value is not None
    ]
    return sum(counts) / len(counts) if counts else 0.0


def _open_share(puzzle: Puzzle) -> float:
    """The probe: the share of white cells the native root fixpoint (cut sums included on
    numeric puzzles) leaves with more than one digit; 0 when it refutes the clues.  About
    0.4 s on 10,000 cells, so the rule computes it only when a test on its path needs it."""
    from ..propagation import Propagator

    propagator = Propagator(puzzle, cut_sums=not puzzle.is_cryptic)
    root = propagator.root()
    if root is None or not propagator.n_cells:
        return 0.0
    open_cells = sum(1 for mask in root[: propagator.n_cells] if mask & (mask - 1))
    return open_cells / propagator.n_cells


@dataclass(frozen=True)
class AutoFeature:
    """One feature the rule may test: a function of the puzzle, and whether it is a probe
    (costs propagation, computed only when needed)."""

    name: str
    measure: Callable[[Puzzle], float]
    doc: str
    probe: bool = False


AUTO_FEATURES: dict[str, AutoFeature] = {
    f.name: f
    for f in (
        AutoFeature("whites", _whites, "white cells"),
        AutoFeature("cells", _cells, "rows x columns"),
        AutoFeature("cryptic", _cryptic, "1 for a cryptic (letter) puzzle, else 0"),
        AutoFeature("mean_run", _mean_run, "mean run length"),
        AutoFeature("mean_sets", _mean_sets, "mean digit sets per numeric clue (0: cryptic)"),
        AutoFeature(
            "open_share",
            _open_share,
            "share of white cells the native root fixpoint leaves open (a probe)",
            probe=True,
        ),
    )
}
"""Every feature a rule may test, by name (the fit reads the same table)."""


class PuzzleFeatures:
    """The features of one puzzle, each measured on first use and kept with its time.

    Examples:
        >>> from kakurolab.backends import PuzzleFeatures
        >>> measured = PuzzleFeatures(puzzle)
        >>> measured["whites"] == len(puzzle.whites), measured["cryptic"]
        (True, 0.0)
        >>> sorted(measured.values)  # the probe (open_share) only when asked for
        ['cryptic', 'whites']
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.values: dict[str, float] = {}
        self.seconds = 0.0

    def __getitem__(self, name: str) -> float:
        if name not in self.values:
            feature = AUTO_FEATURES.get(name)
            if feature is None:
                known = ", ".join(AUTO_FEATURES)
                raise KakuroError(f"auto rule: unknown feature {name!r}; known: {known}")
            start = time.perf_counter()
            self.values[name] = round(feature.measure(self.puzzle), 6)
            self.seconds += time.perf_counter() - start
            deadlines.check()  # a timeout covers the probe too
        return self.values[name]


def puzzle_features(puzzle: Puzzle, *, probe: bool = True) -> dict[str, float]:
    """Every feature of ``puzzle`` (without the probes when ``probe`` is false)."""
    measured = PuzzleFeatures(puzzle)
    return {name: measured[name] for name, f in AUTO_FEATURES.items() if probe or not f.probe}


# -- the rule ----------------------------------------------------------------------------


@dataclass(frozen=True)
class AutoChoice:
    """What the rule picked for one puzzle, and why."""

    config: str
    """The configuration opened (``NAME[:key=value,...]``)."""
    path: tuple[str, ...]
    """The tests on the way to the leaf, as text (``whites >= 2400.5``)."""
    features: Mapping[str, float]
    feature_s: float
    picked: str = ""
    """The rule's own choice when it could not run here (``config`` is then the fallback)."""
    leaf: Mapping[str, Any] = field(default_factory=dict)

    def facts(self) -> dict[str, Any]:
        """The choice as JSON data (``stats["auto"]`` of a result)."""
        facts: dict[str, Any] = {
            "config": self.config,
            "rule": " and ".join(self.path) or "always",
            "features": dict(self.features),
            "feature_s": round(self.feature_s, 6),
        }
        if self.picked:
            facts["picked"] = self.picked
            facts["fallback"] = f"{self.picked} cannot run here"
        if "why" in self.leaf:
            facts["why"] = self.leaf["why"]
        return facts


class AutoRule:
    """A decision tree over :data:`AUTO_FEATURES`: an inner node is ``{"feature", "threshold",
    "below", "above"}`` (``below`` when the value is less than the threshold), a leaf is
    ``{"config", ...}`` (other keys say why: the training runs behind it).

    Examples:
        >>> from kakurolab.backends import AutoRule
        >>> rule = AutoRule.load()  # the shipped rule, fitted on the committed runs
        >>> rule.choose(puzzle).config in rule.data["candidates"]
        True
        >>> small = {"version": 1, "tree": {"feature": "whites", "threshold": 100,
        ...          "below": {"config": "native"}, "above": {"config": "cpsat"}}}
        >>> choice = AutoRule(small).choose(puzzle)
        >>> choice.config, choice.path
        ('native', ('whites < 100',))
    """

    file: ClassVar[Path] = AUTO_RULE_FILE
    version: ClassVar[int] = AUTO_RULE_VERSION

    def __init__(self, data: Mapping[str, Any], source: str = "", *, runnable: bool = True) -> None:
        """``runnable`` false skips the check that each leaf names a configuration that
        exists here (a fit scoring a tree over configurations as labels)."""
        self.source = source or "rule"
        if data.get("version") != AUTO_RULE_VERSION or "tree" not in data:
            raise KakuroError(f"{self.source}: not an auto rule of version {AUTO_RULE_VERSION}")
        self.data = data
        self.tree: Mapping[str, Any] = data["tree"]
        self.runnable = runnable
        self._check(self.tree)

    def _check(self, node: Mapping[str, Any]) -> None:
        if "config" in node:
            if not self.runnable:
                return
            config = Config.parse(str(node["config"]))
            if config.name == AutoBackend.name:
                raise KakuroError(f"{self.source}: a leaf names auto itself")
            check_options(config.name, config.options)  # a known backend, options it takes
            return
        threshold = node.get("threshold")
        if node.get("feature") not in AUTO_FEATURES or not isinstance(threshold, int | float):
            raise KakuroError(f"{self.source}: a node needs a known feature and a threshold")
        for side in ("below", "above"):
            if not isinstance(node.get(side), Mapping):
                raise KakuroError(f"{self.source}: a node needs both sides (below, above)")
            self._check(node[side])

    @classmethod
    def load(cls, path: str | Path | None = None) -> AutoRule:
        """The rule in ``path`` (default: the shipped one), checked, or one clear line."""
        where = Path(path) if path is not None else AUTO_RULE_FILE
        try:
            data = json.loads(where.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise KakuroError(f"auto rule {where}: cannot read it ({str(exc)[:80]})") from None
        if not isinstance(data, dict):
            raise KakuroError(f"auto rule {where}: not a JSON object")
        return cls(data, str(where))

    def leaf(self, value: Callable[[str], float]) -> tuple[Mapping[str, Any], tuple[str, ...]]:
        """The leaf the features reach (``value(name)`` gives a feature) and the path to it."""
        node, path = self.tree, []
        while "config" not in node:
            name, threshold = node["feature"], node["threshold"]
            if value(name) < threshold:
                node, test = node["below"], f"{name} < {threshold:g}"
            else:
                node, test = node["above"], f"{name} >= {threshold:g}"
            path.append(test)
        return node, tuple(path)

    def choose(self, puzzle: Puzzle) -> AutoChoice:
        """The configuration for ``puzzle``; the fallback when the rule's cannot run here."""
        measured = PuzzleFeatures(puzzle)
        for name, feature in AUTO_FEATURES.items():
            if not feature.probe:
                measured[name]  # the cheap ones are always recorded
        leaf, path = self.leaf(measured.__getitem__)
        config, picked = str(leaf["config"]), ""
        if not BACKENDS[Config.parse(config).name].available():
            config, picked = FALLBACK, config
        return AutoChoice(config, path, dict(measured.values), measured.seconds, picked, leaf)

    def describe(self) -> list[str]:
        """The tree as indented text lines (docs, ``kakuro`` output)."""
        lines: list[str] = []

        def walk(node: Mapping[str, Any], depth: int) -> None:
            pad = "  " * depth
            if "config" in node:
                lines.append(f"{pad}-> {node['config']}")
                return
            name, threshold = node["feature"], node["threshold"]
            lines.append(f"{pad}if {name} < {threshold:g}:")
            walk(node["below"], depth + 1)
            lines.append(f"{pad}else:  # {name} >= {threshold:g}")
            walk(node["above"], depth + 1)

        walk(self.tree, 0)
        return lines


# -- the backend -------------------------------------------------------------------------


class AutoBackend(Backend):
    name = "auto"
    doc = "picks a configuration from cheap features of the puzzle (a rule fitted on the runs)"
    extra = None
    accepted_options: ClassVar[dict[str, str]] = {
        "rule": "a rule file (JSON) in place of the shipped kakurolab/data/auto/rule.json",
    }

    def __init__(self, *, rule: str | None = None, **options: Any) -> None:
        super().__init__(**options)  # refuses any other option
        self.rule = AutoRule.load(rule)
        self.options = {"rule": rule}

    def choose(self, puzzle: Puzzle) -> AutoChoice:
        return self.rule.choose(puzzle)

    def _open(self, puzzle: Puzzle) -> Session:
        choice = self.choose(puzzle)
        backend = Config.parse(choice.config).backend()
        start = time.perf_counter()
        inner = backend.open(puzzle, deadline=deadlines.current())
        return AutoSession(inner, choice, choice.feature_s + time.perf_counter() - start)


class AutoSession(Session):
    """The chosen configuration's session, with the choice added to its statistics."""

    def __init__(self, inner: Session, choice: AutoChoice, encode_time: float) -> None:
        self.inner, self.choice = inner, choice
        self.encode_time = encode_time

    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        status, solution = self.inner.next(timeout)
        self.message = self.inner.message
        return status, solution

    def block(self, solution: Solution) -> None:
        self.inner.block(solution)

    def stats(self) -> dict[str, Any]:
        """The chosen session's statistics, the choice under ``auto``, and its configuration
        and rule as flat text too (``auto_config``, ``auto_rule``): an experiment row keeps
        only scalar statistics."""
        facts = self.choice.facts()
        return {
            **self.inner.stats(),
            "auto": facts,
            "auto_config": facts["config"],
            "auto_rule": facts["rule"],
        }

    def close(self) -> None:
        self.inner.close()
