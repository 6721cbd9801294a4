"""The API reference's examples run, and every public name in the reference has one.

The reference (docs/api/*.md, built by mkdocs + mkdocstrings) documents each public name with
a ``::: kakurolab.PACKAGE.NAME`` directive (or a ``## kakurolab.PACKAGE.NAME`` heading where
mkdocstrings cannot read the definition).  An example is a doctest in the name's docstring or,
for names whose modules are being reorganised, a ``pycon`` block under the name on its page.
Both kinds run here, each as one test, with the globals docs/api/index.md names: ``kl``,
``puzzle`` (the shipped standard sample), ``cryptic`` (the shipped cryptic sample) and
``tiny_config`` (a one-puzzle experiment config) and ``folder`` (the fresh folder holding it,
for files an example writes).
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

import kakurolab as kl

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "api"
SAMPLES = Path(kl.__file__).parent / "data" / "samples"

PACKAGES = [
    "kakurolab",
    "kakurolab.formats",
    "kakurolab.backends",
    "kakurolab.encodings",
    "kakurolab.uniqueness",
    "kakurolab.generator",
    "kakurolab.logic",
    "kakurolab.experiments",
    "kakurolab.game",
]
"""The public face: each package's ``__all__`` must be in the reference."""

SECTION = re.compile(r"^(?:::: |## )(kakurolab(?:\.\w+)+)\s*$", re.M)
PYCON = re.compile(r"^```pycon\n(.*?)^```", re.M | re.S)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def sections() -> dict[str, tuple[str, str]]:
    """Documented name -> (page, the page's text under it up to the next name)."""
    found: dict[str, tuple[str, str]] = {}
    for page in sorted(PAGES.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        marks = list(SECTION.finditer(text))
        for mark, after in zip(marks, [*marks[1:], None], strict=False):
            end = after.start() if after else len(text)
            found[mark.group(1)] = (page.name, text[mark.end() : end])
    return found


def resolve(path: str) -> Any:
    """The object a documented path names: an attribute before a submodule of that name
    (``kakurolab.experiments.plan`` is the function, not the module)."""
    module, _, name = path.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name)
    except (ModuleNotFoundError, AttributeError):
        return importlib.import_module(path)


def documented_names() -> list[str]:
    """Every name with a section of its own (packages' own module pages excluded)."""
    return [name for name in sections() if name not in PACKAGES and name != "kakurolab.notebook"]


def own_docstring(obj: Any) -> str:
    """The docstring written for ``obj`` itself: a constant's value has none of its own."""
    if inspect.isclass(obj) or inspect.isroutine(obj) or inspect.ismodule(obj):
        return inspect.getdoc(obj) or ""
    return ""


TINY_CONFIG = """\
name = "tiny"
task = "unique"
timeout = 5
[[puzzles]]
shipped = "samples/standard.kakuro"
[[configs]]
backend = "native"
"""
"""The experiment examples' config (``tiny_config``), written into a fresh folder per test."""


def globs(folder: Path) -> dict[str, Any]:
    config = folder / "tiny.toml"
    config.write_text(TINY_CONFIG, encoding="utf-8")
    return {
        "kl": kl,
        "puzzle": kl.load(SAMPLES / "standard.kakuro")[0],
        "cryptic": kl.load(SAMPLES / "cryptic.txt")[0],
        "tiny_config": config,
        "folder": folder,
    }


def docstring_tests() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(recurse=False)
    seen: set[int] = set()
    tests = []
    for name in [*documented_names(), "kakurolab.notebook"]:
        obj = resolve(name)
        if id(obj) in seen or not own_docstring(obj):
            continue
        seen.add(id(obj))
        owners = [obj]
        if inspect.ismodule(obj):  # the notebook module: its functions and classes too
            members = inspect.getmembers(obj)
            owners += [v for _, v in members if getattr(v, "__module__", "") == name]
        for owner in owners:
            tests += [t for t in finder.find(owner, name, globs={}) if t.examples]
    return tests


def page_tests() -> list[doctest.DocTest]:
    parser = doctest.DocTestParser()
    tests = []
    for name, (page, text) in sections().items():
        for number, block in enumerate(PYCON.findall(text), start=1):
            tests.append(parser.get_doctest(block, {}, f"{page}:{name}#{number}", page, 0))
    return tests


ALL_TESTS = docstring_tests() + page_tests()


@pytest.mark.parametrize("test", ALL_TESTS, ids=[t.name for t in ALL_TESTS])
def test_example_runs(test: doctest.DocTest, tmp_path: Path) -> None:
    test.globs = globs(tmp_path)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)


def test_every_public_name_is_in_the_reference() -> None:
    listed = set(sections())
    pages = {p.read_text(encoding="utf-8") for p in PAGES.glob("*.md")}
    missing = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in getattr(module, "__all__", []):
            path = f"{package}.{name}"
            # the facade's re-exports are documented on their packages' pages and linked
            if path not in listed and not any(f"`{path}`" in text for text in pages):
                missing.append(path)
    assert not missing, f"public names missing from docs/api: {missing}"


def test_every_documented_name_has_an_example() -> None:
    without = []
    for name in documented_names():
        _, text = sections()[name]
        in_docstring = ">>>" in own_docstring(resolve(name))
        on_page = any(">>>" in block for block in PYCON.findall(text))
        if not (in_docstring or on_page):
            without.append(name)
    assert not without, f"{len(without)} public names without an example: {without}"
