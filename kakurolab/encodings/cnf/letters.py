"""Cryptic puzzles: letter variables, the letter bijection and clue values.

Each letter is a one-hot over 0-9 (``("letter", L, d)``), exactly one digit per letter and
exactly one letter per digit (ten letters, ten digits).  A letter shown in a white cell is that
cell's digit.  Each run gets a one-hot over its feasible sums (``("sum", run, s)``); the sum
encodings constrain the cells under these guards, and here the guards are tied to the clue:

* one letter ``L``: ``sum_s <-> L = s``;
* two letters ``XY``: ``sum_s -> X = s // 10 and Y = s % 10``, ``X != 0``, and back from the
  letters to the sums by one of two ties (the spec's ``ties`` part):

  - ``split`` (the default): each digit is tied on its own, ``X = a -> OR{sum_s : s // 10 = a}``
    and ``Y = b -> OR{sum_s : s % 10 = b}``: about 19 clauses per run;
  - ``pairs`` (the encoder before 2026-12): ``X = a and Y = b -> sum_{10a+b}`` (or a conflict
    when ``10a + b`` is no feasible sum), one clause per digit pair: about 90 per run.

  Both formulas have the same models (the guards are one-hot and each fixes both letters),
  and unit propagation derives as much from ``split``: once ``X = a`` holds, the guards of
  other tens are false, so ``Y = b -> OR{...}`` keeps only ``sum_{10a+b}``, which is what
  the pair clause said.  ``pairs`` stays for certificates made by that encoder.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import neg
from types import SimpleNamespace

from ... import combos
from ...model import LETTERS, Puzzle, Run
from ...rulebook import clue_values
from .alldiff import at_most_one
from .pool import Clauses, Pool, Template
from .sums import Target


def letter(enc: Pool, ch: str, d: int) -> int:
    """The literal ``letter ch = d``.  The first one asked for makes all 100, in A0..J9
    order, so letter variables are numbered alike whichever part asks first.  With
    :attr:`~.pool.Pool.live_letters` the presolve made them, only for the digits it left to
    undecided letters: any other pair has none (0 here and in :func:`letter_row`), and no part
    writes one into a clause (a removed digit is false, a decided letter's digit true)."""
    known = enc.pool.obj2id
    lit = known.get(("letter", ch, d))
    if lit is None:
        if enc.live_letters:
            return 0
        enc.vars([("letter", c, v) for c in LETTERS for v in range(10)])
        lit = known[("letter", ch, d)]
    return lit


def letter_row(enc: Pool, ch: str) -> list[int]:
    """The literals ``letter ch = 0`` .. ``letter ch = 9``: one block of ids, as :func:`letter`
    makes them (looked up one by one only if something made them apart; 0 for a pair without
    a variable, see :func:`letter`)."""
    if enc.live_letters:
        get = enc.pool.obj2id.get
        return [get(("letter", ch, d), 0) for d in range(10)]
    first = letter(enc, ch, 0)
    if enc.pool.obj2id.get(("letter", ch, 9)) == first + 9:
        return list(range(first, first + 10))
    return [letter(enc, ch, d) for d in range(10)]


_DIGITS_OF: dict[int, tuple[int, ...]] = {}
"""Letter digit masks -> their digits (0-9), as :func:`letter_digits` gives them."""


def letter_digits(enc: Pool, ch: str) -> tuple[int, ...]:
    """The digits letter ``ch`` may still take (all ten unless ``pre=root`` narrowed them)."""
    mask = enc.letter_masks.get(ch, combos.ALL_LETTER_DIGITS)
    found = _DIGITS_OF.get(mask)
    if found is None:
        found = _DIGITS_OF[mask] = tuple(d for d in range(10) if mask >> d & 1)
    return found


@cache
def _bijection() -> tuple[Template, int]:
    """The exactly-ones of the ten letters' rows, then of the ten digits' columns, under
    ``amo=auto``, as :func:`encode_letters` writes them through ``one_of``: recorded once
    over positions (the 100 letter literals A0..J9, then the auxiliaries the sequential
    at-most-ones draw, in order), with how many auxiliaries that is."""
    counter = SimpleNamespace(top=100)
    recorded: Clauses = []
    for i in range(10):
        row = [10 * i + d + 1 for d in range(10)]
        recorded += [row, *at_most_one(counter, row, "auto")]
    for d in range(10):
        column = [10 * i + d + 1 for i in range(10)]
        recorded += [column, *at_most_one(counter, column, "auto")]
    size = counter.top

    def position(lit: int) -> int:
        return abs(lit) - 1 + (size if lit < 0 else 0)

    return Template.of([tuple(map(position, clause)) for clause in recorded]), size - 100


def encode_letters(enc: Pool, puzzle: Puzzle) -> Clauses:
    """The bijection between letters and digits, and shown letters tied to their cells.

    Digits a presolve removed from a letter become unit clauses, and the exactly-ones run
    over what is left, so a fully presolved puzzle costs about a hundred units."""
    if enc.live_letters:
        return _live_letters(enc, puzzle)
    clauses: Clauses = []
    add = clauses.append
    allowed = {ch: letter_digits(enc, ch) for ch in LETTERS}
    rows = {ch: letter_row(enc, ch) for ch in LETTERS}
    if not enc.letter_masks and enc.amo == "auto":  # the usual case: one fixed pattern
        template, aux = _bijection()
        first = enc.pool.top + 1
        enc.pool.top += aux
        items = [lit for ch in LETTERS for lit in rows[ch]]
        items += range(first, first + aux)
        items += list(map(neg, items))
        clauses += template.clauses(items)
    else:
        for ch in LETTERS:
            clauses += enc.one_of([rows[ch][d] for d in allowed[ch]])
            if len(allowed[ch]) < 10:
                clauses.extend([-rows[ch][d]] for d in range(10) if d not in allowed[ch])
        for d in range(10):
            clauses += enc.one_of([rows[ch][d] for ch in LETTERS if d in allowed[ch]])
    for cell, ch in puzzle.shown_letters.items():
        digits = enc.cells.allowed[cell]
        add([-rows[ch][0]])  # white cells hold 1-9
        for d in range(1, 10):
            lit = rows[ch][d]
            if d not in digits:
                add([-lit])
                continue
            x = enc.cells.eq(cell, d)
            add([-x, lit])
            add([x, -lit])
    return clauses


def make_live_letters(enc: Pool) -> None:
    """``letters=live``: the variables of the pairs the presolve left to undecided letters,
    in A0..J9 order, made before any part asks (:func:`letter`)."""
    fixed = enc.fixed_letters
    enc.vars([("letter", c, v) for c in LETTERS if c not in fixed for v in letter_digits(enc, c)])


def _live_letters(enc: Pool, puzzle: Puzzle) -> Clauses:
    """:func:`encode_letters` under ``letters=live``: the bijection over the pairs with a
    variable only.  A decided letter is its digit: that digit is taken from every other
    letter (units, should propagation have left it) and its column needs no clause; a shown
    cell of a decided letter keeps that digit alone.  About a tenth of the clauses of the
    whole bijection on a presolved cryptic puzzle."""
    clauses: Clauses = []
    fixed = enc.fixed_letters
    taken: dict[int, str] = {}
    for ch, value in fixed.items():
        if value in taken:
            return [[]]  # two letters decided alike: no bijection
        taken[value] = ch
    rows = {ch: letter_row(enc, ch) for ch in LETTERS if ch not in fixed}
    for ch, row in rows.items():
        live = [row[d] for d in letter_digits(enc, ch) if d not in taken]
        clauses += [[-row[d]] for d in letter_digits(enc, ch) if d in taken]
        clauses += enc.one_of(live)
    for d in range(10):
        if d not in taken:
            clauses += enc.one_of([row[d] for row in rows.values() if row[d]])
    return clauses + _live_shown_cells(enc, puzzle, rows)


def _live_shown_cells(enc: Pool, puzzle: Puzzle, rows: dict[str, list[int]]) -> Clauses:
    """:func:`_live_letters`' ties between each shown cell and its letter's live pairs."""
    clauses: Clauses = []
    add = clauses.append
    fixed = enc.fixed_letters
    eq = enc.cells.eq
    for cell, ch in puzzle.shown_letters.items():
        digits = enc.cells.allowed[cell]
        if ch in fixed:
            clauses += [[-eq(cell, d)] for d in digits if d != fixed[ch]]
            if fixed[ch] not in digits:
                add([])
            continue
        row = rows[ch]
        for d in letter_digits(enc, ch):
            if d not in digits:  # 0, or a digit the cell lost
                add([-row[d]])
        for d in digits:
            if not row[d]:  # a digit the letter lost
                add([-eq(cell, d)])
                continue
            x = eq(cell, d)
            add([-x, row[d]])
            add([x, -row[d]])
    return clauses


@cache
def _letter_totals(
    length: int, letters: int, doubled: bool, tens: int, units: int
) -> tuple[int, ...]:
    """The totals a letter clue of this shape can stand for in a run of ``length`` cells,
    its tens letter's digits in ``tens`` and its units letter's in ``units`` (bit d: digit
    d may be that letter's).  Cached: a data set's runs share a few dozen shapes, and
    enumerating the 90 two-letter values per run took a quarter of a presolved cryptic
    puzzle's encoding."""
    if letters == 1:
        values = [s for s in range(10) if units >> s & 1]
    else:
        values = [
            10 * a + b
            for a in range(1, 10)
            for b in range(10)
            if (a == b) == doubled and tens >> a & 1 and units >> b & 1
        ]
    return tuple(s for s in values if combos.count(length, s))


def _feasible(enc: Pool, run: Run) -> list[int]:
    """The totals the run's clue can stand for, given the letters' remaining digits."""
    length = len(run)
    clue = run.clue
    if clue is None:
        return [s for s in combos.feasible_sums(length) if combos.count(length, s)]
    if clue.letters is None:
        return [s for s in clue_values(run) if combos.count(length, s)]
    first, last = clue.letters[0], clue.letters[-1]
    masks = enc.letter_masks
    tens = masks.get(first, combos.ALL_LETTER_DIGITS)
    units = masks.get(last, combos.ALL_LETTER_DIGITS)
    return list(_letter_totals(length, len(clue.letters), first == last, tens, units))


def _letter_guards(
    enc: Pool, letters: str, feasible: list[int]
) -> tuple[dict[int, int], Clauses]:
    """``guards=literal``: when each feasible total of a letter clue is one letter's digit
    (a one-letter clue; a doubled letter, ``AA``; two letters whose totals share their tens
    digit, which becomes a unit), the guards are those letter literals and only the digits of
    no feasible total need clauses (units); else empty guards (the caller makes its own)."""
    first, second = letters[0], letters[-1]
    clauses: Clauses = []
    if len(letters) == 1:
        owner, digit = first, list(feasible)
    elif first == second:
        owner, digit = first, [s // 10 for s in feasible]
    else:
        tens = {s // 10 for s in feasible}
        if len(tens) > 1:
            return {}, []
        owner, digit = second, [s % 10 for s in feasible]
        if first not in enc.fixed_letters:  # a decided letter is its digit: no unit
            clauses.append([letter(enc, first, tens.pop())])
    row = letter_row(enc, owner)
    clauses += [[-row[d]] for d in letter_digits(enc, owner) if d not in digit]
    return {s: row[d] for s, d in zip(feasible, digit, strict=True)}, clauses


def run_targets(
    enc: Pool, index: int, run: Run, ties: str = "split", named: str = "literal"
) -> tuple[list[Target], Clauses]:
    """The run's (total, guard) pairs, and the clauses that define the guards (their
    exactly-one; for letter clues, their ties to the letters).  An impossible clue yields no
    target (and an empty clause).  A letter clue left with one feasible total is a known
    total: its letters become units, and no guard.  ``named`` is the spec's ``guards`` part:
    with ``literal``, a guard that would be equivalent to one letter literal is that literal
    (:func:`_letter_guards`)."""
    clue = run.clue
    if clue is not None and clue.value is not None:
        if not combos.count(len(run), clue.value):
            return [], [[]]
        return [(clue.value, None)], []
    feasible = _feasible(enc, run)
    if not feasible:
        return [], [[]]
    if clue is None or clue.letters is None:
        ids = enc.vars([("sum", index, s) for s in feasible])
        guards = dict(zip(feasible, ids, strict=True))
        return list(guards.items()), enc.one_of(list(guards.values()))
    return _letter_targets(enc, index, clue.letters, feasible, ties, named)


def _letter_targets(
    enc: Pool, index: int, letters: str, feasible: list[int], ties: str, named: str
) -> tuple[list[Target], Clauses]:
    """:func:`run_targets` for a letter clue with these feasible totals."""
    clauses: Clauses = []
    add = clauses.append
    first, second = letters[0], letters[-1]
    fixed = enc.fixed_letters  # a decided letter's digit is true: no clause
    if len(feasible) == 1:
        (total,) = feasible
        if second not in fixed:
            add([letter(enc, second, total % 10)])
        if len(letters) == 2 and first not in fixed:
            add([letter(enc, first, total // 10)])
        return [(total, None)], clauses
    if named == "literal":
        literals, defined = _letter_guards(enc, letters, feasible)
        if literals:
            return list(literals.items()), defined
    ids = enc.vars([("sum", index, s) for s in feasible])
    if len(letters) == 2 and ties == "split" and not enc.letter_masks:
        # the usual case: the clauses follow the feasible sums alone
        items = [*ids, *letter_row(enc, first), *letter_row(enc, second)]
        items += list(map(neg, items))
        template = _two_letter_ties(tuple(feasible), first == second)
        return list(zip(feasible, ids, strict=True)), template.clauses(items)
    guards = dict(zip(feasible, ids, strict=True))
    # At-most-one guard follows from the letters' one-hots (each guard implies its
    # letters' digits), so only at-least-one is written.
    add(list(guards.values()))
    return list(guards.items()), clauses + _guard_ties(enc, letters, guards, ties)


def _guard_ties(enc: Pool, letters: str, guards: dict[int, int], ties: str) -> Clauses:
    """The clauses tying a letter clue's own guards to its letters: a one-letter clue's
    guard is equivalent to its letter's digit; a two-letter clue's guard implies both
    digits (the tens not 0), and the ``ties`` part selects the sum from the digits."""
    clauses: Clauses = []
    add = clauses.append
    if len(letters) == 1:
        row = letter_row(enc, letters)
        for d in letter_digits(enc, letters):
            if d in guards:
                add([-guards[d], row[d]])
                add([-row[d], guards[d]])
            else:
                add([-row[d]])
        return clauses
    first, second = letters[0], letters[1]
    fixed = enc.fixed_letters  # a decided letter's digit is true: no clause
    tens, units = letter_row(enc, first), letter_row(enc, second)
    if tens[0]:
        add([-tens[0]])
    for s, g in guards.items():
        if first not in fixed:
            add([-g, tens[s // 10]])
        if second not in fixed:
            add([-g, units[s % 10]])
    return clauses + TIES[ties][0](enc, first, second, guards)


@cache
def _two_letter_ties(feasible: tuple[int, ...], doubled: bool) -> Template:
    """The clauses :func:`run_targets` writes for a two-letter clue with ``ties=split`` and
    no presolve, in its order, over ``[guards, tens letter's row, units letter's row]`` and
    their negations: at least one guard, tens digit not 0, each guard implies its two
    digits, then :func:`_tie_split`'s ties."""
    n = len(feasible)
    tens, units = range(n, n + 10), range(n + 10, n + 20)
    size = n + 20
    out: list[tuple[int, ...]] = [tuple(range(n)), (tens[0] + size,)]
    for i, s in enumerate(feasible):
        out += [(i + size, tens[s // 10]), (i + size, units[s % 10])]
    by_tens: list[list[int]] = [[] for _ in range(10)]
    by_units: list[list[int]] = [[] for _ in range(10)]
    for i, s in enumerate(feasible):
        by_tens[s // 10].append(i)
        by_units[s % 10].append(i)
    out += [(tens[a] + size, *by_tens[a]) for a in range(1, 10)]
    if not doubled:
        out += [(units[b] + size, *by_units[b]) for b in range(10)]
    return Template.of(out)


def _tie_pairs(enc: Pool, first: str, second: str, guards: dict[int, int]) -> Clauses:
    """``X = a and Y = b -> sum_{10a+b}`` for every digit pair (a conflict without that sum)."""
    clauses: Clauses = []
    add = clauses.append
    units = letter_digits(enc, second)
    for a in letter_digits(enc, first):
        if a == 0:
            continue
        for b in units:
            if first == second and a != b:
                continue
            s = 10 * a + b
            body = [-letter(enc, first, a), -letter(enc, second, b)]
            if first == second:
                body = body[:1]
            body = [lit for lit in body if lit]  # a decided letter's digit is true
            add([*body, guards[s]] if s in guards else body)
    return clauses


def _tie_split(enc: Pool, first: str, second: str, guards: dict[int, int]) -> Clauses:
    """``X = a -> OR{sum_s : s // 10 = a}`` and ``Y = b -> OR{sum_s : s % 10 = b}`` (a unit
    ``X != a`` when no feasible sum has that digit).  For a doubled letter (``AA``, only
    multiples of 11) both ties are the same clause, written once."""
    by_tens: list[list[int]] = [[] for _ in range(10)]
    by_units: list[list[int]] = [[] for _ in range(10)]
    for s, g in guards.items():
        by_tens[s // 10].append(g)
        by_units[s % 10].append(g)
    tens, units = letter_row(enc, first), letter_row(enc, second)
    fixed = enc.fixed_letters  # a decided letter's one tie repeats the guards' at-least-one
    clauses = []
    if first not in fixed:
        clauses += [[-tens[a], *by_tens[a]] for a in letter_digits(enc, first) if a]
    if first != second and second not in fixed:
        clauses += [[-units[b], *by_units[b]] for b in letter_digits(enc, second)]
    return clauses


TieBuilder = Callable[[Pool, str, str, dict[int, int]], Clauses]

TIES: dict[str, tuple[TieBuilder, str]] = {
    "split": (
        _tie_split,
        "two-letter clues: each letter's digit tied to the feasible sums on its own (~19 "
        "clauses per run)",
    ),
    "pairs": (
        _tie_pairs,
        "two-letter clues: one clause per tens/units digit pair (~90 per run; the encoder "
        "before 2026-12, kept for its certificates)",
    ),
}
"""``ties`` part value -> (builder, doc): how a two-letter clue's digits select its sum."""
