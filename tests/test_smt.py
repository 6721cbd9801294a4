"""SMT encodings through z3 (and the lia model through cvc5) agree with the native solver.

Every test is parametrized over the SMT registry: each encoding under each logic it accepts,
plus a tactic variant.  Verdicts and solutions are compared with ``native`` on hand-made
unique, ambiguous and unsatisfiable puzzles (standard and cryptic), on PE424 and on small
janko puzzles with published solutions; whole data sets are ``slow``.
"""

from __future__ import annotations

import pytest
from _puzzles import square
from _registries import require_backend

from kakurolab.backends import BACKENDS, Config, Status, get_backend
from kakurolab.cli import main
from kakurolab.encodings import PRESETS, encode, parse_spec
from kakurolab.encodings.smt import SMT_ENCODERS
from kakurolab.encodings.smt.common import LOGICS_OF
from kakurolab.errors import KakuroError, UnknownNameError
from kakurolab.formats import loads
from kakurolab.model import Puzzle, Solution
from kakurolab.ratios import SuiteOptions, run_bench
from kakurolab.reports.smt import configurations, markdown
from kakurolab.uniqueness import Verdict, count, prove_unique, solve


def _variants() -> list[str]:
    """Every encoding under every logic it accepts (default logic unspelt), and one tactic."""
    specs = []
    for name in SMT_ENCODERS:
        _default, *others = LOGICS_OF[name]
        specs.append(f"smt={name}")
        specs.extend(f"smt={name},logic={logic}" for logic in others)
    specs.append("smt=lia,tactic=qffd")
    return specs


SPECS = _variants()
DEFAULT_LOGIC_SPECS = [f"smt={name}" for name in SMT_ENCODERS]


def _block(size: int, total: int) -> Puzzle:
    """A ``size`` x ``size`` white block whose rows and columns all sum to ``total``."""
    header = "- " + " ".join(f"{total}," for _ in range(size))
    rows = [f",{total} " + " ".join("0" for _ in range(size)) for _ in range(size)]
    return loads(f"{size + 1} {size + 1}\n" + "\n".join([header, *rows]) + "\n")[0]


def _cryptic(line: str) -> Puzzle:
    return loads(line + "\n", format="pe424")[0]


HAND_MADE: dict[str, tuple[Puzzle, Verdict, int]] = {
    # name: (puzzle, verdict, exact number of grids)
    "square-unique": (square((3, 4), (3, 4)), Verdict.UNIQUE, 1),
    "square-two": (square((3, 3), (3, 3)), Verdict.MULTIPLE, 2),
    "square-unsat": (square((3, 3), (3, 4)), Verdict.UNSAT, 0),
    "latin3": (_block(3, 6), Verdict.MULTIPLE, 12),
    # rows and columns sum to the letters A and B: the corner cells may be equal
    "cryptic-open": (_cryptic("3,X,(vA),(vB),(hA),O,O,(hB),O,O"), Verdict.MULTIPLE, None),
    # two cells of one run both show D: no grid at all
    "cryptic-unsat": (_cryptic("3,X,(vA),(vB),(hC),D,D,(hE),O,O"), Verdict.UNSAT, 0),
    # a two-letter clue over two cells must be 1x (x <= 7), so C is 1 and F is forced
    "cryptic-two-letter": (_cryptic("3,X,(vA),(vB),(hCF),O,O,(hG),O,O"), Verdict.MULTIPLE, None),
}


def _z3(spec: str):
    return get_backend("z3", encoding=spec)


def _grids(puzzle: Puzzle, backend) -> set[tuple[int, ...]]:
    result = count(puzzle, None, backend=backend)
    assert result.complete
    return {tuple(s.values[c] for c in puzzle.whites) for s in result.solutions}


# -- hand-made puzzles ---------------------------------------------------------------------


@pytest.mark.parametrize("case", list(HAND_MADE))
@pytest.mark.parametrize("spec", SPECS)
def test_hand_made_verdict_matches_native(spec: str, case: str) -> None:
    puzzle, verdict, _ = HAND_MADE[case]
    ours = prove_unique(puzzle, backend=_z3(spec))
    native = prove_unique(puzzle, backend="native")
    assert native.verdict is verdict
    assert ours.verdict is verdict
    if verdict is Verdict.UNIQUE:
        assert ours.solutions == native.solutions
    if verdict is Verdict.MULTIPLE:
        assert len(set(ours.solutions)) == 2


@pytest.mark.parametrize("case", [c for c, (_, _, n) in HAND_MADE.items() if n is not None])
@pytest.mark.parametrize("spec", DEFAULT_LOGIC_SPECS)
def test_counts_grids_like_native(spec: str, case: str) -> None:
    """Blocking is over cells only: every distinct grid is found once, none is missed."""
    puzzle, _, expected = HAND_MADE[case]
    ours = _grids(puzzle, _z3(spec))
    assert len(ours) == expected
    assert ours == _grids(puzzle, "native")


@pytest.mark.parametrize("spec", DEFAULT_LOGIC_SPECS)
def test_cryptic_counts_grids_not_letter_assignments(spec: str) -> None:
    """Letters that no clue pins down never multiply the count of grids."""
    puzzle = HAND_MADE["cryptic-two-letter"][0]
    assert _grids(puzzle, _z3(spec)) == _grids(puzzle, "native")


# -- real data -----------------------------------------------------------------------------


def _agree_with_native(puzzles: list[Puzzle], spec: str) -> list[Solution]:
    """Same verdicts and unique solutions as native; the solutions found, in order."""
    backend = _z3(spec)
    found = []
    for puzzle in puzzles:
        ours = prove_unique(puzzle, backend=backend)
        native = prove_unique(puzzle, backend="native")
        assert ours.verdict is native.verdict, puzzle.id
        if native.verdict is Verdict.UNIQUE:
            assert ours.solutions == native.solutions, puzzle.id
        found.extend(ours.solutions[:1])
    return found


@pytest.mark.parametrize("spec", SPECS)
def test_pe424_first_20_agree_with_native(spec: str, pe424_puzzles) -> None:
    solutions = _agree_with_native(pe424_puzzles[:20], spec)
    answers = [s.answer for s in solutions[:10]]
    assert answers[0] == "8426039571"
    assert sum(int(a) for a in answers) == 64414157580


SMALL_JANKO = ["282_6x6", "91_6x6", "241_9x9", "512_10x10"]


@pytest.mark.parametrize("spec", SPECS)
def test_small_janko_published_solutions(spec: str, janko_puzzles) -> None:
    by_id = {p.id: p for p in janko_puzzles}
    puzzles = [by_id[i] for i in SMALL_JANKO]
    for puzzle in puzzles:
        proof = prove_unique(puzzle, backend=_z3(spec))
        assert proof.verdict is Verdict.UNIQUE, puzzle.id
        assert proof.solutions[0] == puzzle.meta["solution"], puzzle.id
    _agree_with_native(puzzles, spec)


@pytest.mark.slow
def test_all_pe424_agree_with_native_under_default(pe424_puzzles) -> None:
    """The z3 backend's default (fastest) encoding on all 200 PE424 puzzles."""
    backend = get_backend("z3")
    for puzzle in pe424_puzzles:
        ours = prove_unique(puzzle, backend=backend)
        native = prove_unique(puzzle, backend="native")
        assert ours.verdict is native.verdict is Verdict.UNIQUE, puzzle.id
        assert ours.solutions == native.solutions, puzzle.id


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_all_janko_published_solutions(spec: str, janko_puzzles) -> None:
    small = [p for p in janko_puzzles if len(p.whites) <= 150]
    for puzzle in small:
        proof = prove_unique(puzzle, backend=_z3(spec), timeout=60)
        assert proof.verdict is Verdict.UNIQUE, puzzle.id
        assert proof.solutions[0] == puzzle.meta["solution"], puzzle.id


@pytest.mark.bench
def test_report_page_has_every_section(pe424_path, janko_path) -> None:
    """The generator of docs/encodings-smt.md, on a tiny subset."""
    page = markdown(2, 1, 10.0)
    for heading in ("## Encodings", "## Formula size", "### pe424", "### janko", "### QF_FD"):
        assert heading in page
    for name in SMT_ENCODERS:
        assert f"`smt={name}`" in page


# -- the backend's interface ---------------------------------------------------------------


def test_registered() -> None:
    assert "z3" in BACKENDS and "cvc5" in BACKENDS


def test_default_encoding_is_the_smt_preset() -> None:
    backend = get_backend("z3")
    assert backend.spec == parse_spec(PRESETS["smt"].spec) == parse_spec("smt=bv,logic=QF_FD")


@pytest.mark.parametrize("preset", [name for name in PRESETS if name.startswith("smt")])
def test_smt_presets_solve(preset: str, pe424_puzzles) -> None:
    assert solve(pe424_puzzles[0], backend=_z3(preset)).solution.answer == "8426039571"


def test_report_configurations_are_valid_bench_configs() -> None:
    configs = [Config.parse(text) for text in configurations()]
    for config in configs:
        config.backend()
    assert len({c.label for c in configs}) == len(configs) == len(SPECS) + 1  # + cvc5


@pytest.mark.bench
def test_bench_every_smt_configuration_against_cpsat(pe424_path) -> None:
    """Same-run ratios to cpsat on PE424; bench itself fails on any disagreement."""
    report = run_bench(
        "pe424",
        [Config.parse(text) for text in configurations()],
        reference=Config.parse("cpsat"),
        options=SuiteOptions(file=pe424_path, subset=20),
    )
    print(report.table())
    assert all(c.ratio is not None and not c.timeouts for c in report.configs)


@pytest.mark.parametrize("spec", SPECS)
def test_stats_report_search_effort(spec: str, pe424_puzzles) -> None:
    result = solve(pe424_puzzles[0], backend=_z3(spec))
    assert result.status is Status.SAT
    assert {"conflicts", "decisions", "checks", "variables", "assertions"} <= set(result.stats)


def _z3py_size(assertions) -> tuple[int, int]:
    """The reference walk through z3py's own objects (slow, plain)."""
    import z3

    seen: set[int] = set()
    consts: set[int] = set()
    stack = list(assertions)
    while stack:
        term = stack.pop()
        if term.get_id() in seen:
            continue
        seen.add(term.get_id())
        if z3.is_const(term) and term.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            consts.add(term.get_id())
        stack.extend(term.children())
    return len(consts), len(seen)


@pytest.mark.parametrize("spec", DEFAULT_LOGIC_SPECS)
@pytest.mark.parametrize("case", ["square-unique", "latin3", "cryptic-two-letter"])
def test_size_figures_match_a_walk_through_z3py(spec: str, case: str) -> None:
    """The encoding's size (read through z3's C API) is what z3py's objects show, and its
    variables are the white cells plus, for a cryptic puzzle, the ten letters."""
    puzzle = HAND_MADE[case][0]
    encoding = encode(puzzle, parse_spec(spec))
    stats = encoding.stats()
    assert (stats["variables"], stats["terms"]) == _z3py_size(encoding.assertions)
    letters = 10 if puzzle.is_cryptic else 0
    assert stats["variables"] >= len(puzzle.whites) + letters


def test_size_figures_are_left_out_past_the_deadline() -> None:
    """Counting terms walks the whole formula (0.3 s on 8,780 cells) after solving: past the
    deadline the figures are left out rather than overrunning it, and counted later."""
    import time

    from kakurolab import deadline

    encoding = encode(HAND_MADE["latin3"][0], parse_spec("smt=bv"))
    with deadline.deadline(time.perf_counter() - 1.0):
        assert set(encoding.stats()) == {"assertions"}
    assert {"variables", "terms"} <= set(encoding.stats())


def test_timeout_gives_unknown(janko_puzzles) -> None:
    biggest = max(janko_puzzles, key=lambda p: len(p.whites))
    result = solve(biggest, backend=_z3("smt=lia"), timeout=0.001)
    assert result.status is Status.UNKNOWN
    assert result.solution is None


def test_seed_and_sat_core_params_are_passed(pe424_puzzles) -> None:
    backend = get_backend(
        "z3", encoding="smt=pb,logic=QF_FD", seed=7, **{"cardinality.encoding": "ordered"}
    )
    assert backend.params == {
        "sat.cardinality.encoding": "ordered",
        "random_seed": 7,
        "sat.random_seed": 7,
    }
    assert solve(pe424_puzzles[0], backend=backend).solution.answer == "8426039571"


def test_params_option_reaches_z3(pe424_puzzles) -> None:
    backend = get_backend("z3", encoding="smt=lia", params="arith.solver=2;relevancy=0")
    assert solve(pe424_puzzles[0], backend=backend).solution.answer == "8426039571"


def test_logic_option_overrides_the_spec() -> None:
    backend = get_backend("z3", encoding="smt=lia", logic="QF_FD")
    assert backend.logic == "QF_FD"
    assert backend.spec == parse_spec("smt=lia,logic=QF_FD")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"encoding": "smt=nope"}, "unknown smt encoding 'nope'"),
        ({"encoding": "smt=lia,logic=QF_NIA"}, "unknown SMT logic 'QF_NIA'"),
        ({"encoding": "smt=bv,logic=QF_LIA"}, "does not fit this encoding"),
        ({"encoding": "smt=lia,tactic=nonsense"}, "unknown z3 tactic 'nonsense'"),
        ({"encoding": "smt=lia,colour=red"}, "unknown option of smt=lia 'colour'"),
        ({"encoding": "cell=direct,sum=combo"}, "needs an SMT encoding"),
        ({"pb.solver": "totalizer"}, "add logic=QF_FD"),
        ({"seed": "x"}, "seed must be an integer"),
        ({"colour": "red"}, "does not take option 'colour'"),
        ({"params": "justaword"}, "expected name=value"),
    ],
)
def test_bad_options_are_one_line_errors(options: dict, message: str) -> None:
    with pytest.raises(KakuroError, match=message) as info:
        get_backend("z3", **{"encoding": "smt=lia", **options})
    assert "\n" not in str(info.value)


def test_unknown_z3_parameter_is_one_line() -> None:
    """Refused when the backend is made, before any puzzle runs."""
    with pytest.raises(KakuroError, match="unknown parameter") as info:
        get_backend("z3", encoding="smt=lia", params="no.such.param=1")
    assert "\n" not in str(info.value)


def test_unknown_encoding_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownNameError, match="bv, lia, pb, table"):
        encode(square((3, 4), (3, 4)), "smt=nope")


# -- cvc5 ----------------------------------------------------------------------------------


@pytest.fixture(autouse=False)
def cvc5_backend() -> str:
    """cvc5 is core under the conftest rule (its extra is in the test extra): missing, the
    tests fail instead of skipping."""
    return require_backend("cvc5")


needs_cvc5 = pytest.mark.usefixtures("cvc5_backend")


CVC5_MODELS = ["smt=lia", "smt=bv"]


@needs_cvc5
@pytest.mark.parametrize("encoding", CVC5_MODELS)
@pytest.mark.parametrize("case", list(HAND_MADE))
def test_cvc5_hand_made_verdicts(case: str, encoding: str) -> None:
    puzzle, verdict, expected = HAND_MADE[case]
    cvc5 = get_backend("cvc5", encoding=encoding)
    assert prove_unique(puzzle, backend=cvc5).verdict is verdict
    if expected is not None and expected <= 12:
        assert _grids(puzzle, cvc5) == _grids(puzzle, "native")


@needs_cvc5
@pytest.mark.parametrize("encoding", CVC5_MODELS)
def test_cvc5_pe424_agrees_with_native(pe424_puzzles, encoding: str) -> None:
    for puzzle in pe424_puzzles[:3]:
        ours = prove_unique(puzzle, backend="cvc5", encoding=encoding)
        native = prove_unique(puzzle, backend="native")
        assert ours.verdict is native.verdict is Verdict.UNIQUE
        assert ours.solutions == native.solutions
        assert {"conflicts", "decisions", "checks"} <= set(ours.result.stats)


@needs_cvc5
def test_cvc5_janko_published(janko_puzzles) -> None:
    puzzle = next(p for p in janko_puzzles if p.id == "282_6x6")
    assert prove_unique(puzzle, backend="cvc5").solutions == [puzzle.meta["solution"]]


@needs_cvc5
def test_cvc5_timeout_gives_unknown(janko_puzzles) -> None:
    biggest = max(janko_puzzles, key=lambda p: len(p.whites))
    assert solve(biggest, backend="cvc5", timeout=0.001).status is Status.UNKNOWN


@needs_cvc5
def test_cvc5_bad_options() -> None:
    with pytest.raises(KakuroError, match="logic must be one of"):
        get_backend("cvc5", logic="QF_BV")
    with pytest.raises(KakuroError, match="logic must be one of QF_BV, ALL"):
        get_backend("cvc5", encoding="smt=bv", logic="QF_LIA")
    with pytest.raises(KakuroError, match="encoding must be one of smt=lia, smt=bv, got 'smt=pb'"):
        get_backend("cvc5", encoding="smt=pb")
    assert get_backend("cvc5", encoding="smt=bv").logic == "QF_BV"
    assert get_backend("cvc5").logic == "QF_LIA"
    assert get_backend("cvc5:encoding=smt=bv,logic=ALL").logic == "ALL"  # the CLI's --config


def test_smt_page_is_behind_kakuro_encodings(tmp_path, monkeypatch) -> None:
    """``kakuro encodings --smt-md`` writes what the SMT report builds, with its defaults."""
    from kakurolab.reports import smt

    calls = []

    def fake(pe424: int, janko: int, timeout: float) -> str:
        calls.append((pe424, janko, timeout))
        return "# SMT encodings\n"

    monkeypatch.setattr(smt, "markdown", fake)
    out = tmp_path / "smt.md"
    assert main(["encodings", "--smt-md", "-o", str(out)]) == 0
    assert out.read_text() == "# SMT encodings\n"
    assert calls == [(smt.PE424_COUNT, smt.JANKO_COUNT, smt.TIMEOUT)]
