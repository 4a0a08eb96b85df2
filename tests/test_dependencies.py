"""Every module the site and the worker import is installed by the package's main dependencies:
`bin/run` installs only those (no test extra), so a module that only an extra brings passes every
test and stops a newcomer's first command with ModuleNotFoundError (pypdf did, once)."""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import sys
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.helpers import ROOT

OWN_PACKAGES = {"app", "worker", "__future__"}


def imported_top_level_names() -> dict[str, set[str]]:
    """Each top-level module name app/ and worker/ import (at the top or inside a function),
    with the files that import it."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "app").rglob("*.py")) + sorted((ROOT / "worker").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = {node.module.split(".")[0]}
            else:
                continue
            for name in names - OWN_PACKAGES - set(sys.stdlib_module_names):
                found.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return found


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def installed_without_extras(requirements: list[str]) -> set[str]:
    """The distributions these requirements install, with everything they need in turn, never
    following an extra (of ours or of theirs)."""
    seen: set[str] = set()
    todo = [Requirement(text) for text in requirements]
    while todo:
        requirement = todo.pop()
        if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(requirement.name)
        if name in seen:
            continue
        seen.add(name)
        todo += [Requirement(text) for text in metadata.requires(requirement.name) or []]
    return seen


def distributions_of(module: str) -> set[str]:
    return {canonicalize_name(name) for name in metadata.packages_distributions().get(module, [])}


def test_every_module_the_site_imports_comes_with_its_main_dependencies():
    main = installed_without_extras(project()["dependencies"])
    missing = {
        f"{module} ({', '.join(sorted(files))})"
        for module, files in imported_top_level_names().items()
        if not distributions_of(module) & main
    }
    assert not missing, f"Imported, but not installed by the main dependencies: {sorted(missing)}"


def test_the_check_knows_a_module_only_the_test_extra_brings():
    """The check above would catch pypdf again: the test extra's packages are not in the main
    dependencies' closure, so a module only they bring is named."""
    main = installed_without_extras(project()["dependencies"])
    only_for_tests = {
        canonicalize_name(Requirement(text).name)
        for text in project()["optional-dependencies"]["test"]
    } - main
    assert {"playwright", "aiosmtpd", "moto"} <= only_for_tests
    assert not distributions_of("playwright") & main
