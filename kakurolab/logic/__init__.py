"""Human deduction for Kakuro (standard and cryptic): named techniques, step-by-step
explanations, hints and difficulty grades.

    from kakurolab.logic import deduce, next_hint, grade
    result = deduce(puzzle)          # Deduction: steps, final state, solved?
    hint = next_hint(puzzle, State.from_digits(puzzle, digits))
"""

from .candidates import STATE_HELP, Contradiction, State, cell_name, parse_state
from .engine import Engine
from .explain import Deduction, Hint, candidates_text, deduce, explain_puzzle, next_hint
from .grading import GRADES, Grade, grade, spearman
from .ladder import BY_NAME, PURE, SOUND, TECHNIQUES
from .techniques import Finding, Step, Technique, cross_candidates

__all__ = [
    "BY_NAME",
    "GRADES",
    "PURE",
    "SOUND",
    "STATE_HELP",
    "TECHNIQUES",
    "Contradiction",
    "Deduction",
    "Engine",
    "Finding",
    "Grade",
    "Hint",
    "State",
    "Step",
    "Technique",
    "candidates_text",
    "cell_name",
    "cross_candidates",
    "deduce",
    "explain_puzzle",
    "grade",
    "next_hint",
    "parse_state",
    "spearman",
]
