"""The ``auto`` backend (kakurolab/backends/auto.py) and the fit of its rule
(kakurolab/experiments/autofit.py).

The generic backend tests (registries, cross-checks, CLI, deadlines, uniqueness) run ``auto``
from the registry; here are the parts only it has: the features, the rule and its choice
(what ``--json`` reports), and the fit: deterministic, leave-one-family-out, and the
committed rule reproduced from the committed runs.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from _puzzles import square

from kakurolab import datasets
from kakurolab.backends import AUTO_FEATURES, BACKENDS, AutoRule, PuzzleFeatures, get_backend
from kakurolab.cli import main
from kakurolab.errors import KakuroError
from kakurolab.experiments import autofit
from kakurolab.formats import load
from kakurolab.transition import parse_id
from kakurolab.uniqueness import count

ROOT = Path(__file__).resolve().parents[1]
HARD = ROOT / "data" / "hard"


def _hard(family: str, puzzle_id: str):  # type: ignore[no-untyped-def]
    return next(p for p in load(HARD / f"{family}.txt") if p.id == puzzle_id)


def _rule_file(tmp_path: Path, tree: dict) -> str:
    path = tmp_path / "rule.json"
    path.write_text(json.dumps({"version": AutoRule.version, "tree": tree}))
    return str(path)


SPLIT = {
    "feature": "whites",
    "threshold": 3,
    "below": {"config": "native"},
    "above": {"config": "pysat:encoding=fast,solver=cadical195"},
}
"""A rule that sends a 2x2 square (4 white cells) to the CNF preset, anything smaller to
native."""


# -- features ----------------------------------------------------------------------------


def test_features_of_a_square_are_counted_by_hand() -> None:
    # runs of two cells: sum 3 has one digit set ({1,2}), sum 10 four ({1,9} .. {4,6})
    puzzle = square((3, 10), (10, 3))
    measured = PuzzleFeatures(puzzle)
    assert measured["whites"] == 4
    assert measured["cells"] == 9
    assert measured["cryptic"] == 0
    assert measured["mean_run"] == 2
    assert measured["mean_sets"] == (1 + 4 + 4 + 1) / 4
    assert "open_share" not in measured.values  # the probe only when asked for


def test_the_probe_tells_a_loose_grid_from_a_settled_one() -> None:
    loose = PuzzleFeatures(_hard("loose", "loose-20x20-s1"))["open_share"]
    unsat = PuzzleFeatures(_hard("unsat", "unsat-10x10-s1"))["open_share"]
    published = PuzzleFeatures(load(datasets.PE424)[0])["open_share"]
    assert loose > 0.5, loose  # the clues of a loose grid pin almost nothing
    assert unsat == 0.0  # refuted at the root: nothing left open
    assert published == 0.0  # PE424 #1 is decided by propagation alone


def test_a_cryptic_puzzle_has_no_digit_sets() -> None:
    measured = PuzzleFeatures(load(datasets.PE424)[0])
    assert measured["cryptic"] == 1 and measured["mean_sets"] == 0


@pytest.mark.parametrize(
    ("tree", "says"),
    [
        ({"feature": "colour", "threshold": 1, "below": SPLIT, "above": SPLIT}, "known feature"),
        ({"feature": "whites", "threshold": 1, "below": SPLIT}, "both sides"),
        ({"config": "nosuch"}, "unknown backend 'nosuch'"),
        ({"config": "native:colour=red"}, "does not take option 'colour'"),
        ({"config": "auto"}, "names auto itself"),
    ],
)
def test_a_bad_rule_is_refused_when_loaded(tmp_path: Path, tree: dict, says: str) -> None:
    with pytest.raises(KakuroError, match=says):
        get_backend("auto", rule=_rule_file(tmp_path, tree))


# -- the choice --------------------------------------------------------------------------


def test_the_rule_picks_by_its_tests_and_answers_agree(tmp_path: Path) -> None:
    puzzle = square((10, 10), (10, 10))  # eight grids
    result = count(puzzle, 0, backend=get_backend("auto", rule=_rule_file(tmp_path, SPLIT)))
    facts = result.stats["auto"]
    assert facts["config"] == "pysat:encoding=fast,solver=cadical195"
    assert facts["rule"] == "whites >= 3" == result.stats["auto_rule"]
    assert result.stats["auto_config"] == facts["config"]
    assert facts["features"]["whites"] == 4
    assert "conflicts" in result.stats  # the chosen backend's own statistics
    reference = count(puzzle, 0, backend="native")
    assert result.n_solutions == reference.n_solutions == 8
    assert {tuple(sorted(s.values.items())) for s in result.solutions} == {
        tuple(sorted(s.values.items())) for s in reference.solutions
    }


def test_a_choice_that_cannot_run_here_falls_back_to_native(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(BACKENDS["pysat"], "available", classmethod(lambda cls: False))
    auto = get_backend("auto", rule=_rule_file(tmp_path, SPLIT))
    result = count(square((3, 4), (3, 4)), 2, backend=auto)
    facts = result.stats["auto"]
    assert facts["config"] == "native"
    assert facts["picked"] == "pysat:encoding=fast,solver=cadical195"
    assert result.n_solutions == 1


def test_the_shipped_rule_picks_one_of_its_candidates() -> None:
    rule = AutoRule.load()
    for puzzle in [*load(datasets.PE424)[:3], _hard("loose", "loose-10x10-s1")]:
        assert rule.choose(puzzle).config in rule.data["candidates"]


def test_json_carries_the_choice(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "p.txt"
    path.write_text("3 3\n- 3, 4,\n,3 0 0\n,4 0 0\n")
    code = main(["unique", str(path), "--backend", "auto", "--json"])
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert code == 0 and record["backend"] == "auto" and record["verdict"] == "unique"
    facts = record["stats"]["auto"]
    assert facts["config"] in AutoRule.load().data["candidates"]
    assert set(facts["features"]) >= {"whites", "cells", "cryptic", "mean_sets"}
    assert facts["rule"] and "feature_s" in facts


def test_a_bad_rule_file_is_one_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "p.txt"
    path.write_text("3 3\n- 3, 4,\n,3 0 0\n,4 0 0\n")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code = main(["solve", str(path), "--backend", "auto", "--option", f"rule={bad}"])
    err = capsys.readouterr().err
    assert code == 2 and "auto rule" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


# -- the fit -----------------------------------------------------------------------------


def _problem(family: str, whites: int, fast: float, slow: float) -> autofit.Problem:
    """A made-up problem: ``a`` takes ``fast`` seconds, ``b`` takes ``slow``."""
    values = dict.fromkeys(AUTO_FEATURES, 0.0) | {"whites": float(whites)}
    return autofit.Problem(
        source="made-up",
        family=family,
        instance=f"{family}/{whites}",
        task="solve",
        timeout=10.0,
        features=values,
        par2={"a": fast, "b": slow},
        answered={"a": fast < 20, "b": slow < 20},
    )


def _made_up() -> list[autofit.Problem]:
    # small puzzles: a answers at once, b in half a second; large ones: a times out (PAR-2
    # 20 s) where b answers in half a second
    small = [_problem(f, w, 0.01, 0.5) for f in ("s1", "s2") for w in range(10, 60, 10)]
    large = [_problem(f, w, 20.0, 0.5) for f in ("l1", "l2") for w in range(1000, 1500, 100)]
    return small + large


def test_the_fit_splits_where_the_winner_changes_and_is_deterministic() -> None:
    problems = _made_up()
    tree = autofit.fit(problems, ["a", "b"])
    assert tree["feature"] == "whites" and 50 < tree["threshold"] < 1000
    assert tree["below"]["config"] == "a" and tree["above"]["config"] == "b"
    assert autofit.fit(list(reversed(problems)), ["a", "b"]) == tree


def test_the_fit_leaves_noise_alone() -> None:
    # b wins the small half by milliseconds: below MIN_GAIN_S, so no split
    problems = [_problem("f", w, 0.01, 0.02) for w in range(10, 60, 10)]
    problems += [_problem("g", w, 0.02, 0.01) for w in range(100, 150, 10)]
    assert autofit.fit(problems, ["a", "b"]) == autofit.fit(problems, ["a", "b"], depth=0)


def test_a_split_whose_leaves_all_pick_the_same_goes(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # with no least gain, a split of problems a wins everywhere still picks a on both sides
    monkeypatch.setattr(autofit, "MIN_GAIN_S", 0.0)
    monkeypatch.setattr(autofit, "MIN_GAIN_SHARE", 0.0)
    problems = [_problem("f", w, 0.01, 0.5 + w / 100) for w in range(10, 200, 10)]
    assert autofit.fit(problems, ["a", "b"]) == autofit.fit(problems, ["a", "b"], depth=0)


def test_cross_validation_never_sees_the_family_it_scores() -> None:
    # only family l2's members need b; with l2 left out, the rest show large grids too (l1),
    # so the rule still learns it; with both large families gone, it cannot
    problems = [p for p in _made_up() if p.family != "l1"]
    scored = {s.problem.instance: s for s in autofit.cross_validate(problems)}
    assert all(s.config == "a" for s in scored.values() if s.problem.family == "l2")
    row = autofit.cv_table(list(scored.values()), ["a", "b"])[-1]
    assert row["family"] == "all" and row["blunders"] == 5 and row["auto_vs_vbs"] > 1.1


def test_a_source_of_several_families_gets_a_pooled_row() -> None:
    # the made-up source holds four families: one pooled row before "all"; a source of
    # one family adds none
    problems = [*_made_up(), replace(_problem("x", 30, 0.01, 0.5), source="single")]
    rows = autofit.cv_table(autofit.cross_validate(problems), ["a", "b"])
    pooled = {r["family"]: r for r in rows}
    assert [r["family"] for r in rows][-2:] == ["all of results/made-up", "all"]
    assert "all of results/single" not in pooled
    made_up = pooled["all of results/made-up"]
    assert made_up["problems"] == len(problems) - 1
    assert made_up["auto_s"] == round(
        sum(s.auto_s for s in autofit.cross_validate(problems) if s.problem.source == "made-up")
        / made_up["problems"], 4)


def test_the_committed_evaluation_matches_the_committed_rule() -> None:
    cv = json.loads((ROOT / "results" / "auto" / "cv.json").read_text())
    assert cv["rule"] == AutoRule.load().data["tree"]
    overall = cv["table"][-1]
    assert overall["family"] == "all" and overall["problems"] == AutoRule.load().data["problems"]


@pytest.mark.slow
def test_the_committed_rule_reproduces_from_the_runs(capsys) -> None:  # type: ignore[no-untyped-def]
    """``python -m kakurolab.experiments.autofit --check``: the fit over every committed run
    (about 15-25 s: 289 puzzles' features) gives the shipped rule byte for byte."""
    assert autofit.main(["--root", str(ROOT), "--check"]) == 0, capsys.readouterr().out


@pytest.fixture
def tiny_source(tmp_path: Path) -> Path:
    """A project with one experiment, ``tiny`` (native and auto on a 2x2 square), run."""
    (tmp_path / "experiments").mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "p.txt").write_text("3 3\n- 3, 4,\n,3 0 0\n,4 0 0\n")
    (tmp_path / "experiments" / "tiny.toml").write_text(
        'name = "tiny"\ntask = "solve"\ntimeout = 5\n'
        '[[puzzles]]\nfile = "p.txt"\nname = "s"\n[[configs]]\nbackend = ["native", "auto"]\n'
    )
    assert main(["experiment", "run", str(tmp_path / "experiments" / "tiny.toml")]) == 0
    return tmp_path


def test_a_source_puzzle_is_found_by_its_hash(tiny_source: Path) -> None:
    problems, notes = autofit.load_problems(tiny_source, ("tiny",))
    assert not notes and len(problems) == 1
    problem = problems[0]
    assert problem.instance == "s/1" and problem.family == "s" and problem.task == "solve"
    assert problem.features["whites"] == 4 and problem.features["mean_sets"] == 1.0
    assert problem.answered["native"] and problem.timeout == 5


def test_a_run_whose_puzzle_changed_is_left_out_with_a_note(tiny_source: Path) -> None:
    (tiny_source / "p.txt").write_text("3 3\n- 4, 3,\n,4 0 0\n,3 0 0\n")
    problems, notes = autofit.load_problems(tiny_source, ("tiny",))
    assert not problems and len(notes) == 1 and "no puzzle with hash" in notes[0]


def test_auto_own_runs_are_left_out_of_the_fit(tiny_source: Path) -> None:
    """A source that ran auto too (quick.toml does) must not teach auto its own choices."""
    problems, _ = autofit.load_problems(tiny_source, ("tiny",))
    assert set(problems[0].par2) == {"native"}


def test_the_transition_scan_is_a_source_of_members_only(tmp_path: Path) -> None:
    """The committed scan's members (not its twins, which two backends alone decide) become
    problems, each found by its hash in ``results/transition-spread/puzzles`` (two seeds of
    its smallest size, copied: all 960 members take 8 s to read)."""
    scan = ROOT / "results" / "transition-spread"
    copy = tmp_path / "results" / "transition-spread"
    (copy / "puzzles").mkdir(parents=True)
    for seed in (0, 1):
        shutil.copy(scan / "puzzles" / f"12x12-s{seed}.txt", copy / "puzzles")
    rows = [row for row in map(json.loads, (scan / "runs.jsonl").open())
            if parse_id(row["instance"])[::2] in ((12, 0), (12, 1))]  # (size, seed)
    (copy / "runs.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    members = {(r["instance"], r["task"]) for r in rows if r["set"].endswith("|member")}
    assert members
    problems, notes = autofit.load_problems(tmp_path, ("transition-spread",))
    assert not notes
    assert {(p.instance, p.task) for p in problems} == members
    assert {p.family for p in problems} == {"transition"}
    assert set(autofit.candidates_of(problems)) == {
        autofit.config_of(r) for r in rows if r["set"].endswith("|member")
    }
