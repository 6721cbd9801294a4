"""Helpers several test files share, written once: outside tools run in-process and the
small project a config test needs."""

from __future__ import annotations

from pathlib import Path


def cvc5_answers(text: str) -> list[str]:
    """Run an SMT-LIB2 text through cvc5's own parser; the non-empty command outputs."""
    import cvc5  # core under the conftest rule: a missing cvc5 fails, never skips

    solver = cvc5.Solver(cvc5.TermManager())
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "kakuro")
    symbols = parser.getSymbolManager()
    outputs = []
    while not (command := parser.nextCommand()).isNull():
        outputs.append(command.invoke(solver, symbols).strip())
    return [out for out in outputs if out]


def write_config(root: Path, text: str, name: str = "t") -> Path:
    """A project root (pyproject.toml marks it) with experiments/<name>.toml."""
    (root / "pyproject.toml").touch()
    (root / "experiments").mkdir(exist_ok=True)
    path = root / "experiments" / f"{name}.toml"
    path.write_text(text)
    return path
