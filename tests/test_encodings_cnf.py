"""Every registered CNF encoding gives the native backend's answers, and unit propagation,
decoding and exact counting behave as the encodings promise.

Specs come from ``_cnf_cases.SPECS``: every CNF preset plus a generated list that uses every
part value at least once.  The default run crosses all of them with a small corpus (hand-made
unique / ambiguous / unsatisfiable grids, the two smallest janko puzzles, PE424 puzzle 1); the
slow run crosses them with PE424 1-20 and the 20 smallest janko puzzles, and checks the whole
data sets under the default preset.
"""

from __future__ import annotations

import pytest
from _cnf_cases import HAND_MADE, HAND_MADE_COUNTS, SPECS, hand_made, reference
from _registries import require_module

from kakurolab.encodings import DEFAULT_PRESET, PRESETS, encode
from kakurolab.encodings.cnf import CNFEncoding
from kakurolab.model import LETTERS
from kakurolab.proofs import exact_count, pysat_closure, unit_closure, up_fixed_cells
from kakurolab.uniqueness import count, prove_unique

PE424_ANSWER_1 = "8426039571"
PE424_FIRST_10_SUM = 64414157580


def _smallest(puzzles, n):
    return sorted(puzzles, key=lambda p: (len(p.whites), p.id))[:n]


def _agree(puzzle, spec):
    want, solution = reference(puzzle)
    u = prove_unique(puzzle, backend="pysat", encoding=spec, timeout=120)
    assert str(u.verdict) == want, f"{spec} on {puzzle.id}: {u.verdict}, native says {want}"
    if want == "unique" and solution is not None:
        assert u.solutions[0] == solution, f"{spec} on {puzzle.id}: another grid than native"
    if want == "multiple":
        assert u.solutions[0] != u.solutions[1]
    return u


# -- the default run: every spec on a small corpus -----------------------------------------


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("name", sorted(HAND_MADE))
def test_hand_made(spec, name):
    _agree(hand_made(name), spec)


@pytest.mark.parametrize("spec", SPECS)
def test_small_janko(spec, janko_puzzles):
    for puzzle in _smallest(janko_puzzles, 2):
        _agree(puzzle, spec)


@pytest.mark.parametrize("spec", SPECS)
def test_pe424_puzzle_1(spec, pe424_puzzles):
    u = _agree(pe424_puzzles[0], spec)
    assert u.solutions[0].answer == PE424_ANSWER_1


def test_default_preset_janko_sample(janko_puzzles):
    for puzzle in _smallest(janko_puzzles, 20):
        _agree(puzzle, DEFAULT_PRESET)


def test_default_preset_pe424_first_10(pe424_puzzles):
    total = 0
    for puzzle in pe424_puzzles[:10]:
        total += int(_agree(puzzle, DEFAULT_PRESET).solutions[0].answer)
    assert total == PE424_FIRST_10_SUM


# -- the slow run: the big product and the whole data sets ---------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_pe424_first_20(spec, pe424_puzzles):
    for puzzle in pe424_puzzles[:20]:
        _agree(puzzle, spec)


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_janko_smallest_20(spec, janko_puzzles):
    for puzzle in _smallest(janko_puzzles, 20):
        _agree(puzzle, spec)


WHOLE_SET_PRESETS = [DEFAULT_PRESET, "presolved"]
"""The default preset and the benchmarked fastest one run on the whole data sets."""


@pytest.mark.slow
@pytest.mark.parametrize("preset", WHOLE_SET_PRESETS)
def test_whole_janko(preset, janko_puzzles):
    for puzzle in janko_puzzles:
        _agree(puzzle, preset)


@pytest.mark.slow
@pytest.mark.parametrize("preset", WHOLE_SET_PRESETS)
def test_all_pe424(preset, pe424_puzzles):
    for puzzle in pe424_puzzles:
        _agree(puzzle, preset)


# -- structure of the encoding -------------------------------------------------------------


@pytest.mark.parametrize("spec", ["combo", "naive", "cell=order,sum=table", "compact"])
def test_grid_vars_are_cells_and_letters_only(spec, pe424_puzzles):
    enc = encode(pe424_puzzles[0], spec)
    assert isinstance(enc, CNFEncoding)
    names = {v: k for k, v in enc.pool.obj2id.items()}
    kinds = {names[v][0] for v in enc.grid_vars}
    assert kinds <= {"cell", "ge", "bit", "letter"}
    assert sum(1 for v in enc.grid_vars if names[v][0] == "letter") == len(LETTERS) * 10


@pytest.mark.parametrize("spec", ["combo", "naive", "cell=log,sum=pb:bdd,alldiff=ladder"])
def test_stats_count_the_formula(spec):
    enc = encode(hand_made("unique"), spec)
    stats = enc.stats()
    assert stats["clauses"] == len(enc.clauses)
    assert stats["literals"] == sum(map(len, enc.clauses))
    assert stats["variables"] >= max(abs(lit) for c in enc.clauses for lit in c)
    assert enc.encode_time > 0


@pytest.mark.parametrize(
    "spec",
    [
        "cell=direct,sum=combo,alldiff=pairwise,amo=pairwise,redundant=domain",
        "sum=mdd,amo=pairwise,redundant=combo",
    ],
)
def test_parts_return_clauses_and_never_append(spec, pe424_puzzles):
    """Every part is a function of the pool that returns its clauses: asked again on a built
    formula (direct cells: no literal left to define; pairwise at-most-one: no fresh
    auxiliaries), each returns clauses the formula already holds, and the formula does not
    grow."""
    from kakurolab.encodings.cnf import redundant_part
    from kakurolab.encodings.cnf.alldiff import encode_alldiff
    from kakurolab.encodings.cnf.letters import encode_letters, run_targets
    from kakurolab.encodings.cnf.sums import SUMS

    puzzle = pe424_puzzles[0]  # cryptic: letters and guarded sums too
    enc = encode(puzzle, spec)
    assert isinstance(enc, CNFEncoding)
    formula = {tuple(clause) for clause in enc.clauses}
    size = len(enc.clauses)
    returned = encode_letters(enc, puzzle)
    redundant = redundant_part(enc.spec)
    for index, run in enumerate(puzzle.runs):
        targets, clauses = run_targets(enc, index, run)
        returned += clauses
        returned += SUMS[enc.spec.name("sum")].build(enc, index, run, targets, enc.spec.arg("sum"))
        returned += encode_alldiff(enc, run, enc.spec["alldiff"])
        if redundant is not None:
            returned += redundant(enc, index, run, targets, None)
    assert len(enc.clauses) == size
    assert returned and {tuple(clause) for clause in returned} <= formula
    assert len({tuple(c) for c in returned}) > len(formula) // 2  # most of it, not a corner


def test_table_falls_back_to_combo_with_a_message(pe424_puzzles):
    enc = encode(pe424_puzzles[0], "table")
    assert enc.notes and "used combo" in enc.notes[0]


# -- unit propagation ----------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["naive", "combo", "table", "strong", "compact", "order"])
def test_unit_closure_matches_pysat(spec, janko_puzzles, pe424_puzzles):
    for puzzle in [*_smallest(janko_puzzles, 2), pe424_puzzles[0]]:
        enc = encode(puzzle, spec)
        assert unit_closure(enc.clauses) == pysat_closure(enc.clauses)


def _named_closure(enc: CNFEncoding, assume: list[tuple[int, tuple]]) -> set | None:
    """The UP closure under assumed named literals, as (name, value) pairs of the grid and
    sum variables (auxiliaries are numbered differently between encodings)."""
    ids = enc.pool.obj2id
    closure = unit_closure([*enc.clauses, *([sign * ids[key]] for sign, key in assume)])
    if closure is None:
        return None
    names = {v: k for k, v in ids.items() if k[0] in ("cell", "letter", "sum")}
    return {(names[abs(lit)], lit > 0) for lit in closure if abs(lit) in names}


def test_split_ties_propagate_as_much_as_pairs(pe424_puzzles):
    """``ties=split`` replaces ~90 pair clauses per two-letter clue by ~19: with any letter
    digit assumed true or false (and with nothing assumed), unit propagation derives at least
    what it derives from ``ties=pairs`` (a conflict included), from far fewer clauses."""
    spec = "sum=combo:lean,alldiff=pairwise,guards=own,ties="
    stronger = 0
    for puzzle in pe424_puzzles[:3]:
        split, pairs = encode(puzzle, spec + "split"), encode(puzzle, spec + "pairs")
        assert isinstance(split, CNFEncoding) and isinstance(pairs, CNFEncoding)
        assert len(split.clauses) < 0.95 * len(pairs.clauses)
        trials = [[]] + [[(sign, ("letter", ch, d))] for ch in "ABJ" for d in range(10)
                         for sign in (1, -1)]  # fmt: skip
        for assume in trials:
            weak, strong = _named_closure(pairs, assume), _named_closure(split, assume)
            if weak is None:
                assert strong is None, (puzzle.id, assume)
            elif strong is not None:
                assert strong >= weak, (puzzle.id, assume, weak - strong)
            if weak is not None:
                stronger += strong is None or strong > weak
    assert stronger  # the split ties do derive more in places (X = a with no sum left)


def test_letter_literal_guards_propagate_alike(pe424_puzzles):
    """``guards=literal`` selects a sum that is one letter's digit by that letter literal
    instead of a guard variable tied to it: fewer clauses, and unit propagation derives the
    same about cells and letters with any letter digit assumed true or false."""
    spec = "sum=combo:lean,alldiff=pairwise,sets=select,guards="
    for puzzle in pe424_puzzles[:2]:
        literal, own = encode(puzzle, spec + "literal"), encode(puzzle, spec + "own")
        assert isinstance(literal, CNFEncoding) and isinstance(own, CNFEncoding)
        assert len(literal.clauses) < len(own.clauses) - 100
        trials = [[]] + [[(sign, ("letter", ch, d))] for ch in "ABEJ" for d in range(10)
                         for sign in (1, -1)]  # fmt: skip
        for assume in trials:
            got = [_named_closure(enc, assume) for enc in (literal, own)]
            if got[1] is None:
                assert got[0] is None, (puzzle.id, assume)
                continue
            assert got[0] is not None, (puzzle.id, assume)
            grid = [{(k, v) for k, v in found if k[0] != "sum"} for found in got]
            assert grid[0] == grid[1], (puzzle.id, assume, grid[0] ^ grid[1])


def test_exclusion_sets_are_smaller_and_agree(pe424_puzzles):
    """``sets=exclude`` (the default) writes wide cryptic runs as one clause per digit set, no
    selectors: a third fewer clauses than ``sets=select`` on PE424, the same unique grid."""
    spec = "sum=combo:lean,alldiff=pairwise,sets="
    for puzzle in pe424_puzzles[:5]:
        exclude, select = encode(puzzle, spec + "exclude"), encode(puzzle, spec + "select")
        assert isinstance(exclude, CNFEncoding) and isinstance(select, CNFEncoding)
        assert len(exclude.clauses) < 0.8 * len(select.clauses), puzzle.id
        selectors = [
            sum(key[0] == "combo" for key in enc.pool.obj2id) for enc in (exclude, select)
        ]
        assert selectors[0] < 0.5 * selectors[1], (puzzle.id, selectors)
        got = [prove_unique(puzzle, backend="pysat", encoding=spec + s)
               for s in ("exclude", "select")]  # fmt: skip
        assert got[0].verdict == got[1].verdict and got[0].solutions == got[1].solutions


def test_exclusion_sets_need_the_alldiff(pe424_puzzles):
    """Exclusion clauses only fire once a run shows as many digits as it has cells, which
    takes the explicit all-different: without one (``alldiff=none``) the selectors stay."""
    puzzle = pe424_puzzles[0]
    texts = {encode(puzzle, f"sum=combo:lean,sets={s}").to_text() for s in ("exclude", "select")}
    assert len(texts) == 2  # the spec comment differs; the clauses do not
    exclude, select = (encode(puzzle, f"sum=combo:lean,sets={s}") for s in ("exclude", "select"))
    assert exclude.clauses == select.clauses


def test_unit_closure_detects_conflicts():
    assert unit_closure([[1], [-1, 2], [-2]]) is None
    assert unit_closure([[1, 2], [-1, 2]]) == set()
    assert unit_closure([[1], [-1, 2], [-2, 3, 4], [-4]]) == {1, 2, 3, -4}


def test_propagation_strength_ordering(janko_puzzles):
    """Decomposed pb + alldiff fixes least, combo more, table and mdd (GAC per run) the most;
    table falls back to combo on runs with too many tuples, so mdd is at least as strong."""
    fixed = {spec: 0 for spec in ("naive", "combo", "table", "strong")}
    for puzzle in _smallest(janko_puzzles, 10):
        for spec in fixed:
            fixed[spec] += up_fixed_cells(puzzle, spec)[0]
    assert fixed["naive"] <= fixed["combo"] < fixed["table"] <= fixed["strong"]


def test_up_on_unsat_root_conflict():
    fixed, total = up_fixed_cells(hand_made("unsat"), "table")
    assert fixed == total == 4


# -- exact counting ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec", ["combo", "naive", "table", "strong", "cell=log,sum=pb:adder", "presolved"]
)
@pytest.mark.parametrize("name", sorted(HAND_MADE))
def test_exact_count_hand_made(spec, name):
    require_module("pyganak")
    assert exact_count(hand_made(name), spec) == HAND_MADE_COUNTS[name]


def test_exact_count_matches_blocking_count():
    require_module("pyganak")
    for name in HAND_MADE:
        result = count(hand_made(name), None, backend="pysat", encoding="table")
        assert result.complete and result.n_solutions == exact_count(hand_made(name))


def test_exact_count_real_puzzles(janko_puzzles, pe424_puzzles):
    require_module("pyganak")
    assert exact_count(pe424_puzzles[0]) == 1
    assert exact_count(_smallest(janko_puzzles, 1)[0], "strong") == 1


def test_exact_count_refuses_lazy():
    from kakurolab.errors import KakuroError

    with pytest.raises(KakuroError, match="lazy"):
        exact_count(hand_made("unique"), "lazy")


def test_presets_are_documented():
    for preset in PRESETS.values():
        assert preset.doc and preset.spec


# -- CLI modes: solve --up-only, count --exact ---------------------------------------------


def _kakuro_file(tmp_path, name):
    path = tmp_path / f"{name}.kakuro"
    path.write_text(HAND_MADE[name])
    return str(path)


def test_solve_up_only(tmp_path, capsys):
    import json

    from kakurolab.cli import main

    path = _kakuro_file(tmp_path, "unique")
    assert main(["solve", path, "--up-only", "--encoding", "table", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["fixed_cells"] == obj["white_cells"] == 4 and obj["solved_by_up"]
    assert obj["status"] == "sat"
    assert main(["solve", path, "--up-only", "--encoding", "naive"]) == 0
    assert "fixes 0/4 cells" in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(HAND_MADE))
def test_count_exact(name, tmp_path, capsys):
    import json

    from kakurolab.cli import main

    require_module("pyganak")
    code = main(["count", _kakuro_file(tmp_path, name), "--exact", "--json"])
    assert code == (HAND_MADE_COUNTS[name] == 0)  # unsat exits 1, as on every command
    obj = json.loads(capsys.readouterr().out)
    assert obj["n_solutions"] == HAND_MADE_COUNTS[name] and obj["complete"]
    assert obj["verdict"] == {0: "unsat", 1: "unique"}.get(obj["n_solutions"], "multiple")


def test_cnf_modes_refuse_smt(tmp_path, capsys):
    from kakurolab.cli import main
    from kakurolab.encodings import ENCODERS

    smt = sorted(ENCODERS["smt"])[0]  # SMT encodings are core: an empty registry fails here
    path = _kakuro_file(tmp_path, "unique")
    assert main(["count", path, "--exact", "--encoding", f"smt={smt}"]) == 2
    assert "needs a CNF encoding" in capsys.readouterr().err


def test_encodings_table_markdown(janko_path):
    from kakurolab.reports.encodings import markdown

    text = markdown(janko_path, specs=["fast", "naive", "strong"], limit=2)
    assert "| fast |" in text and "| naive |" in text
    strong = next(line for line in text.splitlines() if line.startswith("| strong |"))
    assert "(100.0%)" in strong  # mdd solves these by propagation alone
    assert "## What the numbers mean" in text


def test_encodings_listing_json(capsys):
    import json

    from kakurolab.cli import main

    assert main(["encodings", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {p["name"] for p in data["presets"]} >= {"naive", "compact", "strong", "fast"}
    assert set(data["parts"]) >= {"cell", "amo", "sum", "alldiff", "redundant", "smt"}
    assert "bdd" in data["parts"]["sum"]["pb"]["args"]


# -- presolve short-cuts -------------------------------------------------------------------


def _runs_given_sums(puzzle, spec) -> set[int]:
    """The indices of the runs whose sum constraint the encoder builds (a spy on SUMS)."""
    import dataclasses

    from kakurolab.encodings import parse_spec
    from kakurolab.encodings.cnf import sums

    name = parse_spec(spec).name("sum")
    record = sums.SUMS[name]
    seen: set[int] = set()

    def spy(enc, index, run, targets, arg):
        seen.add(index)
        return record.build(enc, index, run, targets, arg)

    sums.SUMS[name] = dataclasses.replace(record, build=spy)
    try:
        encode(puzzle, spec)
    finally:
        sums.SUMS[name] = record
    return seen


def _hard_member(family: str, index: int):
    from kakurolab.formats import load

    return load(f"data/hard/{family}.txt")[index]


def test_presolve_refuted_formula_is_the_empty_clause_alone():
    """An unsat near-miss is refuted by root propagation: nothing else is built, and the
    verdict agrees with CP-SAT on the full model."""
    puzzle = _hard_member("unsat", 0)
    enc = encode(puzzle, "presolved")
    assert enc.stats()["clauses"] == 1 and enc.clauses == [[]]
    assert str(prove_unique(puzzle, backend="pysat", encoding="presolved").verdict) == "unsat"
    assert str(prove_unique(puzzle, backend="cpsat").verdict) == "unsat"


@pytest.mark.parametrize(("family", "index"), [("cryptic", 2), ("large-unique", 0)])
def test_presolve_settled_or_open(family, index):
    """A puzzle root propagation settles becomes units alone (one per cell; its letters are
    constants, or ten units each with ``letters=all``); one it leaves open gets the full
    formula.  Either way the grid is the one CP-SAT proves unique."""
    from kakurolab.propagation import root_state

    puzzle = _hard_member(family, index)
    state = root_state(puzzle)
    assert state is not None
    settled = not any(m & (m - 1) for m in [*state.cells.values(), *state.letters.values()])
    enc = encode(puzzle, "presolved")
    stats = enc.stats()
    units = stats["clauses"] == stats["literals"]
    assert units == settled
    if settled:
        assert stats["clauses"] == stats["variables"] == len(puzzle.whites)
        every = encode(puzzle, PRESETS["presolved"].spec + ",letters=all").stats()
        assert every["clauses"] == len(puzzle.whites) + (100 if puzzle.is_cryptic else 0)
    else:  # runs the presolve filled in get no sum constraint, the others do
        filled = {
            i
            for i, run in enumerate(puzzle.runs)
            if not any(state.cells[c] & (state.cells[c] - 1) for c in run.cells)
        }
        built = _runs_given_sums(puzzle, "presolved")
        assert filled and built == set(range(len(puzzle.runs))) - filled
    ours = prove_unique(puzzle, backend="pysat", encoding="presolved")
    theirs = prove_unique(puzzle, backend="cpsat")
    assert str(ours.verdict) == str(theirs.verdict) == "unique"
    assert ours.solutions[0] == theirs.solutions[0]


CRYPTIC_MEMBERS = range(6)
"""The members of ``data/hard/cryptic.txt`` (10x10 to 20x20; two left open by the presolve)."""

PRESOLVED_ALL_LETTERS = PRESETS["presolved"].spec + ",letters=all"


def test_presolved_cryptic_letters_are_live_only():
    """``letters=live``: a letter the presolve decided has no variable at all, an undecided
    one a variable for each digit the presolve left it and none other; ``letters=all`` keeps
    all 100."""
    from kakurolab.propagation import root_state

    puzzle = _hard_member("cryptic", 1)  # left open by the presolve, some letters decided
    state = root_state(puzzle)
    assert state is not None
    decided = {ch for ch, mask in state.letters.items() if not mask & (mask - 1)}
    assert decided and len(decided) < len(LETTERS)
    enc = encode(puzzle, "presolved")
    assert isinstance(enc, CNFEncoding)
    made = {(k[1], k[2]) for k in enc.pool.obj2id if k[0] == "letter"}
    live = {
        (ch, d)
        for ch, mask in state.letters.items()
        if ch not in decided
        for d in range(10)
        if mask >> d & 1
    }
    assert made == live
    every = encode(puzzle, PRESOLVED_ALL_LETTERS)
    assert isinstance(every, CNFEncoding)
    assert sum(k[0] == "letter" for k in every.pool.obj2id) == 100


@pytest.mark.parametrize("index", CRYPTIC_MEMBERS)
def test_presolved_cryptic_formula_is_smaller_with_live_letters(index):
    """On every cryptic member the live-letter formula has fewer variables and clauses than
    the one with all 100 letter variables."""
    puzzle = _hard_member("cryptic", index)
    live = encode(puzzle, "presolved").stats()
    every = encode(puzzle, PRESOLVED_ALL_LETTERS).stats()
    assert live["variables"] < every["variables"]
    assert live["clauses"] < every["clauses"]


@pytest.mark.parametrize(
    "spec",
    [PRESETS["presolved"].spec, PRESOLVED_ALL_LETTERS, PRESETS["probed"].spec],
    ids=["presolved", "presolved-all-letters", "probed"],
)
@pytest.mark.parametrize("index", CRYPTIC_MEMBERS)
def test_presolved_cryptic_answers_agree(index, spec, tmp_path):
    """The presolved formula (either letter model, root propagation or letter probing)
    proves every cryptic member unique with the grid and letters native and CP-SAT find, and
    a certificate of it verifies (its blocking clause names only the letters that have
    variables)."""
    from kakurolab.proofs import certify, verify_certificate, write_certificate

    puzzle = _hard_member("cryptic", index)
    ours = prove_unique(puzzle, backend="pysat", encoding=spec)
    for other in ("native", "cpsat"):
        theirs = prove_unique(puzzle, backend=other)
        assert str(ours.verdict) == str(theirs.verdict) == "unique"
        assert ours.solutions[0] == theirs.solutions[0]
    cert = certify(puzzle, encoding=spec)
    assert str(cert.verdict) == "unique"
    report = verify_certificate(write_certificate(cert, tmp_path / "cert"))
    assert report.ok, report.reason


def test_probing_settles_the_open_cryptic_member_root_propagation_leaves():
    """``pre=probe``: a cryptic member root propagation leaves open (with generator 3.2's
    members: 10x10 and 16x16, 48 of 49 and 142 of 157 cells open) is settled by probing its
    letters, so its formula is its cell units alone, while ``pre=root`` writes the whole
    formula; the units spell the grid native finds."""
    from kakurolab.formats import load
    from kakurolab.propagation import probed_state, root_state

    def open_cells(state) -> int:
        return sum(1 for mask in state.cells.values() if mask & (mask - 1))

    members = load("data/hard/cryptic.txt")
    settled = [
        p for p in members if open_cells(root_state(p)) and not open_cells(probed_state(p))
    ]
    assert settled, "no cryptic member is open at the root and settled by probing"
    puzzle = settled[0]
    root = encode(puzzle, "presolved").stats()
    assert root["clauses"] > root["literals"] / 3  # runs and bijection: not units alone
    probed = encode(puzzle, "probed")
    assert isinstance(probed, CNFEncoding)
    stats = probed.stats()
    assert stats["clauses"] == stats["literals"] == stats["variables"] == len(puzzle.whites)
    solution = prove_unique(puzzle, backend="native").solutions[0]
    units = {clause[0] for clause in probed.clauses}
    assert set(probed.solution_lits(solution)) == units
    assert probed.letter_lits(solution.letters) == []  # every letter decided: constants
