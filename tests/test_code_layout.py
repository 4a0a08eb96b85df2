"""The house rules the code keeps, checked on the source so they stay kept. One test per rule,
each naming every module that breaks it: where the package lines run (no import cycle, features
that never reach into each other, shared packages that import no feature, the records at the
bottom), one way to the schema, to errors, to a posted form and to an area's URLs, states named
by their type, small modules with names that say what they hold, a docstring on every public
function, and the linter's and formatter's rules (pyproject.toml)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

from tests.helpers import ROOT

APP = ROOT / "app"
SOURCES = sorted(APP.rglob("*.py")) + sorted((ROOT / "worker").glob("*.py"))
TEMPLATES = sorted((APP / "templates").rglob("*.html"))
MAX_MODULE_LINES = 350
# The areas a visitor or staff member reaches, each one blueprint: they import shared packages
# and never each other.
FEATURES = {"blog", "pages", "sell", "status", "staff"}
# The records and the database: below every other package of the domain.
RECORDS_MAY_IMPORT = {"config", "extensions", "rendering", "security"}
# Module names that several packages share because each holds the same kind of thing for its
# own area (its URLs, its views, its forms, its commands, its words, its pages, its SQL).
SHARED_NAMES = {"__init__", "routes", "views", "forms", "cli", "messages", "pages", "queries"}
STATE_NAMES = "new|contacted|quoted|accepted|appointment|offered|agreed|bought|closed"


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


def files_containing(pattern: str, paths=SOURCES) -> list[str]:
    return [relative(path) for path in paths if re.search(pattern, path.read_text(), re.M)]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> set[str]:
    """Every app or worker module `path` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:  # `from app.leads import store` imports app.leads.store
                full = f"{node.module}.{alias.name}"
                is_module = (ROOT / Path(*full.split("."))).with_suffix(".py").exists()
                is_package = (ROOT / Path(*full.split("."))).is_dir()
                found.add(full if is_module or is_package else node.module)
    return {name for name in found if name.split(".")[0] in ("app", "worker")}


MODULES = {module_name(path): path for path in SOURCES}
IMPORTS = {name: imported_modules(path) for name, path in MODULES.items()}


def top_package(module: str) -> str:
    """app.sale.purchase.record -> sale; app.queue -> queue; worker.jobs -> worker."""
    parts = module.split(".")
    return parts[1] if parts[0] == "app" and len(parts) > 1 else parts[0]


def package_imports() -> dict[str, set[str]]:
    """Each top-level package of app/ (and the worker) with the others it imports, the
    factory (app/__init__.py, which assembles them all) left out."""
    graph = defaultdict(set)
    for module, imported in IMPORTS.items():
        if module == "app":
            continue
        for name in imported:
            if name != "app" and top_package(name) != top_package(module):
                graph[top_package(module)].add(top_package(name))
    return graph


def unit_of(module: str, package: str) -> str | None:
    """The child of `package` (a subpackage or a module) that holds `module`, or None."""
    if not module.startswith(package + "."):
        return None
    return module[len(package) + 1 :].split(".")[0]


def cycles_within(package: str) -> list[list[str]]:
    """The import cycles among the children of `package` (its subpackages, each taken whole,
    and its modules; its own __init__ left out): each as a list of children."""
    graph = defaultdict(set)
    for module, imported in IMPORTS.items():
        source = unit_of(module, package)
        if source is None or module == package:
            continue
        for name in imported:
            target = unit_of(name, package)
            if target and target != source:
                graph[source].add(target)
    return strongly_connected(graph)


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the components of more than one node (the cycles)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def test_no_package_imports_another_in_a_circle_at_any_level():
    packages = {"app", "worker"} | {
        module_name(path.parent / "__init__.py") for path in APP.rglob("__init__.py")
    }
    cycles = {package: cycles_within(package) for package in sorted(packages)}
    assert {package: found for package, found in cycles.items() if found} == {}


def test_features_never_import_each_other():
    graph = package_imports()
    crossings = {
        name: sorted(graph[name] & FEATURES) for name in FEATURES if graph[name] & FEATURES
    }
    assert crossings == {}


def test_shared_packages_import_no_feature():
    graph = package_imports()
    shared = set(graph) - FEATURES - {"worker"}
    assert {name: sorted(graph[name] & FEATURES) for name in shared if graph[name] & FEATURES} == {}
    assert {"conversions", "forms", "leads", "rendering", "sale"} <= shared


def test_the_records_import_only_what_sits_below_them():
    assert package_imports()["leads"] - RECORDS_MAY_IMPORT == set()


def test_tables_are_made_only_by_the_migrations():
    assert files_containing(r"executescript\(") == []
    made_in = {path.rsplit("/", 1)[0] for path in files_containing(r"CREATE TABLE")}
    assert made_in == {"app/leads/schema"}


def test_errors_are_handled_only_in_app_errors():
    assert files_containing(r"errorhandler\(|register_error_handler\(") == ["app/errors.py"]


def test_every_post_is_read_through_a_wtforms_form():
    assert files_containing(r"request\.(form|files|values)\b") == []


def test_each_area_lists_its_urls_in_its_routes_module():
    blueprints = files_containing(r"= Blueprint\(")
    assert [path for path in blueprints if not path.endswith("/routes.py")] == ["app/errors.py"]
    assert files_containing(r"^@\w+\.(route|get|post)\(") == []
    # the areas, and four shared packages' own URLs: privacy choices, errors, the parcels' and
    # the bank's webhooks
    assert len(blueprints) == len(FEATURES) + 4


def test_states_are_compared_by_their_type_not_by_name():
    literal = rf"""["']({STATE_NAMES})["']"""
    in_sql = rf"state\s*(!?=|(NOT\s+)?IN\s*\()\s*'({STATE_NAMES})'"
    compared = rf"(==|!=)\s*{literal}|{literal}\s*(==|!=)|{in_sql}"
    code = [path for path in SOURCES if "schema" not in path.parts and path.name != "state.py"]
    assert files_containing(compared, code) == []
    assert files_containing(rf"""state\s*[!=]=\s*["']({STATE_NAMES})["']""", TEMPLATES) == []


def test_module_names_are_shared_only_by_the_same_kind_of_module():
    names = Counter(path.stem for path in SOURCES if path.parts[-2] != "schema")
    assert {name for name, count in names.items() if count > 1} - SHARED_NAMES == set()


def test_no_module_outgrows_one_purpose():
    sizes = {relative(path): len(path.read_text().splitlines()) for path in SOURCES}
    assert {path: size for path, size in sizes.items() if size > MAX_MODULE_LINES} == {}


def test_every_public_function_and_class_says_what_it_is_for():
    undocumented = [
        f"{relative(path)}: {node.name} (line {node.lineno})"
        for path in SOURCES
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and not node.name.startswith("_")
        and ast.get_docstring(node) is None
    ]
    assert undocumented == []


def test_comments_point_into_the_repository():
    outside = r"DESIGN\.md|SPEC\.md|\.\./shared/|\b[Ii]ssue \d+"
    assert files_containing(outside, SOURCES + TEMPLATES) == []


def test_the_code_keeps_the_linters_and_the_formatters_rules():
    for command in (["check", "--output-format", "concise", "."], ["format", "--check", "."]):
        done = subprocess.run(
            [sys.executable, "-m", "ruff", *command], cwd=ROOT, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
