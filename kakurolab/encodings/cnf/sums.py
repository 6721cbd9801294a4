"""Run-sum encodings: ``the digits of a run add up to its clue``.

Every builder receives the run's *targets*: ``(total, guard)`` pairs.  A standard clue gives
one target with no guard; a cryptic clue gives one target per feasible sum, guarded by that
sum's literal in the run's sum one-hot (see :mod:`.letters`), so the same builders serve both
kinds of puzzle:

* ``combo`` / ``table`` / ``mdd`` tie their selectors (digit set, tuple, final MDD node) to
  the guard of the sum they reach: ``selector -> guard`` and ``guard -> OR selectors``.
* ``pb`` writes one equality ``sum(cells) = clue``; for a cryptic clue the chosen total is
  channelled to binary bits (``guard_s -> bits of s``) and the equality becomes
  ``sum(cells) + sum(2^i * -bit_i) = 2^k - 1``.
* ``lazy`` writes nothing: :meth:`CNFEncoding.cuts` checks sums on each model and returns
  cuts (counterexample-guided), which the solving session adds.

A builder works like ``pysat.card.CardEnc.atmost(lits, bound, vpool)``: it takes the variable
pool (a :class:`.pool.Pool`: named variables, the cells' literals, the at-most-one encoding)
and *returns* the run's clauses.  :data:`SUMS` holds one :class:`SumEncoding` record per encoding,
the only place its facts live: adding a sum encoding is adding one record there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import chain, combinations, permutations
from math import comb
from operator import neg

from ... import combos
from ...model import Cell, Run
from .pool import Clauses, Pick, Pool, Template, picker

Target = tuple[int, int | None]
"""A reachable total of a run and the literal that selects it (None: always)."""

SumBuilder = Callable[[Pool, int, Run, list[Target], "str | None"], Clauses]
"""``build(pool, run index, run, targets, arg) -> clauses``."""

TABLE_CAP = 2000
"""At most this many ordered tuples per run for ``sum=table``; beyond it, ``combo``."""

MDD_CAP = 512
"""At most this many MDD nodes per run for ``sum=mdd``; beyond it, ``combo``."""

PB_ENCODINGS = (
    "best",
    "bdd",
    "seqcounter",
    "sortnetwrk",
    "adder",
    "binmerge",
    "totalizer",
    "mixedradix",
    "watchdog",
)


def _guard_links(targets: list[Target], selectors: dict[int, list[int]]) -> Clauses:
    """``selector -> guard`` and ``guard -> OR selectors`` for each guarded total."""
    out: Clauses = []
    add = out.append
    for total, guard in targets:
        if guard is None:
            continue
        sels = selectors.get(total, [])
        for sel in sels:
            add([-sel, guard])
        add([-guard, *sels])
    return out


@dataclass(frozen=True)
class ComboLayout:
    """The digit sets of one run shape, in the order ``encode_combo`` numbers their selectors:
    per total (in the targets' order) its admissible sets, then per digit the positions (in
    that flat order) of the sets holding it.  Cached per (length, totals, digits present), so
    the hundreds of runs of a data set with one shape share the set arithmetic."""

    masks: tuple[int, ...]
    spans: tuple[tuple[int, int], ...]
    """Per total, the slice of ``masks`` holding its sets."""
    holders: tuple[tuple[int, ...], ...]
    """Per digit 0-9, the positions in ``masks`` of the sets holding it (0: none)."""


@cache
def combo_layout(length: int, totals: tuple[int, ...], present: int) -> ComboLayout:
    masks: list[int] = []
    spans = []
    for total in totals:
        first = len(masks)
        masks += [m for m in combos.combos(length, total) if not m & ~present]
        spans.append((first, len(masks)))
    holders = tuple(
        tuple(i for i, m in enumerate(masks) if m >> (d - 1) & 1) if d else ()
        for d in range(10)
    )
    return ComboLayout(tuple(masks), tuple(spans), holders)


@dataclass(frozen=True)
class ExclusionLayout:
    """A guarded run's clauses under ``sets=exclude`` as digit patterns: the digit sets over
    the run's digits whose sum is a feasible total (the clause ``not all occur, or that
    total's guard``) and those whose sum is none (``not all occur``), each as ``length``
    columns of digits (the k-th digit of every set, so one ``zip`` of picked literals writes
    them all) plus, for the first kind, the column of total positions; per total, the digits
    its guard forbids (no set of that total holds them) or demands (every set of it does);
    the totals no set reaches.  Cached per (length, totals, digits present), like
    :class:`ComboLayout`."""

    guarded: tuple[Pick, ...]
    """Per position k < length, the k-th digits of the sets with a feasible sum; last, the
    positions of their sums among the totals."""
    banned: tuple[Pick, ...]
    """Per position k, the k-th digits of the sets whose sum is no feasible total."""
    forbids: tuple[tuple[int, int], ...]
    """``(total position, digit)``: the guard implies the digit occurs nowhere in the run."""
    demands: tuple[tuple[int, int], ...]
    """``(total position, digit)``: the guard implies the digit occurs in the run."""
    dead: tuple[int, ...]


@cache
def exclusion_layout(length: int, totals: tuple[int, ...], present: int) -> ExclusionLayout | None:
    """The run's :class:`ExclusionLayout`, or None when selectors cost fewer clauses: ``sets=
    exclude`` writes one clause per digit set over the present digits, selectors write about
    ``length - 1`` occurrence links per admissible set more than that, so exclusion pays on
    cryptic runs whose many feasible totals admit most sets (it does from length 3 on PE424)."""
    digits = combos.digits_of(present)
    layout = combo_layout(length, totals, present)
    if len(layout.masks) * (length - 1) <= comb(len(digits), length):
        return None
    position = {total: i for i, total in enumerate(totals)}
    guarded: list[tuple[int, ...]] = []
    at: list[int] = []
    banned: list[tuple[int, ...]] = []
    for chosen in combinations(digits, length):
        i = position.get(sum(chosen))
        if i is None:
            banned.append(chosen)
        else:
            guarded.append(chosen)
            at.append(i)
    forbids, demands, dead = [], [], []
    for i, (first, last) in enumerate(layout.spans):
        masks = layout.masks[first:last]
        if not masks:
            dead.append(i)
            continue
        union, common = 0, present
        for m in masks:
            union |= m
            common &= m
        forbids += [(i, d) for d in combos.digits_of(present & ~union)]
        demands += [(i, d) for d in combos.digits_of(common)]
    return ExclusionLayout(
        tuple(map(picker, (*zip(*guarded, strict=True), tuple(at)))) if guarded else (),
        tuple(map(picker, zip(*banned, strict=True))),
        tuple(forbids),
        tuple(demands),
        tuple(dead),
    )


def _encode_exclusion(
    enc: Pool, index: int, by_digit: list[list[int]], guards: list[int], layout: ExclusionLayout
) -> Clauses:
    """``sets=exclude``: per digit set, ``its digits all occur -> the guard of its sum`` (a
    plain conflict when its sum is no feasible total), over occurrence literals, plus each
    guard's forbidden and demanded digits.  Complete with the explicit all-different (the
    run's ``length`` cells then show exactly one set), and no selector variables at all."""
    clauses: Clauses = []
    occ = [0] * 10
    var = enc.var
    for d in range(1, 10):
        cell_lits = by_digit[d]
        if len(cell_lits) == 1:
            occ[d] = cell_lits[0]
        elif cell_lits:
            o = occ[d] = var("occurs", index, d)
            clauses.extend([[-lit, o] for lit in cell_lits])
            clauses.append([-o, *cell_lits])
    neg = [-o for o in occ]
    if layout.guarded:
        *digits, at = layout.guarded
        columns = [pick(neg) for pick in digits]
        clauses.extend(map(list, zip(*columns, at(guards), strict=True)))
    clauses.extend(map(list, zip(*[pick(neg) for pick in layout.banned], strict=True)))
    clauses.extend([[-guards[i], neg[d]] for i, d in layout.forbids])
    clauses.extend([[-guards[i], occ[d]] for i, d in layout.demands])
    clauses.extend([[-guards[i]] for i in layout.dead])
    return clauses


def _held(by_digit: list[list[int]]) -> int:
    """The digits (mask) some cell of the run may take."""
    held = 0
    for d in range(1, 10):
        if by_digit[d]:
            held |= 1 << (d - 1)
    return held


def encode_combo(
    enc: Pool, index: int, run: Run, targets: list[Target], arg: str | None = None
) -> Clauses:
    """One selector per admissible digit set; exactly one chosen; digit d occurs in the run
    iff the chosen set holds d.  Digits of no admissible set are removed outright.

    ``combo:lean`` writes only at-least-one selector: two chosen sets of ``length`` digits
    would need more than ``length`` digits to occur, so at-most-one follows (with less
    propagation but far fewer clauses on cryptic runs, which admit up to 126 sets).  On a
    guarded run where that still costs more than one clause per digit set, and the spec
    encodes the all-different (``enc.exclusion``), ``lean`` writes no selectors at all
    (:func:`exclusion_layout`)."""
    length = len(run.cells)
    by_digit = enc.cells.by_digit(run.cells)
    clauses: Clauses = []
    held = _held(by_digit)
    totals = tuple(total for total, _ in targets)
    # with a presolve many sets hold a digit no cell of the run may take: dead sets
    present = held if enc.presolved else combos.ALL_DIGITS
    if arg == "lean" and enc.exclusion and targets[0][1] is not None:
        found = exclusion_layout(length, totals, held)
        if found is not None:
            guards = [g for _, g in targets if g is not None]
            return _encode_exclusion(enc, index, by_digit, guards, found)
    if len(targets) == 1 and targets[0][1] is None:
        sets = [m for m in combos.combos(length, targets[0][0]) if not m & ~present]
        if len(sets) == 1:  # one admissible set (domains already pruned): each digit occurs
            clauses.extend([by_digit[d] for d in combos.digits_of(sets[0])])
            return clauses
    layout = combo_layout(length, totals, present)
    all_sels = enc.vars([("combo", index, mask) for mask in layout.masks])
    if arg == "lean":  # at-most-one is implied: two chosen sets would need too many digits
        clauses.append(all_sels)
    else:
        clauses += enc.one_of(all_sels)
    guarded = tuple(guard is not None for _, guard in targets)
    shape = _selector_links(length, totals, present, guarded, tuple(map(len, by_digit)))
    occs = enc.vars([("occurs", index, d) for d in shape.occurs])
    guards = [guard for _, guard in targets if guard is not None]
    items = [*all_sels, *guards, *chain.from_iterable(by_digit), *occs]
    items += list(map(neg, items))  # a list first: a bare map would read what it extends
    clauses += shape.template.clauses(items)
    return clauses


@dataclass(frozen=True)
class SelectorLinks:
    """The clauses ``encode_combo`` writes after its selectors' at-least-one (or exactly-one)
    for one run shape: the digits that get an occurrence literal, and a :class:`.pool.Template`
    over ``[selectors, guards, the cells' literals by digit, occurrence literals]`` followed by
    their negations."""

    occurs: tuple[int, ...]
    template: Template


@cache
def _selector_links(
    length: int, totals: tuple[int, ...], present: int, guarded: tuple[bool, ...],
    sizes: tuple[int, ...],
) -> SelectorLinks:
    """Guard links (``selector -> guard``, ``guard -> OR selectors`` per guarded total), then
    per digit d: a cell holds d <-> the chosen set holds d (a unit ``-lit`` if no set does).
    Cryptic runs admit many sets: where a digit has several cells and more than two sets, an
    occurrence literal carries both directions, so each set costs binary clauses instead of
    one clause over all the run's cells per digit.  ``sizes``: per digit, its cells."""
    layout = combo_layout(length, totals, present)
    n_sels = len(layout.masks)
    guard_at = []
    position = n_sels
    for flag in guarded:
        guard_at.append(position if flag else -1)
        position += flag
    cells_at = []
    for size in sizes:
        cells_at.append(tuple(range(position, position + size)))
        position += size
    occurs = tuple(
        d for d in range(1, 10) if sizes[d] > 1 and len(layout.holders[d]) > 2
    )
    occ_at = {d: position + k for k, d in enumerate(occurs)}
    total = position + len(occurs)

    def neg(i: int) -> int:
        return i + total

    out: list[tuple[int, ...]] = []
    for (first, last), g in zip(layout.spans, guard_at, strict=True):
        if g < 0:
            continue
        span = range(first, last)
        out += [(neg(sel), g) for sel in span]
        out.append((neg(g), *span))
    for d in range(1, 10):
        lits, sels = cells_at[d], layout.holders[d]
        if d in occ_at:
            occ = occ_at[d]
            out += [(neg(lit), occ) for lit in lits]
            out.append((neg(occ), *sels))
            out.append((neg(occ), *lits))
            out += [(neg(sel), occ) for sel in sels]
        else:
            out += [(neg(lit), *sels) for lit in lits]
            out += [(neg(sel), *lits) for sel in sels]
    return SelectorLinks(occurs, Template.of(out))


@cache
def _tuples(length: int, total: int) -> tuple[tuple[int, ...], ...]:
    return tuple(
        t for mask in combos.combos(length, total) for t in permutations(combos.digits_of(mask))
    )


def encode_table(
    enc: Pool, index: int, run: Run, targets: list[Target], arg: str | None = None
) -> Clauses:
    """Support encoding of the run's admissible ordered tuples: a tuple literal implies its
    digits, each cell value implies some tuple supporting it.  GAC by unit propagation."""
    length = len(run)
    size = sum(len(_tuples(length, total)) for total, _ in targets)
    if size > TABLE_CAP:
        enc.note(f"sum=table: run {run.name} has {size} tuples (cap {TABLE_CAP}); used combo")
        return encode_combo(enc, index, run, targets)
    allowed = [enc.cells.allowed[cell] for cell in run.cells]
    cell_lits = [
        {d: enc.cells.eq(cell, d) for d in ok} for cell, ok in zip(run.cells, allowed, strict=True)
    ]
    out: Clauses = []
    add = out.append
    support: list[list[list[int]]] = [[[] for _ in range(10)] for _ in run.cells]
    by_total: dict[int, list[int]] = {}
    for total, _guard in targets:
        sels = by_total.setdefault(total, [])
        for t in _tuples(length, total):
            if any(d not in lits for d, lits in zip(t, cell_lits, strict=True)):
                continue  # a digit outside its cell's domain: the tuple is dead
            sel = enc.var("tuple", index, t)
            sels.append(sel)
            for i, d in enumerate(t):
                add([-sel, cell_lits[i][d]])
                support[i][d].append(sel)
    out += _guard_links(targets, by_total)
    for i in range(length):
        for d, lit in cell_lits[i].items():
            add([-lit, *support[i][d]])
    return out


@cache
def _mdd_nodes(length: int, totals: tuple[int, ...]) -> tuple[frozenset[int], ...]:
    """Per layer k, the digit sets of size k that extend to an admissible final set."""
    finals = [m for total in totals for m in combos.combos(length, total)]
    layers: list[set[int]] = [set() for _ in range(length + 1)]
    for final in finals:
        sub = final
        while True:  # every subset of the final set is a node at layer popcount(subset)
            layers[sub.bit_count()].add(sub)
            if sub == 0:
                break
            sub = (sub - 1) & final
    return tuple(frozenset(layer) for layer in layers)


def encode_mdd(
    enc: Pool, index: int, run: Run, targets: list[Target], arg: str | None = None
) -> Clauses:
    """The run as an MDD over (position, digits used so far), Abío & Stuckey style: node and
    edge literals; unit propagation enforces GAC on sum + all-different of the run."""
    length = len(run)
    totals = tuple(sorted(total for total, _ in targets))
    layers = _mdd_nodes(length, totals)
    n_nodes = sum(len(layer) for layer in layers)
    if n_nodes > MDD_CAP:
        enc.note(f"sum=mdd: run {run.name} needs {n_nodes} nodes (cap {MDD_CAP}); used combo")
        return encode_combo(enc, index, run, targets)
    if not layers[length]:
        return [[]]
    clauses: Clauses = []
    add = clauses.append
    add([enc.var("node", index, 0, 0)])
    incoming: dict[int, list[int]] = {}
    for k, cell in enumerate(run.cells):
        clauses += _mdd_layer(enc, index, k, cell, layers, incoming)
    finals: dict[int, list[int]] = {}
    for m in layers[length]:
        finals.setdefault(combos.mask_sum(m), []).append(enc.var("node", index, length, m))
    clauses += _guard_links(targets, finals)
    return clauses


def _mdd_layer(
    enc: Pool,
    index: int,
    k: int,
    cell: Cell,
    layers: tuple[frozenset[int], ...],
    incoming: dict[int, list[int]],
) -> Clauses:
    """The nodes of layer ``k`` of :func:`encode_mdd`'s diagram: their edges to layer
    ``k + 1`` (labelled by ``cell``'s digits), each digit's support, and each child's
    incoming edges (``incoming`` gathers them)."""
    clauses: Clauses = []
    add = clauses.append
    var = enc.var
    digits = enc.cells.allowed[cell]
    labels: dict[int, list[int]] = {d: [] for d in digits}
    children = layers[k + 1]
    for m in layers[k]:
        parent = var("node", index, k, m)
        out = []
        for d in digits:
            b = 1 << (d - 1)
            eq = enc.cells.eq(cell, d)
            if m & b or (m | b) not in children:
                add([-parent, -eq])  # node and label lead to the false terminal
                continue
            edge = var("edge", index, k, m, d)
            child = var("node", index, k + 1, m | b)
            add([-edge, parent])
            add([-edge, eq])
            add([-edge, child])
            add([-parent, -eq, edge])
            out.append(edge)
            labels[d].append(edge)
            incoming.setdefault(child, []).append(edge)
        add([-parent, *out])
    for d in digits:
        add([-enc.cells.eq(cell, d), *labels[d]])  # every value supported at its layer
    for m in children:
        child = var("node", index, k + 1, m)
        add([-child, *incoming.get(child, ())])
    return clauses


def encode_pb(
    enc: Pool, index: int, run: Run, targets: list[Target], arg: str | None = None
) -> Clauses:
    """One pseudo-Boolean equality through ``pysat.pb`` (the encoding named by ``arg``)."""
    from pysat.pb import EncType, PBEnc

    lits: list[int] = []
    weights: list[int] = []
    out: Clauses = []
    offset = 0
    for cell in run.cells:
        ls, ws, off = enc.cells.pb_terms(cell)
        lits += ls
        weights += ws
        offset += off
    if len(targets) == 1 and targets[0][1] is None:
        bound = targets[0][0] - offset
    else:
        # The chosen total in binary: guard_s -> bits of s (and back); then
        # sum(cells) + sum(2^i * -bit_i) = 2^k - 1 says the cells add up to it.  Six small
        # terms instead of one weight-s term per feasible total keep the PB small.
        width = max(total for total, _ in targets).bit_length()
        bits = [enc.var("sumbit", index, i) for i in range(width)]
        add = out.append
        for total, guard in targets:
            assert guard is not None
            pattern = [b if total >> i & 1 else -b for i, b in enumerate(bits)]
            for lit in pattern:
                add([-guard, lit])
            add([guard, *(-lit for lit in pattern)])
        lits += [-b for b in bits]
        weights += [1 << i for i in range(width)]
        bound = (1 << width) - 1 - offset
    if bound < 0:
        return [*out, []]
    formula = PBEnc.equals(
        lits=lits,
        weights=weights,
        bound=bound,
        vpool=enc.pool,
        encoding=getattr(EncType, arg or "best"),
    )
    return out + formula.clauses


def encode_lazy(
    enc: Pool, index: int, run: Run, targets: list[Target], arg: str | None = None
) -> Clauses:
    """Nothing up front: the solver loop checks the run's sum and cuts bad assignments."""
    return []


@dataclass(frozen=True)
class SumEncoding:
    """One sum encoding and every fact the package knows about it.

    ``args`` are the values accepted after a colon (``pb:bdd``), the default first.
    ``implies_alldiff``: its clauses already forbid repeated digits in a run, so
    ``alldiff=none`` is its default.  ``prunes``: it removes digits of no admissible digit
    set (as ``redundant=domain`` does).  ``lazy``: it leaves the sum out of the formula, and
    :meth:`CNFEncoding.cuts` checks it on each model instead.
    """

    name: str
    build: SumBuilder
    doc: str
    args: tuple[str, ...] = ()
    implies_alldiff: bool = False
    prunes: bool = False
    lazy: bool = False


SUMS: dict[str, SumEncoding] = {
    record.name: record
    for record in (
        SumEncoding(
            "combo",
            encode_combo,
            "one selector per admissible digit set, exactly one chosen (arg lean: at-least-one)",
            args=("full", "lean"),
            implies_alldiff=True,
            prunes=True,
        ),
        SumEncoding(
            "table",
            encode_table,
            f"support encoding of the admissible ordered tuples (GAC; > {TABLE_CAP} tuples: combo)",
            implies_alldiff=True,
            prunes=True,
        ),
        SumEncoding(
            "mdd",
            encode_mdd,
            f"MDD over (position, digits used), node+edge literals (GAC; > {MDD_CAP} nodes: combo)",
            implies_alldiff=True,
            prunes=True,
        ),
        SumEncoding(
            "pb",
            encode_pb,
            "pseudo-Boolean equality through pysat.pb (arg: its encoding)",
            args=PB_ENCODINGS,
        ),
        SumEncoding(
            "lazy",
            encode_lazy,
            "no clauses: the solver loop checks sums and adds cuts",
            lazy=True,
        ),
    )
}
"""Sum encoding name -> its record: the one registry of sum encodings."""
