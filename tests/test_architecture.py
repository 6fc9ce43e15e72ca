"""The engine's shape: layers import one way only, no import cycles (imports inside functions
count), and kinds are named only under docgen/kinds/. A module is as long as its idea: no cap on
its lines."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*ROOT.glob("docgen/**/*.py"), *ROOT.glob("checks/*.py")])
# Layer order (DESIGN: core <- kinds <- checks/render <- check <- issue <- intake <- api <- cli).
# load reads files into a kind's model, beside checks and render; intake records returned forms
# and reads issued folders. Peers on one layer do not import each other.
LAYERS = {
    "docgen.core": 0,
    "docgen.kinds": 1,
    "docgen.load": 2,
    "checks": 2,
    "docgen.render": 2,
    "docgen.checker": 3,
    "docgen.issue": 4,
    "docgen.intake": 5,
    # `docgen send` reads issued folders and the facts as intake does, and finds the stage folder
    # the way `docgen status` does (docgen.intake.status): just above intake, below the api.
    "docgen.send": 5.5,
    "docgen.api": 6,
    # The command line's consoles, then its four ideas side by side: shared options, output,
    # printers and process handling (none imports another).
    "docgen.console": 7,
    "docgen.console.terminal": 7,
    "docgen.console.options": 8,
    "docgen.console.output": 8,
    "docgen.console.printers": 8,
    "docgen.console.process": 8,
    # The workspace (`docgen serve`): a view over docgen.api beside the command line's modules.
    "docgen.web": 9,
    "docgen.cli": 10,
    "docgen.__main__": 11,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every docgen or checks module this file imports, at the top or inside a function."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    modules = {module_name(p) for p in SOURCES}
    return {m for m in found if m in modules and m != name}


GRAPH = {module_name(p): imports_of(p) for p in SOURCES}


def layer_of(module: str) -> tuple[str, int] | None:
    best = None
    for prefix, layer in LAYERS.items():
        if (module == prefix or module.startswith(prefix + ".")) and (
            best is None or len(prefix) > len(best[0])
        ):
            best = (prefix, layer)
    return best


def test_the_graph_sees_imports_inside_functions():
    assert "docgen.issue.batch" in GRAPH["docgen.api"]  # imported inside api.batch()


def test_no_import_cycle():
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(GRAPH.get(node, ())):
            if state.get(target) == 1:
                cycle = stack[stack.index(target) :] + [target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for node in sorted(GRAPH):
        if node not in state:
            visit(node)


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_go_down_the_layers(module):
    own = layer_of(module)
    if own is None:
        return  # docgen/__init__.py: the version only
    for target in GRAPH[module]:
        theirs = layer_of(target)
        if theirs is None or theirs[0] == own[0]:
            continue
        assert theirs[1] < own[1], f"{module} ({own[0]}) imports {target} ({theirs[0]})"


def test_the_cli_imports_only_the_api():
    console = {m for m in GRAPH if m == "docgen.console" or m.startswith("docgen.console.")}
    # `docgen serve` starts the workspace, which sits beside the command line (docgen/web/)
    serve = {"docgen.web", "docgen.web.server"}
    assert GRAPH["docgen.cli"] <= {"docgen", "docgen.api", *console, *serve}
    for module in console:
        assert GRAPH[module] <= {"docgen", "docgen.api", *console}, module


def test_the_workspace_imports_only_the_api():
    """A web screen is a view over the library (STYLE.md): docgen/web/ reaches docgen through
    docgen.api (and the console's helpers) only, as the command line does."""
    web = {m for m in GRAPH if m == "docgen.web" or m.startswith("docgen.web.")}
    console = {m for m in GRAPH if m == "docgen.console" or m.startswith("docgen.console.")}
    assert "docgen.web.app" in web
    for module in web:
        assert GRAPH[module] <= {"docgen", "docgen.api", *web, *console}, module


KIND_NAMES = re.compile(
    r"director-rsu-grant|rrp-plan-year|RRPPlanYearFacts|DirectorGrantFacts|\.kind\s*=="
)


@pytest.mark.parametrize(
    "path",
    [p for p in SOURCES if p.is_relative_to(ROOT / "docgen") and "kinds" not in p.parts],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_kinds_are_named_only_under_docgen_kinds(path):
    hits = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if KIND_NAMES.search(line)
    ]
    assert not hits, "\n".join(hits)


def test_the_kind_seam_is_typed():
    """Every hook of Kind and of its capability protocols takes the kind's facts model (FactsT,
    or FactsC in a protocol), never Any, so mypy checks each kind against its own model; the
    registry's look-up takes the facts of any kind (KindFacts[Any])."""
    tree = ast.parse((ROOT / "docgen/kinds/registry.py").read_text(encoding="utf-8"))
    untyped = [
        f"{node.name} (line {node.lineno})"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        for arg in node.args.args
        if arg.arg == "facts"
        and (
            arg.annotation is None
            or ast.unparse(arg.annotation) not in {"FactsT", "FactsC", "KindFacts[Any]"}
        )
    ]
    assert not untyped, untyped
