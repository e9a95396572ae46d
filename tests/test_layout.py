"""The house rules of the package's layout, read from the source (no import of the code under test):

- sizes: no module in ``pipeline/`` over MAX_MODULE_LINES lines, no function over MAX_FUNCTION_LINES lines
  (def line to last line, nested functions counted on their own too);
- stage order of imports: a module in ``pipeline/<stage>/`` imports only its own stage and earlier ones
  (STAGES, the order data moves; ``pipeline/cli.py``, ``pipeline/definitions.py`` and the other top-level
  modules come last and may import every stage); ``schemas`` may be imported from anywhere;
- no private name (leading ``_``) imported from another module of ``pipeline/`` or ``schemas/``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "pipeline"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
#: The stage packages of pipeline/ in the order data moves; "top" is every module directly in pipeline/.
STAGES = ("runtime", "ingest", "analyse", "build", "card", "release", "defs", "top")


def _modules() -> Iterator[tuple[Path, str, ast.Module]]:
    """Every module of pipeline/: (path, dotted name, syntax tree)."""
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        yield path, name, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _stage(module: str) -> str | None:
    """The stage (STAGES) of a dotted module name, ``"schemas"`` for the Pandera models, None when outside
    the project."""
    parts = module.split(".")
    if parts[0] == "schemas":
        return "schemas"
    if parts[0] != "pipeline":
        return None
    return parts[1] if len(parts) > 1 and parts[1] in STAGES else "top"


def _imports(tree: ast.Module) -> Iterator[tuple[int, str, list[str]]]:
    """(line, module, names) of each absolute import; ``names`` are the imported names of ``from m import``
    (empty for ``import m``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_layout_is_read_from_every_stage():
    """The checks below see every stage package (a moved or renamed stage would make them vacuous)."""
    assert {_stage(name) for _, name, _ in _modules()} == set(STAGES)


def test_no_module_over_600_lines():
    long = {
        _rel(p): n
        for p, _, _ in _modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_function_over_80_lines():
    long = [
        f"{_rel(path)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for path, _, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert long == []


def test_imports_follow_the_stage_order():
    later = []
    for path, name, tree in _modules():
        own = STAGES.index(_stage(name) or "top")
        for line, module, names in _imports(tree):
            if module == "pipeline" and names:  # from pipeline import ingest, release: each name's stage
                targets = [f"pipeline.{n}" for n in names]
            else:
                targets = [module]
            for target in targets:
                stage = _stage(target)
                if stage in (None, "schemas"):
                    continue
                if STAGES.index(stage) > own:
                    later.append(f"{_rel(path)}:{line} ({STAGES[own]}) imports {target} ({stage})")
    assert later == []


def test_no_private_name_imported_across_modules():
    private = [
        f"{_rel(path)}:{line} imports {[n for n in names if n.startswith('_')]} from {module}"
        for path, name, tree in _modules()
        for line, module, names in _imports(tree)
        if _stage(module) is not None
        and module != name
        and any(n.startswith("_") and n != "__future__" for n in names)
    ]
    assert private == []
