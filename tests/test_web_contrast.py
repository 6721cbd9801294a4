"""The rulebook's promise to colour-blind and visually impaired players (1.3), checked on the
themes' colours in ``static/style.css``: every text colour against the surfaces it is drawn
on meets WCAG 2.1 AA (4.5:1; a finished clue's greyed figures and the end screen's solution
digits are text too: issue 45 found parchment's at 4.17:1), and non-text marks (focus rings,
grid lines, hint outlines, arrow badges) meet the 3:1 of success criterion 1.4.11; the
high-contrast theme (issue 50) meets AAA, 7:1 for text, and 4.5:1 for marks.  Direction
never relies on colour (the arrow badges) and wrong entries are struck through: those are
drawn shapes, tested in the browser tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parents[1] / "kakurolab" / "web" / "static" / "style.css"
THEMES = ("slate", "parchment", "contrast")
TEXT_LEAST = {"slate": 4.5, "parchment": 4.5, "contrast": 7.0}
"""WCAG AA for text in the two rulebook themes, AAA (1.4.6) in the high-contrast one."""
MARK_LEAST = {"slate": 3.0, "parchment": 3.0, "contrast": 4.5}

TEXT = [  # (foreground, background): text, 4.5:1
    ("text", "bg"), ("text", "panel"), ("muted", "panel"), ("muted", "bg"), ("accent", "panel"),
    ("button-ink", "button"), ("clue-ink", "clue"),
    ("digit", "white"), ("digit", "white-run"), ("digit", "white-sel"),
    ("locked", "white"), ("locked", "white-run"), ("locked", "white-sel"),
    ("mark", "white"), ("mark", "white-run"), ("mark", "white-sel"),
    ("error", "error-bg"), ("error", "white"),
    ("clue-done", "clue"),  # a finished entry's clue figures are still text (issue 45)
    ("solution", "white"), ("solution", "white-run"), ("solution", "white-sel"),
    ("solution", "error-bg"),
    # issue 50: the selected digit's copies lit, struck pencil marks, the candidates view
    ("digit", "white-same"), ("locked", "white-same"),
    ("mark-same", "white"), ("mark-same", "white-run"), ("mark-same", "white-sel"),
    ("mark-out", "white"), ("mark-out", "white-run"), ("mark-out", "white-sel"),
    ("cand", "white"), ("cand", "white-run"), ("cand", "white-sel"),
]  # fmt: skip
MARKS = [  # (foreground, background): non-text, 3:1
    ("focus", "bg"), ("focus", "panel"), ("focus-cell", "white-sel"), ("focus-cell", "white"),
    ("hint", "white"), ("grid-line", "white"), ("clue-ink", "clue"), ("clue-sel", "clue"),
]  # fmt: skip


def theme_colours(theme: str) -> dict[str, str]:
    """The ``--name: #rrggbb`` custom properties of one theme's block."""
    css = CSS.read_text(encoding="utf-8")
    selector = re.escape(f'[data-theme="{theme}"]')
    block = re.search(selector + r"\s*\{(.*?)\}", css, re.S)
    assert block, f"no {theme} block in {CSS.name}"
    return dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})\s*;", block.group(1)))


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance of an sRGB colour."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # WCAG's known edge
    assert contrast("#ffffff", "#ffffff") == pytest.approx(1.0)


@pytest.mark.parametrize("theme", THEMES)
def test_both_themes_define_every_colour(theme: str) -> None:
    colours = theme_colours(theme)
    needed = {name for pair in TEXT + MARKS for name in pair}
    assert needed <= set(colours), sorted(needed - set(colours))


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize(("fg", "bg", "kind"), [(f, b, "text") for f, b in TEXT]
                         + [(f, b, "mark") for f, b in MARKS])  # fmt: skip
def test_theme_contrast_meets_wcag(theme: str, fg: str, bg: str, kind: str) -> None:
    colours = theme_colours(theme)
    least = (TEXT_LEAST if kind == "text" else MARK_LEAST)[theme]
    ratio = contrast(colours[fg], colours[bg])
    assert ratio >= least, f"{theme}: --{fg} on --{bg} is {ratio:.2f}:1, needs {least}:1"


def test_the_same_digit_highlight_stands_apart_from_the_cell() -> None:
    """A lit copy of the selected digit is told from a plain white cell by more than a hue
    step on every theme (1.4.11's 3:1 is for lines; a fill change needs only to be seen)."""
    for theme in THEMES:
        colours = theme_colours(theme)
        ratio = contrast(colours["white-same"], colours["white"])
        assert ratio >= 1.15, f"{theme}: --white-same is {ratio:.2f}:1 from --white"


@pytest.mark.parametrize("theme", THEMES)
def test_finished_clues_stay_visibly_grey(theme: str) -> None:
    """Greyed, yet readable: a finished clue's figures meet AA on the clue cell (above) and
    still stand apart from an open clue's white figures."""
    colours = theme_colours(theme)
    ratio = contrast(colours["clue-ink"], colours["clue-done"])
    assert ratio >= 2.5, f"{theme}: --clue-done is {ratio:.2f}:1 from --clue-ink"
