"""Shared cases for the CNF tests: the generated encoding list and hand-made puzzles."""

from __future__ import annotations

from kakurolab.encodings import PRESETS, parse_spec
from kakurolab.encodings.cnf import CNF_ENCODERS
from kakurolab.encodings.cnf.alldiff import CARD_ENCODINGS
from kakurolab.encodings.cnf.sums import SUMS
from kakurolab.formats import loads
from kakurolab.model import Puzzle, Solution


def sum_specs() -> list[str]:
    """Every registered sum encoding under every argument it takes (all-different added
    where the sum does not imply it): a new record in ``SUMS`` is tested without an edit."""
    return [
        f"sum={name}{':' + arg if arg else ''}"
        + ("" if record.implies_alldiff else ",alldiff=pairwise")
        for name, record in SUMS.items()
        for arg in record.args or ("",)
    ]


def _specs() -> list[str]:
    """Every CNF preset plus a list covering every part value at least once."""
    specs = [name for name, preset in PRESETS.items() if parse_spec(preset.spec).family == "cnf"]
    specs += [f"cell={cell},sum=combo" for cell in CNF_ENCODERS["cell"]]
    specs += ["cell=order,sum=pb:best,alldiff=pairwise", "cell=log,sum=pb:best,alldiff=pairwise"]
    specs += [f"sum=pb:{name},alldiff=pairwise" for name in SUMS["pb"].args]
    specs += sum_specs()
    specs += ["sum=lazy,alldiff=pairwise", "cell=log,sum=lazy,alldiff=pairwise"]
    specs += [f"sum=pb:bdd,alldiff={name}" for name in CARD_ENCODINGS]
    specs += [f"sum=combo,amo={name}" for name in CNF_ENCODERS["amo"]]
    specs += [f"sum=pb:bdd,alldiff=pairwise,redundant={name}" for name in ("domain", "combo")]
    specs += ["sum=mdd,redundant=combo", "cell=order,sum=table"]
    specs += ["sum=mdd,pre=root", "cell=log,sum=pb:bdd,alldiff=ladder,pre=root"]
    specs += [f"sum=combo:lean,alldiff=pairwise,ties={name}" for name in CNF_ENCODERS["ties"]]
    specs += [f"sum=combo:lean,alldiff=pairwise,sets={name}" for name in CNF_ENCODERS["sets"]]
    specs += ["sum=combo:lean,sets=exclude", "cell=order,sum=combo:lean,alldiff=pairwise"]
    specs += ["cell=log,sum=combo:lean,alldiff=seqcounter,ties=pairs"]
    specs += [f"sum=combo:lean,alldiff=pairwise,guards={name}" for name in CNF_ENCODERS["guards"]]
    specs += ["sum=pb:bdd,alldiff=pairwise,guards=own", "sum=mdd,guards=own,pre=root"]
    seen: dict[str, str] = {}
    for spec in specs:
        seen.setdefault(str(parse_spec(spec)), spec)
    return list(seen.values())


SPECS = _specs()

FAST_SPECS = [s for s in SPECS if "lazy" not in s]
"""Specs cheap enough to run on cryptic PE424 puzzles in the default run."""

HAND_MADE = {
    # one solution
    "unique": """
id: unique
   #    3\\   4\\
 \\4     .    .
 \\3     .    .
""",
    # x11 = x22 and x12 = x21 with x11 + x12 = 10: eight grids
    "ambiguous": """
id: ambiguous
   #   10\\  10\\
\\10     .    .
\\10     .    .
""",
    # rows must be {1, 2}; columns 3 and 4 cannot both hold
    "unsat": """
id: unsat
   #    3\\   4\\
 \\3     .    .
 \\3     .    .
""",
    # a 3x3 block: rows {1,2,3}, {4,5,6}, {7,8,9}
    "block": """
id: block
   #   12\\  15\\  18\\
 \\6     .    .    .
\\15     .    .    .
\\24     .    .    .
""",
}


def hand_made(name: str) -> Puzzle:
    return loads(HAND_MADE[name], format="kakuro")[0]


HAND_MADE_VERDICTS = {
    "unique": "unique",
    "ambiguous": "multiple",
    "unsat": "unsat",
    "block": "multiple",
}
HAND_MADE_COUNTS = {"unique": 1, "ambiguous": 8, "unsat": 0, "block": 15}


def reference(puzzle: Puzzle) -> tuple[str, Solution | None]:
    """The verdict (and unique solution) the native backend gives; before native is
    registered, the published solution (janko), the PE424 facts or the hand-made verdict."""
    from kakurolab.backends import BACKENDS
    from kakurolab.uniqueness import prove_unique

    if "native" in BACKENDS:
        u = prove_unique(puzzle, backend="native", timeout=60)
        return str(u.verdict), (u.solutions[0] if u.verdict == "unique" else None)
    if puzzle.id in HAND_MADE_VERDICTS:
        return HAND_MADE_VERDICTS[puzzle.id], None
    published = puzzle.meta.get("solution")
    if isinstance(published, Solution):
        return "unique", published
    return "unique", None  # PE424 puzzles are unique; the answer is checked elsewhere
