"""Human deduction for Kakuro (standard and cryptic): named techniques, step-by-step
explanations, hints and difficulty grades.

    from kakurolab.logic import deduce, next_hint, grade
    result = deduce(puzzle)          # Deduction: steps, final state, solved?
    hint = next_hint(puzzle, State.from_digits(puzzle, digits))
"""

from .candidates import STATE_HELP, Contradiction, State, parse_state
from .explain import Deduction, Engine, Hint, deduce, explain_puzzle, next_hint
from .grading import Grade, grade
from .ladder import BY_NAME, PURE, SOUND, TECHNIQUES
from .techniques import Finding, Step, Technique

__all__ = [
    "BY_NAME",
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
    "deduce",
    "explain_puzzle",
    "grade",
    "next_hint",
    "parse_state",
]
