"""The drawing program (tools/artwork): it paints every picture the site needs, at the size
content/images/images.toml asks, deterministically and losslessly; and it stays out of the app:
neither the web app nor the worker imports it."""

from __future__ import annotations

import ast
import graphlib
import json
import os
import subprocess
import sys
import tomllib

import pytest
from PIL import Image, ImageChops

from tests.helpers import ROOT
from tools.artwork.catalog import CATALOG

# The two packages split by what they hold: draw/ by the kind of thing drawn, catalog/ by the
# kind of picture; each module's imports of its own package, with one they must include.
PACKAGES = {
    folder: sorted((ROOT / "tools" / "artwork" / folder).glob("*.py"))
    for folder in ("draw", "catalog")
}
KNOWN_IMPORT = {"draw": ("dials", "surface"), "catalog": ("articles", "recipes")}

REQUIRED = {
    "hero-watch",
    "brand-rolex",
    "brand-patek-philippe",
    "brand-audemars-piguet",
    "brand-richard-mille",
    "brand-vacheron-constantin",
    "brand-fp-journe",
    "brand-cartier",
    "auth-inspection",
    *(f"purchase-{i}" for i in range(1, 7)),
    "article-where-to-sell-rolex-usa-2025-guide",
    "article-complete-guide-selling-rolex-usa",
    "article-luxury-watch-market-usa",
    "article-authenticate-vintage-omega-speedmaster",
    "article-patek-philippe-vs-audemars-piguet-investment",
    "article-watch-market-trends-usa-2025",
    "article-complete-guide-watch-condition-grading",
    "article-best-places-sell-patek-philippe-usa-2025",
    "og-default",
}


def test_catalog_has_every_required_image_once():
    names = [art.name for art in CATALOG]
    assert len(names) == len(set(names))
    assert set(names) == REQUIRED


def test_every_drawing_is_listed_in_images_toml_at_its_natural_size():
    settings = tomllib.loads((ROOT / "content" / "images" / "images.toml").read_text())
    for art in CATALOG:
        assert settings[art.name]["size"] == [art.width, art.height], art.name


def run_tool(*args) -> subprocess.CompletedProcess:
    """`python -m tools.artwork ARGS` from the repository's root, as a maintainer runs it."""
    command = [sys.executable, "-m", "tools.artwork", *map(str, args)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_tool_writes_a_lossless_master_that_repaints_identically(tmp_path):
    """The master holds exactly the pixels a fresh drawing gives."""
    result = run_tool(tmp_path, "og-default")
    assert result.returncode == 0, result.stderr
    assert "Painted 1 masters" in result.stdout
    master = tmp_path / "og-default.webp"
    assert b"VP8L" in master.read_bytes()[:64]  # the lossless WebP bitstream
    art = next(art for art in CATALOG if art.name == "og-default")
    with Image.open(master) as im:
        assert (im.format, im.size) == ("WEBP", (art.width, art.height))
        assert ImageChops.difference(im.convert("RGB"), art.render()).getbbox() is None


def test_the_tool_refuses_an_unknown_picture_name(tmp_path):
    result = run_tool(tmp_path, "no-such-picture")
    assert result.returncode == 2
    assert "not in tools/artwork/catalog/: no-such-picture" in result.stderr
    assert list(tmp_path.iterdir()) == []


STARTUP = """
import json, os, sys
from app import create_app
import worker.jobs, worker.photos, worker.mail, app.conversions.send
app = create_app({"ENV_NAME": "testing"})
with app.test_request_context():
    app.jinja_env.globals["picture"]("hero-watch", "alt")
print(json.dumps({name: getattr(module, "__file__", None) for name, module in sys.modules.items()}))
sys.stdout.flush()
os._exit(0)  # what was imported is the question, not V8's teardown (once seen slow under load)
"""


def test_starting_the_web_app_and_the_worker_imports_no_drawing_code(tmp_path):
    """A fresh interpreter creates the app, loads every worker job and renders a picture."""
    environment = {**os.environ, "LEADS_DB": str(tmp_path / "leads.db")}
    result = subprocess.run(
        [sys.executable, "-c", STARTUP], cwd=ROOT, env=environment, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    modules = json.loads(result.stdout)
    assert "app.pictures.variants" in modules and "worker.photos" in modules
    tools = str(ROOT / "tools")
    drawing = [name for name, file in modules.items() if (file or "").startswith(tools)]
    assert drawing == []
    assert not [name for name in modules if name == "tools" or name.startswith("tools.")]


def test_no_module_of_app_or_worker_imports_tools():
    """Also the code paths the start-up test does not run (commands, jobs' bodies)."""
    offenders = []
    for path in [*(ROOT / "app").rglob("*.py"), *(ROOT / "worker").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            offenders += [f"{path}: {n}" for n in names if n.split(".")[0] == "tools"]
    assert offenders == []


@pytest.mark.parametrize("folder", PACKAGES)
def test_each_drawing_module_says_in_one_line_what_it_draws_and_stays_short(folder):
    """draw/ is split by what it draws and catalog/ by the kind of picture, so a maintainer
    finds a function by its file's name."""
    modules = {path.stem: ast.parse(path.read_text(encoding="utf-8")) for path in PACKAGES[folder]}
    summaries = {name: ast.get_docstring(tree) or "" for name, tree in modules.items()}
    assert [name for name, doc in summaries.items() if not doc or "\n" in doc] == ["__init__"]
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines())
             for path in PACKAGES[folder]}  # fmt: skip
    assert {name: size for name, size in sizes.items() if size > 600} == {}


@pytest.mark.parametrize("folder", PACKAGES)
def test_the_drawing_modules_import_each_other_without_a_cycle(folder):
    imports = {
        path.stem: {
            node.module.rsplit(".", 1)[-1]
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom)
            and (node.module or "").startswith(f"tools.artwork.{folder}.")
        }
        for path in PACKAGES[folder]
    }
    importer, imported = KNOWN_IMPORT[folder]
    assert imported in imports[importer]
    assert list(graphlib.TopologicalSorter(imports).static_order())  # CycleError on a cycle
