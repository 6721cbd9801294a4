"""Generated documentation pages, above encodings, backends and the benchmark.

``kakuro encodings --table-md`` writes ``docs/encodings.md`` (:mod:`.encodings`: sizes and
unit-propagation strength of every encoding) and ``kakuro encodings --smt-md`` writes
``docs/encodings-smt.md`` (:mod:`.smt`: the SMT encodings and their same-run speed).
"""
