"""The house rules the code keeps (issue 19), checked on the source so they stay kept: one way
to the database's schema, errors answered in one place, features that do not reach into each
other, small modules, and a docstring on every public function."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.helpers import ROOT

APP = ROOT / "app"
SOURCES = sorted(APP.rglob("*.py")) + sorted((ROOT / "worker").glob("*.py"))
MAX_MODULE_LINES = 350


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


def files_containing(pattern: str, paths=SOURCES) -> list[str]:
    return [relative(path) for path in paths if re.search(pattern, path.read_text(), re.M)]


def test_tables_are_made_only_by_the_migrations():
    assert files_containing(r"executescript\(") == []
    made_in = {path.rsplit("/", 1)[0] for path in files_containing(r"CREATE TABLE")}
    assert made_in == {"app/leads/schema"}


def test_errors_are_handled_only_in_app_errors():
    assert files_containing(r"errorhandler\(|register_error_handler\(") == ["app/errors.py"]


def test_the_status_page_does_not_reach_into_the_sell_form():
    assert files_containing(r"^\s*(from|import) app\.sell", sorted(APP.glob("status/*.py"))) == []


def test_staff_routes_exist_without_import_side_effects():
    assert "noqa: F401" not in (APP / "staff" / "__init__.py").read_text()
    assert not (APP / "audit.py").exists()


@pytest.mark.parametrize("path", SOURCES, ids=relative)
def test_no_module_outgrows_one_purpose(path):
    assert len(path.read_text().splitlines()) <= MAX_MODULE_LINES


@pytest.mark.parametrize("path", SOURCES, ids=relative)
def test_every_public_function_and_class_says_what_it_is_for(path):
    tree = ast.parse(path.read_text())
    undocumented = [
        f"{node.name} (line {node.lineno})"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and not node.name.startswith("_")
        and ast.get_docstring(node) is None
    ]
    assert undocumented == []
