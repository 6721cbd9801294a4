"""Cryptic reasoning (Project Euler 424): letters stand for digits 0-9, one digit each.

Four rungs, each explained in words:

* **clue bounds**: a clue is the total of its run, so it lies between the smallest and largest
  sums of that many distinct digits; a two-letter clue never starts with 0 and never exceeds
  45 ("AB is at most 45, so A <= 4").
* **letter singles**: ten letters onto ten digits: a decided letter's digit leaves the other
  letters, and a digit only one letter can still take is that letter's.
* **tied letters**: a cell showing a letter holds that letter's digit, so the two narrow each
  other (and that letter is not 0).
* **letter sums**: the totals a run's cells can still make (exact run consistency over every
  total the clue's letters allow, the one kernel's :func:`revise_run`) narrow the clue's
  letters, and the letters' possible totals narrow the cells.

Once a clue's letters are decided its run is an ordinary numeric run for the other rungs.
"""

from __future__ import annotations

from itertools import combinations

from ..combos import MAX_SUM, feasible_sums
from ..model import LETTERS, Cell, Run
from ..propagation.kernel import pair_filter, pair_sums, revise_run
from .candidates import Contradiction, State, cell_name, letter_words, run_label
from .techniques import Finding, Technique

_REACH = {n: sum(1 << t for t in feasible_sums(n)) for n in range(1, 10)}


def _clue_letters(run: Run) -> str | None:
    return run.clue.letters if run.clue is not None else None


def _letter_sums(state: State, letters: str) -> int:
    """The totals (bit ``t`` for ``t``) a letter clue can stand for given its letters."""
    if len(letters) == 1:
        return state.letters[letters]
    tens, units = state.letters[letters[0]], state.letters[letters[1]]
    return pair_sums(tens, units, letters[0] == letters[1])


def _cut(state: State, letters: str, sums: int) -> dict[str, int]:
    """Letter removals that keep only the clue readings inside ``sums``."""
    if len(letters) == 1:
        new = {letters: state.letters[letters] & sums}
    else:
        tens, units = state.letters[letters[0]], state.letters[letters[1]]
        kept_tens, kept_units = pair_filter(tens, units, letters[0] == letters[1], sums)
        new = {letters[0]: kept_tens}
        if letters[1] != letters[0]:
            new[letters[1]] = kept_units
    return {ch: state.letters[ch] & ~m for ch, m in new.items() if state.letters[ch] & ~m}


def _totals_text(sums: int) -> str:
    totals = [t for t in range(MAX_SUM + 1) if sums >> t & 1]
    if not totals:
        return "nothing"
    if totals == list(range(totals[0], totals[-1] + 1)) and len(totals) > 2:
        return f"{totals[0]}-{totals[-1]}"
    return ", ".join(map(str, totals))


def clue_bounds(state: State, run: Run) -> Finding | None:
    """A letter clue lies in the range of totals its run's length allows."""
    letters = _clue_letters(run)
    if not letters:
        return None
    n = len(run)
    reach = _REACH.get(n, 0)
    removed = _cut(state, letters, reach)
    if not removed:
        return None
    low, high = min(feasible_sums(n)), max(feasible_sums(n))
    words = f"{letters} is the total of {n} different digits, between {low} and {high}"
    if len(letters) == 2:
        words += (
            f"; as a two-digit number it never starts with 0, and {letters} is at most "
            f"{min(high, MAX_SUM)}"
        )
    return Finding(run.cells, f"{run_label(run)}: {words}", letter_eliminations=removed)


def letter_singles(state: State, _grid: object) -> Finding | None:
    """Ten letters onto ten digits: naked and hidden singles among the letters."""
    letters = state.letters
    if not letters:
        return None
    for ch in LETTERS:
        mask = letters[ch]
        if mask & (mask - 1):
            continue
        removed = {o: letters[o] & mask for o in LETTERS if o != ch and letters[o] & mask}
        if removed:
            (digit,) = (d for d in range(10) if mask >> d & 1)
            return Finding(
                (),
                f"{ch} = {digit}, and different letters stand for different digits",
                letter_eliminations=removed,
            )
    for digit in range(10):
        takers = [ch for ch in LETTERS if letters[ch] >> digit & 1]
        if len(takers) == 1 and letters[takers[0]] != 1 << digit:
            (ch,) = takers
            return Finding(
                (),
                f"the ten letters stand for the ten digits 0-9, and only {ch} can still be {digit}",
                letter_eliminations={ch: letters[ch] & ~(1 << digit)},
            )
    return None


def letter_subsets(state: State, _grid: object) -> Finding | None:
    """Naked and hidden pairs/triples among the letters (ten letters onto ten digits): k
    letters that can only be k digits between them keep those digits from the other letters;
    k digits that only k letters can still be belong to those letters."""
    letters = state.letters
    if not letters:
        return None
    return _naked_letters(letters) or _hidden_letters(letters)


def _naked_letters(letters: dict[str, int]) -> Finding | None:
    """k letters that can only be k digits between them keep those digits from the rest."""
    open_letters = [ch for ch in LETTERS if letters[ch] & (letters[ch] - 1)]
    for k in (2, 3):
        for group in combinations(open_letters, k):
            union = 0
            for ch in group:
                union |= letters[ch]
            if union.bit_count() != k:
                continue
            removed = {
                o: letters[o] & union for o in LETTERS if o not in group and letters[o] & union
            }
            if removed:
                names = ", ".join(group)
                return Finding(
                    (),
                    f"{names} can only be {letter_words(union)} between them (a naked "
                    f"{_NAMES[k]} of letters, and different letters are different digits)",
                    letter_eliminations=removed,
                )
    return None


def _hidden_letters(letters: dict[str, int]) -> Finding | None:
    """k digits that only k letters can still be belong to those letters."""
    open_digits = [d for d in range(10) if sum(letters[ch] >> d & 1 for ch in LETTERS) > 1]
    for k in (2, 3):
        for digits in combinations(open_digits, k):
            mask = sum(1 << d for d in digits)
            holders = [ch for ch in LETTERS if letters[ch] & mask]
            if len(holders) != k:
                continue
            removed = {ch: letters[ch] & ~mask for ch in holders if letters[ch] & ~mask}
            if removed:
                return Finding(
                    (),
                    f"only {', '.join(holders)} can still be {letter_words(mask)} (a hidden "
                    f"{_NAMES[k]} of letters: each digit stands for some letter)",
                    letter_eliminations=removed,
                )
    return None


_NAMES = {2: "pair", 3: "triple"}


def tied_letters(state: State, cell: Cell) -> Finding | None:
    """A cell showing a letter holds that letter's digit: each narrows the other."""
    letter = state.puzzle.shown_letters.get(cell)
    if letter is None:
        return None
    cand = state.cands[cell]
    mask = state.letters[letter]
    letter_gone = mask & ~(cand << 1)
    cell_gone = cand & ~(mask >> 1)
    if not letter_gone and not cell_gone:
        return None
    name = cell_name(cell)
    return Finding(
        (cell,),
        f"{name} shows {letter}: it holds {letter}'s digit (never 0); {letter} can be "
        f"{letter_words(mask)} and {name} can be {letter_words(cand << 1)}",
        eliminations={cell: cell_gone} if cell_gone else {},
        letter_eliminations={letter: letter_gone} if letter_gone else {},
    )


def letter_sums(state: State, run: Run) -> Finding | None:
    """The totals a run's cells can make and the totals its letters can spell, matched."""
    letters = _clue_letters(run)
    if not letters or state.total(run) is not None:
        return None
    spelled = _letter_sums(state, letters) & _REACH.get(len(run), 0)
    doms = tuple(state.cands[c] for c in run.cells)
    found = revise_run(doms, spelled) if spelled else ()
    if not found:
        raise Contradiction(
            f"{run_label(run)}: no filling of its cells makes a total {letters} can spell"
        )
    reachable = found[0]
    letter_gone = _cut(state, letters, reachable)
    cell_gone: dict[Cell, int] = {}
    for pos, mask in zip(found[1::2], found[2::2], strict=True):
        cell = run.cells[pos]
        cell_gone[cell] = state.cands[cell] & ~mask
    if not letter_gone and not cell_gone:
        return None
    return Finding(
        run.cells,
        f"{run_label(run)}: {letters} can spell {_totals_text(spelled)}; the fillings of its "
        f"{len(run)} cells that fit their candidates make {_totals_text(reachable)}",
        eliminations=cell_gone,
        letter_eliminations=letter_gone,
        evidence={c: 0x1FF & ~state.cands[c] for c in run.cells},
    )


CRYPTIC: tuple[Technique, ...] = (
    Technique("clue bounds", 1, "run", clue_bounds, "a letter clue within its run's totals"),
    Technique("letter singles", 2, "grid", letter_singles, "ten letters onto ten digits"),
    Technique("tied letters", 2, "cell", tied_letters, "a cell showing a letter"),
    Technique("letter sums", 3, "run", letter_sums, "a letter clue against its run's totals"),
    Technique("letter subsets", 6, "grid", letter_subsets, "naked/hidden pairs of letters"),
)
"""The cryptic rungs, placed by :mod:`.ladder` among the per-run ones."""
