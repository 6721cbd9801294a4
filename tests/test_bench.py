"""``kakuro bench`` and ``kakurolab.ratios``: configurations, ratios, targets, answer checks."""

from __future__ import annotations

import json
from typing import Any, ClassVar

import pytest

from kakurolab import datasets
from kakurolab.backends import BACKENDS, Config, Session, Status, coerce
from kakurolab.backends.cpsat import CpSatBackend
from kakurolab.cli import main
from kakurolab.errors import KakuroError
from kakurolab.model import Puzzle, Solution
from kakurolab.ratios import SUITES, SuiteOptions, parse_targets, run_bench

PEER = "cpsat:random_seed=7"  # a second configuration that is always installed


class _NoSolution(Session):
    def next(self, timeout: float | None = None) -> tuple[Status, Solution | None]:
        return Status.UNSAT, None

    def block(self, solution: Solution) -> None:
        raise AssertionError("nothing to block")


class _Liar(CpSatBackend):
    """Claims every puzzle is unsat: the bench must refuse to time it."""

    name: ClassVar[str] = "liar"

    def _open(self, puzzle: Puzzle) -> Session:
        return _NoSolution()


class _Spec(CpSatBackend):
    """Declares the options of an encoding-based backend, for the spec parser."""

    name: ClassVar[str] = "spec"
    accepted_options: ClassVar[dict[str, str]] = {"encoding": "spec", "solver": "name"}

    def __init__(self, **options: Any) -> None:
        self.options = options


def test_pe424_subset_table_has_ratios(pe424_path, capsys) -> None:
    code = main(["bench", "pe424", "--config", PEER, "--subset", "3", "--file", str(pe424_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "suite pe424: 3 cases, reference cpsat" in out
    assert "ratio" in out and "geo ratio" in out
    lines = {line.split()[0]: line for line in out.splitlines()[2:]}
    assert "1.000x" in lines["cpsat"] and "(ref)" in lines["cpsat"]
    assert lines[PEER].rstrip().endswith("x")


def test_pe424_subset_json(pe424_path, capsys) -> None:
    code = main(["bench", "pe424", "--config", PEER, "--subset", "3", "--repeat", "2",
                 "--aggregate", "median", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["suite"] == "pe424" and report["cases"] == 3 and report["repeat"] == 2
    by_label = {c["config"]: c for c in report["configs"]}
    assert set(by_label) == {"cpsat", PEER}
    assert by_label["cpsat"]["ratio"] == 1.0
    assert by_label[PEER]["ratio"] > 0 and by_label[PEER]["geo_ratio"] > 0
    assert set(report["times"][PEER]) == {"1", "2", "3"}


@pytest.mark.parametrize(("target", "verdict", "code"), [("1000", "PASS", 0), ("0", "FAIL", 1)])
def test_target_pass_fail(pe424_path, capsys, target: str, verdict: str, code: int) -> None:
    assert main(["bench", "pe424", "--config", PEER, "--subset", "2",
                 "--target", f"{PEER}={target}"]) == code
    assert verdict in capsys.readouterr().out


def test_janko_subset_checks_published_solutions(janko_path, capsys) -> None:
    assert main(["bench", "janko", "--config", PEER, "--subset", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["cases"] == 2 and report["ok"] is True


def test_disagreement_is_an_error(pe424_path, capsys, monkeypatch) -> None:
    monkeypatch.setitem(BACKENDS, "liar", _Liar)
    assert main(["bench", "pe424", "--config", "liar", "--subset", "2"]) == 2
    err = capsys.readouterr().err
    assert "configurations disagree" in err and "liar says 'unsat'" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "nosuch"], "unknown suite 'nosuch'"),
        (["bench", "pe424", "--config", "nosuch"], "unknown backend 'nosuch'"),
        (["bench", "pe424", "--config", "cpsat:bogus=1"], "does not take option 'bogus'"),
        (["bench", "pe424", "--config", "cpsat", "--config", "cpsat"], "given twice"),
        (["bench", "pe424", "--subset", "0"], "--subset must be at least 1"),
        (["bench", "pe424", "--repeat", "0", "--config", "cpsat"], "repeat must be at least"),
        (["bench", "pe424", "--file", "/nonexistent.txt", "--config", "cpsat"], "no such file"),
        (["bench", "pe424", "--config", "cpsat", "--target", "x=fast"], "a target is RATIO"),
        (["bench", "pe424", "--config", "cpsat", "--target", "other=1"], "not a configuration"),
    ],
)
def test_bad_arguments_are_one_line_errors(capsys, argv: list[str], message: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("spec", "name", "options"),
    [
        ("cpsat", "cpsat", {}),
        ("cpsat:num_workers=2", "cpsat", {"num_workers": 2}),
        ("spec:encoding=strong,solver=cadical195", "spec",
         {"encoding": "strong", "solver": "cadical195"}),
        ("spec:encoding=cell=direct,sum=mdd,solver=g4", "spec",
         {"encoding": "cell=direct,sum=mdd", "solver": "g4"}),
        ("spec:encoding='solver=x,y',solver=g4", "spec",
         {"encoding": "solver=x,y", "solver": "g4"}),
        ("spec:solver=g4, encoding=\"a b\"", "spec", {"solver": "g4", "encoding": "a b"}),
    ],
)
def test_config_parse(monkeypatch, spec: str, name: str, options: dict) -> None:
    monkeypatch.setitem(BACKENDS, "spec", _Spec)
    config = Config.parse(spec)
    assert (config.name, dict(config.options), config.label) == (name, options, spec)
    assert config.backend().options == options


@pytest.mark.parametrize("spec", [":x=1", "cpsat:=1", "cpsat:x", "cpsat:x='1"])
def test_config_parse_rejects_malformed(spec: str) -> None:
    with pytest.raises(KakuroError):
        Config.parse(spec)


@pytest.mark.parametrize(
    ("text", "value"), [("3", 3), ("0.5", 0.5), ("true", True), ("off", False), ("g4", "g4")]
)
def test_coerce(text: str, value: object) -> None:
    assert coerce(text) == value and type(coerce(text)) is type(value)


def test_parse_targets() -> None:
    assert parse_targets(["0.25", "pysat:encoding=strong=0.5"]) == {
        "*": 0.25, "pysat:encoding=strong": 0.5
    }


def test_suites_registry_is_a_plain_dict() -> None:
    assert {"pe424", "janko", "stress"} <= set(SUITES)
    assert all(suite.doc for suite in SUITES.values())


def test_stress_suite_is_the_loose_grid() -> None:
    """One case, loaded with its one-cell runs; a run out of time is a timeout, not an answer."""
    from kakurolab.backends import get_backend

    (case,) = SUITES["stress"].cases(SuiteOptions())
    assert case.run(get_backend("native", node_limit=10), None).timeout


class _Recorder(CpSatBackend):
    """Notes which configuration opens each puzzle, to see the interleaving order."""

    name: ClassVar[str] = "recorder"
    calls: ClassVar[list[tuple[str, int]]] = []

    def _open(self, puzzle: Puzzle) -> Session:
        self.calls.append((puzzle.id, self.options["random_seed"]))
        return super()._open(puzzle)


def test_puzzle_major_order_rotates_configurations(pe424_path, monkeypatch) -> None:
    monkeypatch.setitem(BACKENDS, "recorder", _Recorder)
    monkeypatch.setattr(_Recorder, "calls", [])
    configs = [Config.parse("recorder:random_seed=2"), Config.parse("recorder:random_seed=3")]
    report = run_bench("pe424", configs, reference=Config.parse("recorder:random_seed=1"),
                       options=SuiteOptions(file=pe424_path, subset=3))
    assert [c.config.label for c in report.configs] == [
        "recorder:random_seed=1", "recorder:random_seed=2", "recorder:random_seed=3"
    ]  # the reference is added in front
    timed = _Recorder.calls[3:]  # after one warm-up run per configuration
    assert timed == [("1", 1), ("1", 2), ("1", 3), ("2", 2), ("2", 3), ("2", 1),
                     ("3", 3), ("3", 1), ("3", 2)]


# Full benchmarks (run with -m bench): the targets for the native backend.
@pytest.mark.bench
@pytest.mark.parametrize(("suite", "target"), [("pe424", 0.25), ("janko", 0.05)])
def test_native_meets_target(capsys, suite: str, target: float) -> None:
    # min of 3 interleaved runs per puzzle: sub-millisecond cases are at the mercy of one
    # preemption or GC pause otherwise
    code = main(["bench", suite, "--config", "native", "--reference", "cpsat", "--repeat", "3",
                 "--target", f"native={target}"])
    out = capsys.readouterr().out
    print(out)
    assert code == 0, out


@pytest.mark.bench
def test_native_answers_the_stress_grid_as_fast_as_cpsat(capsys) -> None:
    code = main(["bench", "stress", "--config", "native", "--reference", "cpsat",
                 "--timeout", "60", "--target", "native=1.0"])
    out = capsys.readouterr().out
    print(out)
    assert code == 0, out


@pytest.mark.bench
@pytest.mark.parametrize(
    "family", ["large-unique", "loose", "unsat", "loose-unsat", "ambiguous", "cryptic"]
)
def test_native_meets_the_hard_family_target(capsys, family: str) -> None:
    """Issue 26: native at most 0.5x CP-SAT (1 worker) on each hard family, measured on the
    two smallest members (those of experiments/hard-quick.toml), proved unique or not."""
    path = datasets.DATA_DIR / "hard" / f"{family}.txt"
    code = main(["bench", "stress", "--file", str(path), "--subset", "2", "--config", "native",
                 "--reference", "cpsat", "--repeat", "3", "--timeout", "60",
                 "--target", "native=0.5"])
    out = capsys.readouterr().out
    print(out)
    assert code == 0, out


def test_each_timed_run_starts_on_a_collected_heap(monkeypatch) -> None:
    """A timed run must not pay for the garbage of the run before it (another
    configuration's): each starts right after a collection, with the warm-up's heap frozen
    so that collection is cheap; afterwards the heap is unfrozen."""
    import gc

    from kakurolab.ratios import SUITES, Case, Outcome, Suite

    kept: list[object] = []
    seen: list[tuple[int, int]] = []

    def run(backend: object, timeout: float | None) -> Outcome:
        seen.append((gc.get_count()[0], gc.get_freeze_count()))
        kept.extend([{} for _ in range(300)])  # young objects the next run would inherit
        return Outcome("same")

    cases = [Case(str(i), run) for i in range(4)]
    monkeypatch.setitem(SUITES, "heap", Suite("heap test", lambda options: cases))
    monkeypatch.setitem(BACKENDS, "recorder", _Recorder)
    run_bench("heap", [Config.parse("recorder:random_seed=2")],
              reference=Config.parse("recorder:random_seed=1"), repeat=2)  # fmt: skip
    timed = seen[2:]  # after one warm-up run per configuration
    assert len(timed) == 4 * 2 * 2
    assert all(young < 100 and frozen > 0 for young, frozen in timed), timed
    assert gc.get_freeze_count() == 0
