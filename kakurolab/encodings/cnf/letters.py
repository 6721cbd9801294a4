"""Cryptic puzzles: letter variables, the letter bijection and clue values.

Each letter is a one-hot over 0-9 (``("letter", L, d)``), exactly one digit per letter and
exactly one letter per digit (ten letters, ten digits).  A letter shown in a white cell is that
cell's digit.  Each run gets a one-hot over its feasible sums (``("sum", run, s)``); the sum
encodings constrain the cells under these guards, and here the guards are tied to the clue:

* one letter ``L``: ``sum_s <-> L = s``;
* two letters ``XY``: ``sum_s -> X = s // 10 and Y = s % 10``, ``X = a and Y = b -> sum_{10a+b}``
  (or a conflict when ``10a + b`` is no feasible sum), and ``X != 0``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ... import combos
from ...check import clue_values
from ...model import LETTERS, Run

if TYPE_CHECKING:
    from . import CNFEncoding
    from .sums import Target


def letter(enc: CNFEncoding, ch: str, d: int) -> int:
    """The literal ``letter ch = d`` (all 100 are made at once, in A0..J9 order)."""
    table = enc.letter_ids
    if not table:
        table.update({(c, v): enc.var("letter", c, v) for c in LETTERS for v in range(10)})
    return table[(ch, d)]


def encode_letters(enc: CNFEncoding) -> None:
    """The bijection between letters and digits, and shown letters tied to their cells."""
    for ch in LETTERS:
        enc.exactly_one([letter(enc, ch, d) for d in range(10)])
    for d in range(10):
        enc.exactly_one([letter(enc, ch, d) for ch in LETTERS])
    add = enc.clauses.append
    for cell, ch in enc.puzzle.shown_letters.items():
        allowed = enc.cells.allowed[cell]
        add([-letter(enc, ch, 0)])  # white cells hold 1-9
        for d in range(1, 10):
            lit = letter(enc, ch, d)
            if d not in allowed:
                add([-lit])
                continue
            x = enc.cells.eq(cell, d)
            add([-x, lit])
            add([x, -lit])


def run_targets(enc: CNFEncoding, index: int, run: Run) -> list[Target]:
    """The run's (total, guard) pairs; for letter clues also the clauses tying guards to
    letters.  An impossible clue yields no target (and an empty clause)."""
    length = len(run)
    clue = run.clue
    if clue is not None and clue.value is not None:
        if not combos.count(length, clue.value):
            enc.clauses.append([])
            return []
        return [(clue.value, None)]
    values = clue_values(run) if clue is not None else combos.feasible_sums(length)
    feasible = [s for s in values if combos.count(length, s)]
    if not feasible:
        enc.clauses.append([])
        return []
    guards = {s: enc.var("sum", index, s) for s in feasible}
    enc.exactly_one(list(guards.values()))
    add = enc.clauses.append
    if clue is not None and clue.letters is not None:
        if len(clue.letters) == 1:
            ch = clue.letters
            for d in range(10):
                if d in guards:
                    add([-guards[d], letter(enc, ch, d)])
                    add([-letter(enc, ch, d), guards[d]])
                else:
                    add([-letter(enc, ch, d)])
        else:
            first, second = clue.letters
            add([-letter(enc, first, 0)])
            for s, g in guards.items():
                add([-g, letter(enc, first, s // 10)])
                add([-g, letter(enc, second, s % 10)])
            for a in range(1, 10):
                for b in range(10):
                    if first == second and a != b:
                        continue
                    s = 10 * a + b
                    body = [-letter(enc, first, a), -letter(enc, second, b)]
                    if first == second:
                        body = body[:1]
                    add([*body, guards[s]] if s in guards else body)
    return list(guards.items())
