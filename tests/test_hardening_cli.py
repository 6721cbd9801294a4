"""Issue 19, items 8, 9, 11 and 12: where output goes, what the API accepts, how files are
written and which option values are refused.

8. A puzzle id never chooses where a file is written: ``encode`` without ``-o`` names its file
   after a *safe* form of the id, in the current directory (or the ``-o`` directory).
9. The solving API checks its arguments at the boundary: ``select="12"`` is one id, a puzzle
   with an unclued run, an empty or a ragged grid is refused, wrong types are ``TypeError``\\ s
   naming the parameter.
11. Every output file is written whole or not at all (temporary file + rename), with the
    umask's mode, through symlinks, and a write that fails is one line.
12. ``--timeout``/``--scale`` take finite positive numbers only; numeric backend options are
    checked when the backend is made; unreadable inputs of ``--state``, ``--report`` and
    ``decode`` are one line.
"""

from __future__ import annotations

import errno
import math
import os
import re
import stat
from pathlib import Path

import pytest
from _tools import one_line_error

import kakurolab as kl
from kakurolab import fileio, uniqueness
from kakurolab.backends import BACKENDS, get_backend
from kakurolab.cli import main
from kakurolab.errors import KakuroError, PuzzleError
from kakurolab.fileio import OutputError, safe_name
from kakurolab.model import BLOCK, Clue, ClueCell, Puzzle, White

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "data" / "tiny.kakuro"
SAFE = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")


def _with_ids(tmp_path: Path, *ids: str) -> Path:
    """tiny.kakuro's first puzzle once per id (the ids as a file from elsewhere gives them)."""
    text = TINY.read_text(encoding="utf-8")
    first = text[text.index("id: tiny-a") : text.index("id: tiny-b")]
    path = tmp_path / "ids.kakuro"
    path.write_text("".join(first.replace("id: tiny-a", f"id: {i}") for i in ids))
    return path


def _files(directory: Path) -> set[str]:
    return {p.name for p in directory.iterdir()}


# ------------------------------------------------------------------ item 8: ids are not paths


@pytest.mark.parametrize(
    "text",
    ["a/b", "../../up", "/abs/dir/name", ".hidden", "-rf", "", "x" * 500, "ü é", "a\\b", ".."],
)
def test_safe_name_is_a_bounded_plain_file_name(text: str) -> None:
    name = safe_name(text)
    assert SAFE.fullmatch(name), name
    assert len(name) <= fileio.MAX_NAME
    assert "/" not in name and name not in (".", "..")


def test_safe_name_keeps_clean_ids_and_separates_ids_that_clean_up_alike() -> None:
    assert safe_name("tiny-a") == "tiny-a"
    assert safe_name("12") == "12"
    names = {safe_name(i) for i in ("a/b", "a_b", "a b", "a?b", "a\\b", "x" * 300, "x" * 301)}
    assert len(names) == 7


def test_encode_writes_in_the_current_directory_whatever_the_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "sub").mkdir(parents=True)
    work = elsewhere / "sub" / "work"
    work.mkdir()
    ids = [str(elsewhere / "absolute"), "../escaped", "../../far", "a/b", "a_b"]
    puzzles = _with_ids(tmp_path, *ids)
    monkeypatch.chdir(work)
    for pid in ids:
        assert main(["encode", str(puzzles), "--select", pid]) == 0, capsys.readouterr()
    capsys.readouterr()
    written = _files(work)
    assert len(written) == len(ids)  # a/b and a_b did not overwrite each other
    assert all(SAFE.fullmatch(name) and name.endswith(".cnf") for name in written), written
    assert _files(elsewhere) == {"sub"} and _files(elsewhere / "sub") == {"work"}
    assert _files(tmp_path) == {"elsewhere", "ids.kakuro"}


def test_encode_into_an_output_directory_names_the_file_after_the_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    assert main(["encode", str(_with_ids(tmp_path, "x/../../y")), "-o", str(out)]) == 0
    (name,) = _files(out)
    assert SAFE.fullmatch(name) and name.endswith(".cnf")
    assert _files(tmp_path) == {"out", "ids.kakuro"}
    assert "p cnf" in (out / name).read_text()


# ------------------------------------------------------------------ item 9: the API boundary


def test_load_select_string_is_one_id_not_its_characters() -> None:
    pe424 = ROOT / "data" / "p424_kakuro200.txt"
    assert [p.id for p in kl.load(pe424, select="12")] == ["12"]
    assert [p.id for p in kl.load(pe424, select=12)] == ["12"]
    assert [p.id for p in kl.load(pe424, select="3-5")] == ["3", "4", "5"]
    assert [p.id for p in kl.load(pe424, select=["12", 3])] == ["12", "3"]
    with pytest.raises(TypeError, match="select"):
        kl.load(pe424, select=1.5)
    with pytest.raises(TypeError, match="select"):
        kl.load(pe424, select=[None])


def _unclued() -> Puzzle:
    """A 2x2 white square with no clue at all: every backend used to answer ``sat``."""
    row = (BLOCK, White(), White())
    return Puzzle("unclued", ((BLOCK, BLOCK, BLOCK), row, row))


def _partly_clued() -> Puzzle:
    """Across runs clued, down runs not."""
    clue = ClueCell(across=Clue(3))
    row = (clue, White(), White())
    return Puzzle("partly", ((BLOCK, BLOCK, BLOCK), row, row))


def _api_calls() -> list:
    return [
        lambda p, **kw: kl.solve(p, **kw),
        lambda p, **kw: kl.count(p, 2, **kw),
        lambda p, **kw: kl.prove_unique(p, **kw),
        lambda p, **kw: kl.solutions(p, **kw),
    ]


@pytest.mark.parametrize("backend", [b for b in ("native", "cpsat") if b in BACKENDS])
@pytest.mark.parametrize("make", [_unclued, _partly_clued, lambda: Puzzle("empty", ())])
def test_api_refuses_puzzles_that_break_the_rules(backend: str, make) -> None:
    puzzle = make()
    for call in _api_calls():
        with pytest.raises(PuzzleError) as exc:
            call(puzzle, backend=backend)
        assert isinstance(exc.value, ValueError)
        assert puzzle.id in str(exc.value)


def test_a_ragged_grid_is_refused_by_the_model() -> None:
    clue = ClueCell(across=Clue(3))
    with pytest.raises(PuzzleError, match="ragged"):
        Puzzle("ragged", ((BLOCK, BLOCK, BLOCK), (clue, White(), White()), (clue, White())))
    with pytest.raises(TypeError, match="grid"):
        Puzzle("lists", [[BLOCK]])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "kwargs", "name"),
    [
        ((None,), {}, "puzzle"),
        (("tiny",), {}, "puzzle"),
        ((), {"backend": 5}, "backend"),
        ((), {"timeout": "5"}, "timeout"),
        ((), {"timeout": True}, "timeout"),
    ],
)
def test_api_wrong_types_are_type_errors_naming_the_parameter(args, kwargs, name) -> None:
    puzzle = kl.load(TINY)[0]
    for call in _api_calls():
        with pytest.raises(TypeError, match=name):
            call(*(args or (puzzle,)), **kwargs)


def test_api_bad_numbers() -> None:
    puzzle = kl.load(TINY)[0]
    with pytest.raises(TypeError, match="limit"):
        kl.count(puzzle, "2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="limit"):
        kl.count(puzzle, 2.0)  # type: ignore[arg-type]
    for bad in (math.nan, math.inf, -1.0):
        with pytest.raises(ValueError, match="timeout"):
            kl.solve(puzzle, timeout=bad)


def test_api_validation_is_cached_per_puzzle() -> None:
    puzzle = kl.load(TINY)[1]
    assert kl.solve(puzzle)
    before = uniqueness._problems.cache_info()
    for _ in range(5):
        assert kl.solve(puzzle)
    after = uniqueness._problems.cache_info()
    assert after.misses == before.misses and after.hits >= before.hits + 5


# ------------------------------------------------------------------ item 11: writing files


class _DiskFull:
    """``os.fdopen`` whose file takes ``room`` bytes, then fails like a full disk."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.real = os.fdopen

    def __call__(self, fd: int, *args, **kwargs):  # type: ignore[no-untyped-def]
        handle = self.real(fd, *args, **kwargs)
        room = self.room

        class Full:
            def __enter__(self):  # type: ignore[no-untyped-def]
                return self

            def __exit__(self, *exc: object) -> None:
                handle.close()

            def write(self, data: bytes) -> int:
                handle.write(data[:room])
                handle.flush()
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        return Full()


def test_full_disk_keeps_the_old_file_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old content\n")
    monkeypatch.setattr(fileio.os, "fdopen", _DiskFull(5))
    with pytest.raises(OutputError, match="No space left") as exc:
        fileio.write_text(target, "new content that does not fit\n")
    assert isinstance(exc.value, KakuroError) and "\n" not in str(exc.value)
    assert target.read_text() == "old content\n"
    assert _files(tmp_path) == {"out.txt"}


@pytest.mark.parametrize(
    ("argv", "suffix"),
    [
        (["encode", str(TINY), "--select", "tiny-a"], ".cnf"),
        (["render", str(TINY), "--select", "tiny-a"], ".svg"),
        (["convert", str(TINY), "--to", "puzzlekit"], ".txt"),
        (["encodings", "--table-md", str(TINY), "--encoding", "naive", "--limit", "1"], ".md"),
    ],
)
def test_commands_on_a_full_disk_fail_in_one_line_and_keep_the_old_file(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    suffix: str,
) -> None:
    target = tmp_path / f"out{suffix}"
    target.write_text("old\n")
    monkeypatch.setattr(fileio.os, "fdopen", _DiskFull(10))
    line = one_line_error(capsys, main([*argv, "-o", str(target)]))
    assert "No space left" in line
    assert target.read_text() == "old\n"
    assert _files(tmp_path) == {target.name}


def test_new_files_follow_the_umask_and_old_files_keep_their_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        fileio.write_text(tmp_path / "new.txt", "x")
        assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644
        os.umask(0o077)
        fileio.write_text(tmp_path / "private.txt", "x")
        assert stat.S_IMODE((tmp_path / "private.txt").stat().st_mode) == 0o600
    finally:
        os.umask(old)
    (tmp_path / "new.txt").chmod(0o640)
    fileio.write_text(tmp_path / "new.txt", "y")
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640


def test_a_symlinked_output_is_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "puzzle.svg").write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(real / "puzzle.svg")
    assert main(["render", str(TINY), "--select", "tiny-b", "-o", str(link)]) == 0
    assert link.is_symlink()
    assert "<svg" in (real / "puzzle.svg").read_text()
    assert _files(real) == {"puzzle.svg"}


UNWRITABLE = [
    ["encode", str(TINY), "--select", "tiny-a", "-o"],
    ["encodings", "--table-md", str(TINY), "-o"],
    ["convert", str(TINY), "--to", "kakuro", "-o"],
    ["render", str(TINY), "--select", "tiny-a", "-o"],
    ["generate", "--size", "6x6", "-o"],
    ["grade", str(TINY), "--report"],
]


@pytest.mark.parametrize(
    ("argv", "where"),
    [(argv, "missing") for argv in UNWRITABLE]
    # encode -o DIR writes DIR/<id>.cnf (tested above): every other command refuses a directory
    + [(argv, "directory") for argv in UNWRITABLE if argv[0] != "encode"],
)
def test_unwritable_output_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], where: str
) -> None:
    (tmp_path / "adir").mkdir()
    suffix = ".svg" if argv[0] == "render" else ".txt"
    out = tmp_path / "nodir" / f"x{suffix}" if where == "missing" else tmp_path / "adir"
    line = one_line_error(capsys, main([*argv, str(out)]))
    assert "cannot write" in line
    assert _files(tmp_path) == {"adir"} and _files(tmp_path / "adir") == set()


def test_encode_into_a_directory_where_its_file_is_a_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "tiny-a.cnf").mkdir()
    argv = ["encode", str(TINY), "--select", "tiny-a", "-o", str(tmp_path)]
    assert "cannot write" in one_line_error(capsys, main(argv))


# ------------------------------------------------------------------ item 12: option values


@pytest.mark.parametrize("command", ["solve", "count", "unique", "euler424"])
@pytest.mark.parametrize("value", ["inf", "nan", "1e308", "-inf", "0", "-1", "abc"])
def test_timeout_takes_finite_positive_numbers_only(
    capsys: pytest.CaptureFixture[str], command: str, value: str
) -> None:
    line = one_line_error(capsys, main([command, str(TINY), f"--timeout={value}"]))
    assert "--timeout must be" in line


def test_bench_timeout_and_render_scale(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    for value in ("nan", "inf", "1e308", "0", "x"):
        line = one_line_error(capsys, main(["bench", "pe424", f"--timeout={value}"]))
        assert "--timeout must be" in line
        argv = ["render", str(TINY), "-o", str(tmp_path / "x.png"), f"--scale={value}"]
        assert "--scale must be" in one_line_error(capsys, main(argv))
    assert _files(tmp_path) == set()


@pytest.mark.parametrize("value", ["abc", "1.5", "-1", "inf", "nan", "true"])
def test_numeric_backend_options_are_checked_when_the_backend_is_made(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    line = one_line_error(capsys, main(["solve", str(TINY), "--option", f"node_limit={value}"]))
    assert "node_limit" in line
    with pytest.raises(KakuroError, match="node_limit"):
        get_backend("native", node_limit=value)


def test_numeric_backend_options_keep_good_values() -> None:
    puzzle = kl.load(TINY)[0]
    assert kl.solve(puzzle, backend=get_backend("native", node_limit=10_000))
    assert kl.solve(puzzle, node_limit=0).status.value == "unknown"


@pytest.mark.skipif("cpsat" not in BACKENDS, reason="ortools not installed")
@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_cpsat_time_option_is_finite(capsys: pytest.CaptureFixture[str], value: str) -> None:
    argv = ["solve", str(TINY), "--backend", "cpsat", "--option", f"max_time_in_seconds={value}"]
    assert "max_time_in_seconds" in one_line_error(capsys, main(argv))


@pytest.fixture
def bad_files(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "adir").mkdir()
    (tmp_path / "binary").write_bytes(b"\xff\xfe\x00\x81 not text")
    return {"missing": tmp_path / "missing", "directory": tmp_path / "adir",
            "binary": tmp_path / "binary"}  # fmt: skip


@pytest.mark.parametrize("kind", ["missing", "directory", "binary"])
@pytest.mark.parametrize("command", ["hint", "explain", "render"])
def test_state_file_that_cannot_be_read_is_one_line(
    capsys: pytest.CaptureFixture[str], bad_files, tmp_path: Path, kind: str, command: str
) -> None:
    extra = ["-o", str(tmp_path / "x.svg")] if command == "render" else []
    argv = [command, str(TINY), "--select", "tiny-a", "--state", f"@{bad_files[kind]}", *extra]
    assert "--state" in one_line_error(capsys, main(argv))


def test_a_long_state_grid_is_not_taken_for_a_file_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["hint", str(TINY), "--select", "tiny-a", "--state", "." * 5000])
    assert code == 2 and "Traceback" not in capsys.readouterr().err


def test_binary_grade_report_is_refused_and_kept(
    capsys: pytest.CaptureFixture[str], bad_files
) -> None:
    before = bad_files["binary"].read_bytes()
    code = main(["grade", str(TINY), "--report", str(bad_files["binary"])])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""  # refused before grading
    assert captured.err.startswith("kakuro: error: --report") and "UTF-8" in captured.err
    assert captured.err.count("\n") == 1
    assert bad_files["binary"].read_bytes() == before


@pytest.mark.parametrize("kind", ["missing", "directory", "binary"])
@pytest.mark.parametrize("which", ["cnf", "model"])
def test_decode_unreadable_inputs_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad_files, kind: str, which: str
) -> None:
    cnf = tmp_path / "tiny-a.cnf"
    assert main(["encode", str(TINY), "--select", "tiny-a", "-o", str(cnf)]) == 0
    model = tmp_path / "model"
    model.write_text("s SATISFIABLE\nv 1 -2 0\n")
    files = {"cnf": cnf, "model": model, which: bad_files[kind]}
    capsys.readouterr()
    argv = ["decode", str(TINY), "--select", "tiny-a", str(files["cnf"]), str(files["model"])]
    assert str(bad_files[kind]) in one_line_error(capsys, main(argv))


@pytest.mark.parametrize(
    ("cnf_line", "model_line"),
    [
        ("c var abc r1c1", "v 1 0"),
        ("c var 7", "v 1 0"),
        ("c var 1" + "0" * 5000 + " r1c1", "v 1 0"),
        (None, "v 1 ² 0"),
        (None, "v 1" + "1" * 5000 + " 0"),
    ],
)
def test_decode_bad_lines_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cnf_line: str | None, model_line: str
) -> None:
    cnf = tmp_path / "tiny-a.cnf"
    assert main(["encode", str(TINY), "--select", "tiny-a", "-o", str(cnf)]) == 0
    if cnf_line is not None:
        text = cnf.read_text()
        cnf.write_text(text.replace("c var ", cnf_line + "\nc var ", 1))
    model = tmp_path / "model"
    model.write_text(f"s SATISFIABLE\n{model_line}\n")
    capsys.readouterr()
    argv = ["decode", str(TINY), "--select", "tiny-a", str(cnf), str(model)]
    one_line_error(capsys, main(argv))
