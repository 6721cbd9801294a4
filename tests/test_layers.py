"""The documented layers hold: every import in the package, lazy ones included, goes down.

docs/architecture.md draws the layers; this test is their enforcement.  A module may import
from a lower layer and from its own package; the rank of each top-level module or package is
in :data:`LAYERS`.  A new top-level module must be given a layer here (the test says so), which
is the moment to decide where it belongs.  The import graph of modules must also have no cycle,
lazy imports included: a cycle hidden behind a function-level import is still a cycle.
"""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "kakurolab"

LAYERS: dict[str, float] = {
    # the vocabulary every layer shares
    "errors": 0,
    "about": 0,
    "datasets": 0.1,
    "deadline": 0.1,
    "fileio": 0.1,
    "tables": 0.1,
    "gcpause": 0.1,
    "lifetimes": 0.1,
    "model": 0.2,
    "combos": 0.3,
    "rulebook": 1,  # the rules of Kakuro: structure checks and the solution rule checker
    "shape": 1,
    "formats": 2,
    "propagation": 3,
    "encodings": 4,
    "backends": 5,
    "uniqueness": 6,
    "schema": 6,
    "logic": 7,
    "generator": 7.5,
    "reductions": 7.55,  # parsimonious reductions to Kakuro (domino tilings, exact cover)
    "bank": 7.6,
    "hard": 7.7,  # hard instance families, made with the generator's public functions
    "proofs": 8,  # certificates (produce, verify, selftest), the step checker, UP closures
    "analysis": 8.1,  # the three old homes of proofs/ parts, re-exporting its face
    "certify": 8.1,
    "stepcheck": 8.1,
    "render": 8,
    "notebook": 8.2,  # Jupyter pictures of model, backend and logic objects, by the renderer
    "ratios": 8.5,
    "reports": 9,
    "experiments": 9,
    "transition": 9.1,  # the phase-transition scan: knob members through the experiment runner
    "game": 10,
    "web": 10.5,  # the engine over HTTP; the play command's ``serve`` imports it
    "commands": 11,
    "cli": 12,
    "__main__": 13,
    "__init__": 14,  # the lazy public facade: nothing inside the package imports it
}
"""Rank of each top-level module or package of kakurolab (higher may import lower)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every kakurolab module ``path`` imports, anywhere in its body (lazy imports too)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("kakurolab"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("kakurolab"):
                target = node.module
            else:
                continue
            for alias in node.names:  # ``from . import x`` imports the submodule x
                if _is_module(f"{target}.{alias.name}"):
                    found.add(f"{target}.{alias.name}")
                else:  # a name defined in ``target`` itself
                    found.add(target)
    found.discard(name)
    return found


def _is_module(dotted: str) -> bool:
    path = PACKAGE.parent / Path(*dotted.split("."))
    return path.is_dir() or path.with_suffix(".py").exists()


def top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


SOURCES = sorted(PACKAGE.rglob("*.py"))
GRAPH = {module_name(path): imports_of(path) for path in SOURCES}


def test_every_top_level_module_has_a_layer() -> None:
    missing = sorted({top(m) for m in GRAPH} - set(LAYERS))
    assert not missing, f"give these a layer in tests/test_layers.py: {missing}"


def test_every_layer_names_a_module_that_exists() -> None:
    gone = sorted(name for name in LAYERS if not _is_module(f"kakurolab.{name}"))
    assert not gone, f"LAYERS names modules that no longer exist: {gone}"


ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"


def _documented_layers() -> list[list[str]]:
    """The names on each line of docs/architecture.md's layer block, lowest line first."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    block = text.split("## Layers", 1)[1].split("```", 2)[1]
    lines = []
    for line in block.strip().splitlines():
        first = line.split("  ", 1)[0].strip()
        if first:
            lines.append(
                [
                    name.strip().removeprefix("kakurolab/").removesuffix(".py")
                    for name in first.split(",")
                ]
            )
    return lines


def test_the_documented_layers_are_the_enforced_ones() -> None:
    """docs/architecture.md draws every layer of :data:`LAYERS` once, in rank order (names on
    one line in non-decreasing rank from left to right, every line above the one before)."""
    lines = _documented_layers()
    names = [name for line in lines for name in line]
    assert sorted(names) == sorted(LAYERS), set(names) ^ set(LAYERS)
    ranks = [LAYERS[name] for name in names]
    assert ranks == sorted(ranks), list(zip(names, ranks, strict=True))
    for lower, upper in itertools.pairwise(lines):
        assert max(LAYERS[n] for n in lower) < min(LAYERS[n] for n in upper), (lower, upper)


def test_the_package_map_names_every_top_level_module() -> None:
    """Every top-level module and package has a row in the package map, and every name the
    map's first column gives exists."""
    text = ARCHITECTURE.read_text(encoding="utf-8").split("## Package map", 1)[1]
    first = [row.split("|")[1] for row in text.splitlines() if row.startswith("| `")]
    named = {name for cell in first for name in re.findall(r"`([\w/.]+)`", cell)}
    modules = {
        path.name if path.suffix else path.name + "/"
        for path in PACKAGE.iterdir()
        if (path.suffix == ".py" or (path / "__init__.py").exists())
    }
    assert not modules - named, f"missing from the package map: {sorted(modules - named)}"
    assert not named - modules, f"the package map names no such module: {sorted(named - modules)}"


def test_imports_go_down_the_layers() -> None:
    upward = []
    for module, targets in GRAPH.items():
        for target in targets:
            here, there = top(module), top(target)
            if here == there:
                continue  # inside one package: its own business
            if LAYERS.get(there, 0) >= LAYERS.get(here, 0):
                upward.append(f"{module} -> {target}")
    assert not upward, "imports against the layers:\n" + "\n".join(sorted(upward))


def test_no_import_cycles() -> None:
    """No exception either for a submodule that imports its own package's ``__init__``
    while that ``__init__`` imports it (the CNF parts once did, for the encoding's type;
    they now build over the protocols of ``encodings/cnf/pool.py``)."""
    graph = nx.DiGraph()
    for module, targets in GRAPH.items():
        for target in targets:
            if target in GRAPH:
                graph.add_edge(module, target)
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles[:20])


@pytest.mark.parametrize("module", ["kakurolab.encodings"])
def test_encodings_run_no_solver(module: str) -> None:
    """Encodings are pure: nothing under them imports a backend."""
    offenders = [
        f"{m} -> {t}"
        for m, targets in GRAPH.items()
        if m.startswith(module)
        for t in targets
        if t.startswith("kakurolab.backends")
    ]
    assert not offenders, offenders


CLI_DEEP_IMPORTS: dict[str, str] = {
    "kakurolab.backends.z3": "smtlib_text: the SMT-LIB export is z3's own printer, and "
    "kakurolab.backends stays free of any one solver's module",
    "kakurolab.reports.encodings": "the generated docs page, a report rather than an API",
    "kakurolab.experiments.report": "tables and plots: importing them with the package would "
    "load report code into every experiment worker",
    "kakurolab.web.server": "the optional 'web' extra (Starlette, uvicorn): the web package has "
    "no facade so that importing it costs nothing without the extra",
}
"""The only modules inside another package that the CLI imports directly, each with why; the
rest of the CLI goes through a package's facade (its ``__init__``) or a top-level module."""

CLI = [
    m
    for m in GRAPH
    if m.startswith(("kakurolab.commands", "kakurolab.experiments")) or m == "kakurolab.cli"
]
"""The modules held to the public API: the CLI, and the experiment runner that drives backends
the way a researcher's script would."""


def _names_imported(module: str) -> list[tuple[str, str]]:
    """(target module, name) for every ``from X import name`` in ``module``, lazy ones too."""
    path = PACKAGE.parent / Path(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
            found += [(target, alias.name) for alias in node.names]
    return found


def test_the_cli_calls_public_apis_only() -> None:
    """docs/architecture.md: the CLI and the experiments import public names only, from a
    package's facade or a top-level module, except the modules named in
    :data:`CLI_DEEP_IMPORTS`."""
    offenders = []
    for module in CLI:
        for target, name in _names_imported(module):
            if top(target) == top(module):
                continue  # inside its own package (the commands' helpers, the runner's parts)
            if name.startswith("_"):
                offenders.append(f"{module}: private name {target}.{name}")
            parts = target.split(".")
            if len(parts) > 2 and target not in CLI_DEEP_IMPORTS:
                offenders.append(f"{module}: reaches inside {'.'.join(parts[:2])} ({target})")
    assert not offenders, "\n".join(sorted(offenders))


def test_every_named_deep_import_is_still_used() -> None:
    used = {target for module in CLI for target, _ in _names_imported(module)}
    assert set(CLI_DEEP_IMPORTS) <= used, set(CLI_DEEP_IMPORTS) - used


FACE_ONLY = ("kakurolab.hard", "kakurolab.ratios", "kakurolab.experiments.plan")
"""Modules that use the generator through its face (``kakurolab.generator``) only, by a plain
import this test sees: the hard families, the benchmark and generated experiment sets are
made with its public functions (issue 46; plans once loaded it through importlib)."""


@pytest.mark.parametrize("module", FACE_ONLY)
def test_users_of_the_generator_import_its_face(module: str) -> None:
    inside = sorted(t for t in GRAPH[module] if t.startswith("kakurolab.generator."))
    assert not inside, f"{module} reaches inside the generator: {inside}"
    assert "kakurolab.generator" in GRAPH[module], f"{module} hides its generator import"
