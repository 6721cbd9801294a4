"""Parsimonious reductions to Kakuro: problems with known answers become puzzles whose
solutions map one to one onto the source's, so a count, an unsat claim or a unique answer
carries over as ground truth (issue 47 section 2).  Each reduction is its own module."""
