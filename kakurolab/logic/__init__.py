"""Human deduction for standard Kakuro: named techniques, step-by-step explanations, hints
and difficulty grades.

    from kakurolab.logic import deduce, next_hint, grade
    result = deduce(puzzle)          # Deduction: steps, final state, solved?
    hint = next_hint(puzzle, State.from_digits(puzzle, digits))
"""

from .explain import Deduction, Engine, Hint, deduce, next_hint
from .state import STATE_HELP, Contradiction, State, parse_state
from .techniques import BY_NAME, TECHNIQUES, Finding, Step, Technique

__all__ = [
    "BY_NAME",
    "STATE_HELP",
    "TECHNIQUES",
    "Contradiction",
    "Deduction",
    "Engine",
    "Finding",
    "Hint",
    "State",
    "Step",
    "Technique",
    "deduce",
    "next_hint",
    "parse_state",
]
