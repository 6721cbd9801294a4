"""Build the shipped benchmark sets in ``kakurolab/data/generated`` with their manifest.

``python -m kakurolab.generator.sets [standard] [cryptic]`` regenerates the sets (all by
default) from the seeds recorded here;
the manifest records the generator version, seeds and parameters of each file so anyone can
reproduce (or extend) a set, and notes the combinations the generator could not fill.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from ..errors import KakuroError
from ..fileio import write_text
from ..formats import dumps
from ..model import Puzzle
from .core import GENERATOR_VERSION, generate
from .encrypt import generate_cryptic
from .job import WHITE_GOAL

DATA = Path(__file__).resolve().parents[1] / "data" / "generated"
MANIFEST = DATA / "manifest.json"

STANDARD_SIZES = ((8, 8), (12, 12), (16, 22))
LEVELS = ("easy", "normal", "hard", "expert")
CRYPTIC_SIZES = (6, 7, 10, 12)
PER_SET = 2
MAX_LAYOUTS = 40
NOT_BUILT: dict[tuple[str, str], str] = {}


def build(out: Path = DATA, kinds: tuple[str, ...] = ("standard", "cryptic")) -> dict[str, Any]:
    """Generate the sets of ``kinds`` into ``out`` and write the manifest (the entries of the
    other kinds are kept from the manifest already there); returns the manifest."""
    out.mkdir(parents=True, exist_ok=True)
    old = out / "manifest.json"
    kept = json.loads(old.read_text(encoding="utf-8")) if old.exists() else {}
    sets: list[dict[str, Any]] = [e for e in kept.get("sets", []) if e["kind"] not in kinds]
    skipped: list[dict[str, Any]] = [] if "standard" in kinds else kept.get("skipped", [])
    for nrows, ncols in STANDARD_SIZES if "standard" in kinds else ():
        for level in LEVELS:
            reason = NOT_BUILT.get((f"{nrows}x{ncols}", level))
            if reason:
                skipped.append({"size": f"{nrows}x{ncols}", "difficulty": level, "reason": reason})
                continue
            entry = _standard_set(out, nrows, ncols, level, skipped)
            if entry is not None:
                sets.append(entry)
                print(entry["file"], entry["seconds"], flush=True)
    for size in CRYPTIC_SIZES if "cryptic" in kinds else ():
        sets.append(_cryptic_set(out, size))
        print(sets[-1]["file"], flush=True)
    manifest = {
        "generator_version": GENERATOR_VERSION,
        "command": "python -m kakurolab.generator.sets",
        "note": "ids in pe424 files are line numbers; answers are the letter digits A..J",
        "sets": sets,
        "skipped": skipped,
    }
    write_text(out / "manifest.json", json.dumps(manifest, indent=1) + "\n")
    return manifest


def _standard_set(
    out: Path, nrows: int, ncols: int, level: str, skipped: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """One standard set written to ``out``: its manifest entry (None when no seed made a
    puzzle; each seed that did not is added to ``skipped``)."""
    puzzles: list[Puzzle] = []
    seeds: list[int] = []
    start = time.perf_counter()
    size = f"{nrows}x{ncols}"
    for seed in range(PER_SET):
        try:
            made = generate(nrows, ncols, level, seed=seed, max_layouts=MAX_LAYOUTS)
        except KakuroError as exc:
            skipped.append({"size": size, "difficulty": level, "seed": seed, "reason": str(exc)})
            continue
        seeds.append(seed)
        meta = {**made.puzzle.meta, "solution": made.solution}
        puzzles.append(Puzzle(made.puzzle.id, made.puzzle.grid, meta))
    if not puzzles:
        return None
    name = f"standard-{size}-{level}.kakuro"
    write_text(out / name, dumps(puzzles, "kakuro"))
    return {
        "file": name,
        "kind": "standard",
        "format": "kakuro",
        "size": size,
        "difficulty": level,
        "seeds": seeds,
        "ids": [p.id for p in puzzles],
        "params": {
            "symmetric": True,
            "logic_only": True,
            "full_frame": True,
            "white_goal": WHITE_GOAL,
            "max_layouts": MAX_LAYOUTS,
            "backend": "native",
        },
        "seconds": round(time.perf_counter() - start, 2),
    }


def _cryptic_set(out: Path, size: int) -> dict[str, Any]:
    """One cryptic set written to ``out``: its manifest entry."""
    puzzles, seeds, answers = [], [], []
    for seed in range(PER_SET):
        made = generate_cryptic(size, seed=seed)
        puzzles.append(made.puzzle)
        seeds.append(seed)
        answers.append(made.solution.answer)
    name = f"cryptic-{size}x{size}.txt"
    write_text(out / name, dumps(puzzles, "pe424"))
    return {
        "file": name,
        "kind": "cryptic",
        "format": "pe424",
        "size": f"{size}x{size}",
        "difficulty": "hard",
        "seeds": seeds,
        "answers": answers,
        "params": {
            "backend": "native",
            "full_frame": True,
            "symmetric": True,
            "white_goal": WHITE_GOAL,
        },
    }


if __name__ == "__main__":
    import sys

    build(kinds=tuple(sys.argv[1:]) or ("standard", "cryptic"))  # e.g. ``... sets cryptic``
