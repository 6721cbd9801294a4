"""Mutation fuzzing of every registered format through the loader and the CLI.

Seeds are real puzzles (data/, the bundled samples, generated sets) written in every format
that can hold them; each input takes one to three seeded mutations (bit flips, digit
inflation, lost or doubled lines and tokens, Unicode digits, deep JSON nesting, huge sizes,
changed JSON leaves).  Every input goes through ``formats.loads`` and one command run
in-process through ``cli.main``.  The contract: the loader raises only ``KakuroError``; a
command exits 0, 1 or 2 and never raises; and every grid ``solve``/``unique`` print breaks no
rule (``rulebook.solution_problems``, an independent checker).  A failure names the input's
index, so ``fuzz_case(index)`` rebuilds it exactly.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import traceback
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from unittest import mock

import pytest

from kakurolab import cli, datasets
from kakurolab.errors import KakuroError
from kakurolab.formats import FORMATS, dumps, load, loads, loads_report
from kakurolab.model import LETTERS, Puzzle, Solution
from kakurolab.rulebook import solution_problems, structure_problems

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "kakurolab" / "data" / "samples"
GENERATED = ROOT / "kakurolab" / "data" / "generated"

DEFAULT_INPUTS = 1_500
SLOW_INPUTS = int(os.environ.get("KAKURO_FUZZ_INPUTS", "30000"))

UNICODE_DIGITS = "²³¹٣۴߁३০੫૬୭௮౯೦൧๒໓༤၅႖០᠑１９𝟗"
JUNK = '#.\\,-0123456789()XOhvABJ{}[]":; \t\n\r' + UNICODE_DIGITS + "éß\x00\x7f"


# ---------------------------------------------------------------- seeds


def _small(path: Path, count: int, max_cells: int = 200, valid: bool = True) -> list[Puzzle]:
    """The first ``count`` (valid) puzzles of at most ``max_cells`` cells in a file: quick to
    solve, so the budget goes into many inputs rather than a few large ones."""
    found = []
    for puzzle in load(path, check=False):
        if puzzle.nrows * puzzle.ncols <= max_cells and (
            not valid or not structure_problems(puzzle)
        ):
            found.append(puzzle)
            if len(found) == count:
                break
    return found


@cache
def seed_puzzles() -> tuple[tuple[Puzzle, ...], ...]:
    """Groups of real puzzles; each group becomes one seed file per format that holds it."""
    groups = [
        load(ROOT / "tests" / "data" / "tiny.kakuro"),
        load(SAMPLES / "standard.kakuro"),
        load(SAMPLES / "cryptic.kakuro")[:2],
        _small(datasets.PE424, 3),
        _small(datasets.JANKO_DEV, 3),
        _small(datasets.JANKO_ODDITIES, 2, valid=False),  # publisher quirks: short runs
        _small(datasets.JANKO_BEYOND_RUNS, 2, valid=False),
        _small(GENERATED / "standard-8x8-normal.kakuro", 2),
        _small(GENERATED / "cryptic-6x6.txt", 1),
    ]
    singles = [[p] for group in groups[:5] for p in group[:1]]
    return tuple(tuple(group) for group in groups + singles if group)


@cache
def seeds(large: bool = False) -> tuple[tuple[str, str], ...]:
    """(format name, text) for every registered format and every seed group it can write,
    plus the shipped files themselves (cut to a few puzzles where they are long); ``large``
    adds the 101x31 stress grid (seconds per solve: the slow variant only)."""
    found: list[tuple[str, str]] = []
    if large:
        found.append(("puzzlekit", datasets.STRESS_LOOSE.read_text()))
    for name, fmt in FORMATS.items():
        for group in seed_puzzles():
            if any(fmt.cannot_write(p) for p in group):
                continue
            found.append((name, dumps(list(group), name)))
    pe424_lines = datasets.PE424.read_text().splitlines()[:4]
    found.append(("pe424", "\n".join(pe424_lines) + "\n"))
    for path in (SAMPLES / "cryptic.txt", ROOT / "tests" / "data" / "tiny_pycsp3.json"):
        found.append(("file", path.read_text()))
    found.append(("file", (ROOT / "tests" / "data" / "tiny_puzzlekit.txt").read_text()))
    assert {name for name, _ in found} >= set(FORMATS), "a registered format has no seed"
    return tuple(found)


# ---------------------------------------------------------------- mutations

Mutation = Callable[[str, random.Random], str]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def flip_char(text: str, rng: random.Random) -> str:
    if not text:
        return rng.choice(JUNK)
    i = rng.randrange(len(text))
    return text[:i] + rng.choice(JUNK) + text[i + 1 :]


def insert_char(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(JUNK) * rng.choice((1, 1, 2, 50)) + text[i:]


def delete_span(text: str, rng: random.Random) -> str:
    if not text:
        return text
    i = rng.randrange(len(text))
    return text[:i] + text[i + rng.randint(1, 8) :]


def inflate_number(text: str, rng: random.Random) -> str:
    numbers = list(re.finditer(r"[0-9]+", text))
    if not numbers:
        return insert_char(text, rng)
    m = rng.choice(numbers)
    big = rng.choice(("9" * 5000, "9" * 19, "1" + "0" * 18, "0" * 40 + "7", "99", "0", "46"))
    return text[: m.start()] + big + text[m.end() :]


def tweak_number(text: str, rng: random.Random) -> str:
    """A small number (a clue, mostly) moved by one or redrawn: the input stays well-formed,
    so the solvers see a valid puzzle that may have no, one or many solutions."""
    numbers = list(re.finditer(r"(?<![0-9])[0-9]{1,2}(?![0-9])", text))
    if not numbers:
        return text
    m = rng.choice(numbers)
    value = int(m.group())
    new = rng.choice((value + 1, max(value - 1, 1), rng.randint(1, 45)))
    return text[: m.start()] + str(new) + text[m.end() :]


def huge_size(text: str, rng: random.Random) -> str:
    """The first number (a header's size in most formats) made huge, zero or negative."""
    m = re.search(r"[0-9]+", text)
    if m is None:
        return text
    size = rng.choice(("1000", "201", "100000000", "0", "-3", "99999999999999999"))
    return text[: m.start()] + size + text[m.end() :]


def unicode_digit(text: str, rng: random.Random) -> str:
    digits = [i for i, ch in enumerate(text) if ch in "0123456789"]
    if not digits:
        return insert_char(text, rng)
    i = rng.choice(digits)
    return text[:i] + rng.choice(UNICODE_DIGITS) + text[i + 1 :]


def delete_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def duplicate_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return "\n".join(lines)


def swap_lines(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _token_spans(text: str) -> list[re.Match[str]]:
    return list(re.finditer(r"[^\s,]+", text))


def delete_token(text: str, rng: random.Random) -> str:
    tokens = _token_spans(text)
    if not tokens:
        return text
    m = rng.choice(tokens)
    return text[: m.start()] + text[m.end() :]


def duplicate_token(text: str, rng: random.Random) -> str:
    tokens = _token_spans(text)
    if not tokens:
        return text
    m = rng.choice(tokens)
    sep = text[m.end()] if m.end() < len(text) and text[m.end()] in ", " else " "
    return text[: m.end()] + sep + m.group() + text[m.end() :]


def swap_tokens(text: str, rng: random.Random) -> str:
    tokens = _token_spans(text)
    if len(tokens) < 2:
        return text
    a, b = sorted(rng.sample(tokens, 2), key=lambda m: m.start())
    return text[: a.start()] + b.group() + text[a.end() : b.start()] + a.group() + text[b.end() :]


def deep_nesting(text: str, rng: random.Random) -> str:
    """A JSON value replaced by (or the whole text wrapped in) deeply nested brackets."""
    depth = rng.choice((30, 900, 5000, 200_000))
    opener = rng.choice(("[", '{"a":'))
    closer = "]" if opener == "[" else "}"
    if rng.random() < 0.3:
        return opener * depth + text + closer * depth
    values = list(re.finditer(r"-?[0-9]+|\"[^\"]*\"", text))
    if not values:
        return opener * depth + "1" + closer * depth
    m = rng.choice(values)
    return text[: m.start()] + opener * depth + m.group() + closer * depth + text[m.end() :]


_LEAVES: tuple[object, ...] = (
    -1,
    0,
    1,
    46,
    10**18,
    -(10**18),
    1.5,
    float("inf"),
    True,
    None,
    "",
    "x",
    "²",
    [],
    {},
    [[{"x": 0, "y": 0}]],
)


def json_leaf(text: str, rng: random.Random) -> str:
    """A random scalar, list or key of a JSON document replaced by a value of another type."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return flip_char(text, rng)
    slots: list[tuple[object, object]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key in list(node):
                slots.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for i, item in enumerate(node):
                slots.append((node, i))
                walk(item)

    walk(data)
    if not slots:
        return flip_char(text, rng)
    parent, key = rng.choice(slots)
    roll = rng.random()
    if roll < 0.15 and isinstance(parent, dict):
        del parent[key]
    elif roll < 0.25 and isinstance(parent, list):
        parent.insert(key, parent[key])  # type: ignore[call-overload]
    else:
        parent[key] = rng.choice(_LEAVES)  # type: ignore[index]
    return json.dumps(data)


MUTATIONS: tuple[Mutation, ...] = (
    tweak_number,
    flip_char,
    insert_char,
    delete_span,
    inflate_number,
    huge_size,
    unicode_digit,
    delete_line,
    duplicate_line,
    swap_lines,
    delete_token,
    duplicate_token,
    swap_tokens,
)
JSON_MUTATIONS: tuple[Mutation, ...] = (deep_nesting, json_leaf, json_leaf)


@dataclass
class Case:
    """One fuzz input: its bytes, how it was made and which command runs it."""

    index: int
    seed: str
    data: bytes
    steps: list[str] = field(default_factory=list)
    argv: list[str] = field(default_factory=list)

    def describe(self) -> str:
        return f"case {self.index} ({' + '.join(self.steps)}; kakuro {' '.join(self.argv)})"


COMMANDS: tuple[tuple[str, ...], ...] = (
    ("info",),
    ("check",),
    ("solve", "--backend", "native", "--timeout", "2", "--json"),
    ("unique", "--backend", "native", "--timeout", "2", "--json"),
    ("show", "--solution"),
    ("convert", "--to", "kakuro"),
    ("convert", "--to", "puzzlekit"),
    ("convert", "--to", "pe424"),
    ("convert", "--to", "pycsp3"),
)


def fuzz_case(index: int, large: bool = False) -> Case:
    """The input number ``index``: the same bytes and command on every run."""
    rng = random.Random(f"kakurolab-fuzz:{index}")
    name, text = rng.choice(seeds(large))
    case = Case(index, text, b"", [f"seed {name}"])
    is_json = text.lstrip().startswith(("{", "["))
    gentle = rng.random() < 0.3
    for _ in range(rng.choice((1, 1, 2, 3))):
        pool = MUTATIONS + JSON_MUTATIONS if is_json else MUTATIONS
        if gentle:
            pool = (tweak_number, swap_tokens)
        mutation = rng.choice(pool)
        text = mutation(text, rng)
        case.steps.append(mutation.__name__)
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.05:  # a raw bit flip can break the UTF-8 itself
        i = rng.randrange(len(data)) if data else 0
        data = (
            data[:i] + bytes([(data[i] if data else 0) ^ (1 << rng.randrange(8))]) + data[i + 1 :]
        )
        case.steps.append("bit_flip")
    case.data = data
    command = COMMANDS[index % len(COMMANDS)]
    case.argv = [command[0], "INPUT", *command[1:]]
    return case


# ---------------------------------------------------------------- running


@dataclass
class Outcome:
    code: int
    stdout: str
    stderr: str
    crash: str | None = None  # the traceback of an exception main() let through


_BUILD_PARSER = cli.build_parser


@cache
def _full_parser() -> argparse.ArgumentParser:
    return _BUILD_PARSER()


def _parser(full: object = None) -> argparse.ArgumentParser:
    """One full parser for every call (``cli.main`` asks for the chosen command only)."""
    return _full_parser()


def _one_line_errors(stderr: str) -> bool:
    """Exit 2's stderr: one ``kakuro: error:`` line per bad puzzle (a collection reports each
    invalid puzzle and goes on), at most one summary line, nothing else."""
    lines = stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith("kakuro: error: ")]
    return bool(errors) and len(lines) - len(errors) <= 1


def run_cli(argv: list[str], *, fresh: bool = False) -> Outcome:
    """``kakuro ARGV`` in-process through ``cli.main``, with stdout and stderr captured.

    Building the parser imports and registers every command (tens of milliseconds), so
    unless ``fresh`` one parser serves every call: argparse parsers are reusable.
    """
    out, err = io.StringIO(), io.StringIO()
    crash = None
    build = _BUILD_PARSER if fresh else _parser
    with redirect_stdout(out), redirect_stderr(err), mock.patch.object(cli, "build_parser", build):
        try:
            code = cli.main(argv)
        except SystemExit as exc:  # argparse usage errors
            code = exc.code if isinstance(exc.code, int) else 2
        except Exception:  # the contract under test: nothing but KakuroError reaches here
            code, crash = -1, traceback.format_exc()
    return Outcome(code, out.getvalue(), err.getvalue(), crash)


def printed_grid_problems(text: str, stdout: str, tally: Tally) -> list[str]:
    """Rule breaks in the grids a ``--json`` solve/unique printed, checked independently."""
    found: list[str] = []
    if '"solution"' not in stdout:
        return found
    try:  # a collection runs its valid puzzles beside the invalid ones
        by_id = {p.id: p for p in loads_report(text).puzzles}
    except KakuroError:
        return ["a command printed solutions for a text the loader refuses"]
    for line in stdout.splitlines():
        if not line.startswith("{"):
            continue
        row = json.loads(line)
        if "solution" not in row or not row["solution"]:
            continue
        puzzle = by_id.get(row["id"])
        if puzzle is None:
            found.append(f"puzzle {row['id']}: a solution printed for a puzzle the loader refuses")
            continue
        values = {
            (r, c): int(ch)
            for r, cells in enumerate(row["solution"])
            for c, ch in enumerate(cells)
            if ch in "0123456789"
        }
        answer = row.get("answer") or ""
        letters = {ch: int(d) for ch, d in zip(LETTERS, answer, strict=False)}
        problems = solution_problems(puzzle, Solution(values, letters))
        tally.grids += 1
        if problems:
            found.append(f"puzzle {row['id']}: {problems[:3]}")
    return found


@dataclass
class Tally:
    """What a fuzz run did: inputs, exit codes seen, grids checked, failure reports."""

    inputs: int = 0
    codes: dict[int, int] = field(default_factory=dict)
    grids: int = 0
    failures: list[str] = field(default_factory=list)


def check_case(case: Case, path: Path, tally: Tally) -> list[str]:
    """Every broken promise for one input (empty when it behaves)."""
    broken = []
    try:
        text = case.data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        try:
            loads(text)
        except KakuroError:
            pass
        except Exception:
            broken.append(f"loader raised: {traceback.format_exc(limit=-3)}")
    path.write_bytes(case.data)
    argv = [str(path) if arg == "INPUT" else arg for arg in case.argv]
    outcome = run_cli(argv)
    tally.codes[outcome.code] = tally.codes.get(outcome.code, 0) + 1
    if outcome.crash is not None:
        broken.append(f"traceback: {outcome.crash.strip().splitlines()[-1]}\n{outcome.crash}")
    elif outcome.code not in (0, 1, 2):
        broken.append(f"exit code {outcome.code}")
    elif outcome.code == 2 and not _one_line_errors(outcome.stderr):
        broken.append(f"exit 2 without one-line errors on stderr: {outcome.stderr[:300]!r}")
    if text is not None and outcome.crash is None and case.argv[0] in ("solve", "unique"):
        broken.extend(printed_grid_problems(text, outcome.stdout, tally))
    return broken


def fuzz(indexes: range, tmp_path: Path, large: bool = False) -> Tally:
    """Run the inputs; failing ones are kept in ``tmp_path`` and reported in the tally."""
    tally = Tally()
    for index in indexes:
        case = fuzz_case(index, large)
        broken = check_case(case, tmp_path / f"input{index % 7}", tally)
        tally.inputs += 1
        if broken:
            keep = tmp_path / f"failing-{index}"
            keep.write_bytes(case.data)
            tally.failures.append(f"{case.describe()} [{keep}]:\n  " + "\n  ".join(broken))
    return tally


def _assert_clean(tally: Tally, expected: int) -> None:
    assert tally.inputs == expected
    failures = tally.failures
    assert not failures, f"{len(failures)} of {tally.inputs} inputs failed:\n" + "\n".join(
        failures[:5]
    )
    # Not vacuous: some inputs still load and solve (grids checked), most are refused.
    assert tally.codes.get(0, 0) > expected // 20, tally.codes
    assert tally.codes.get(2, 0) > expected // 4, tally.codes
    assert tally.grids > expected // 50, tally.grids


# ---------------------------------------------------------------- tests


def test_every_format_has_seeds_that_load():
    """The fuzzer starts from valid inputs of every registered format."""
    by_format: dict[str, int] = {}
    for name, text in seeds():
        assert loads(text, check=False), name
        by_format[name] = by_format.get(name, 0) + 1
    assert set(FORMATS) <= set(by_format)


def test_mutations_change_inputs():
    """A fuzzer whose mutations did nothing would pass vacuously; the same index gives the
    same input (a failure's index is its reproducer)."""
    cases = [fuzz_case(i) for i in range(300)]
    assert sum(case.data != case.seed.encode() for case in cases) > 280
    assert all(fuzz_case(i).data == cases[i].data for i in range(0, 300, 37))
    steps = {step for case in cases for step in case.steps}
    assert {m.__name__ for m in MUTATIONS + JSON_MUTATIONS} <= steps


def test_run_cli_reports_a_crash(monkeypatch):
    """The harness sees an exception that escapes main() (else every check would pass)."""
    import kakurolab.commands.info as info

    def boom(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(info, "run", boom)
    outcome = run_cli(["info", str(ROOT / "tests" / "data" / "tiny.kakuro")], fresh=True)
    assert outcome.crash is not None and "RuntimeError: boom" in outcome.crash


def test_fuzz_inputs_never_crash(tmp_path):
    _assert_clean(fuzz(range(DEFAULT_INPUTS), tmp_path), DEFAULT_INPUTS)


@pytest.mark.slow
def test_fuzz_many_inputs_never_crash(tmp_path):
    start = DEFAULT_INPUTS  # different inputs from the default variant
    _assert_clean(fuzz(range(start, start + SLOW_INPUTS), tmp_path, large=True), SLOW_INPUTS)


# ---------------------------------------------------------------- Hypothesis (issue 49)
#
# Property-based fuzzing in the default run, a few seconds per target: every format reader
# and ``kakuro verify`` get arbitrary bytes and mutated valid inputs, and the result is a
# verdict or one ``kakuro: error:`` line, never a traceback.  The inputs that found the bugs
# of issue 49 are its examples.

from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FUZZ_SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,  # the same inputs on every run: a failure reproduces
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    """``seed`` with a few byte edits: replace, insert, delete or duplicate a slice."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["replace", "insert", "delete", "repeat"]))
        chunk = draw(st.binary(min_size=1, max_size=8))
        if kind == "replace":
            data[at : at + len(chunk)] = chunk
        elif kind == "insert":
            data[at:at] = chunk
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 16))]
        else:
            data[at:at] = data[at : at + draw(st.integers(1, 64))] * draw(st.integers(2, 50))
    return bytes(data)


def _seed_of(name: str) -> bytes:
    return next(text for fmt, text in seeds() if fmt == name).encode()


def _one_line_or_verdict(outcome: Outcome) -> None:
    assert outcome.crash is None, outcome.crash
    assert outcome.code in (0, 1, 2), (outcome.code, outcome.stderr)
    assert "Traceback" not in outcome.stderr
    if outcome.code == 2:
        errors = [line for line in outcome.stderr.splitlines() if line.startswith("kakuro: error:")]
        assert len(errors) == 1, outcome.stderr


def _read_through_loader(data: bytes, name: str) -> None:
    """The reader's contract on any bytes: puzzles, or a KakuroError (a one-line message)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return  # files are decoded by fileio, which refuses in one line (the CLI target)
    try:
        loads_report(text, format=name)
    except KakuroError as exc:
        assert "\n" not in str(exc).strip(), str(exc)


@pytest.mark.parametrize("name", sorted(FORMATS))
@FUZZ_SETTINGS
@given(data=st.data())
def test_hypothesis_every_reader_on_arbitrary_and_mutated_bytes(name: str, data) -> None:
    raw = data.draw(
        st.one_of(st.binary(max_size=400), mutated(_seed_of(name))), label="input"
    )
    _read_through_loader(raw, name)


@settings(FUZZ_SETTINGS, max_examples=20)  # each example runs a command in-process
@given(
    raw=st.one_of(
        st.binary(max_size=300),
        st.sampled_from([text.encode() for _, text in seeds()]).flatmap(mutated),
    )
)
@example(raw=b'{"name": "Kakuro", "count": NaN, "data": {}}')
@example(raw=b'{"name": "Kakuro", "count": 1e999, "data": {}}')
@example(raw=b"[" * 100_000)
@example(raw=b"\xff\xfe\x00binary")
def test_hypothesis_the_cli_reads_any_file_in_one_line(tmp_path_factory, raw: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "input.txt"
    path.write_bytes(raw)
    _one_line_or_verdict(run_cli(["info", str(path)]))


@cache
def _good_certificate() -> Path:
    """One small certificate with every file (solution, formula, proof, steps)."""
    import tempfile

    from _cnf_cases import hand_made

    from kakurolab.proofs import certify, write_certificate

    directory = Path(tempfile.mkdtemp(prefix="kakuro-fuzz-cert-"))
    return write_certificate(certify(hand_made("unique")), directory / "cert")


CERT_FILES = ["manifest.json", "solution.json", "steps.json", "puzzle.txt", "formula.cnf",
              "proof.drat"]  # fmt: skip


def _rehashed(directory: Path, name: str) -> None:
    import hashlib

    manifest = json.loads((directory / "manifest.json").read_text())
    data = (directory / name).read_bytes()
    manifest["files"][name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    (directory / "manifest.json").write_text(json.dumps(manifest))


@settings(FUZZ_SETTINGS, max_examples=30)
@given(
    name=st.sampled_from(CERT_FILES),
    rehash=st.booleans(),
    data=st.data(),
)
@example(name="manifest.json", rehash=False, data=None)
def test_hypothesis_verify_on_arbitrary_and_mutated_certificates(
    tmp_path_factory, name: str, rehash: bool, data
) -> None:
    """One file of a good certificate replaced by arbitrary bytes or a mutation of itself,
    the manifest's hash updated (as a forger would) or not: a verdict, never a crash."""
    import shutil

    pytest.importorskip("dratify")
    pytest.importorskip("msgspec")
    from kakurolab.proofs import verify_certificate

    good = _good_certificate()
    cert = tmp_path_factory.mktemp("cert") / "c"
    shutil.copytree(good, cert)
    original = (good / name).read_bytes()
    if data is None:  # the example: 100,000 nested [ in manifest.json
        raw = b"[" * 100_000
    else:
        raw = data.draw(st.one_of(st.binary(max_size=300), mutated(original)), label="file")
    (cert / name).write_bytes(raw)
    if rehash and name != "manifest.json":
        _rehashed(cert, name)
    report = verify_certificate(cert)
    assert "\n" not in report.reason
    if not rehash and raw != original and name != "manifest.json":
        assert not report.ok and report.reason.startswith("hashes:"), report.reason
    _one_line_or_verdict(run_cli(["verify", str(cert)]))
