"""The island helper: React's own server markup, inert JSON props, per-page scripts."""

import asyncio
import json
import re
import shutil
import threading

import pytest
from flask import render_template_string

from app.rendering.islands import IslandError, IslandRenderer, bundle_hash, island, props_script
from tests.helpers import ROOT


def island_html(app, template: str, **context) -> str:
    with app.test_request_context("/"):
        return render_template_string(template, **context)


def test_header_markup_is_reacts_server_render(client):
    html = client.get("/").get_data(as_text=True)
    wrapper = re.search(r'<div class="contents" data-island="Header"[^>]*>', html).group(0)
    assert 'id="header-1"' in wrapper
    assert 'data-hydrate="interaction"' in wrapper
    assert re.search(r'data-component-url="/static/build/Header-[\w-]{8}\.js"', wrapper)
    assert '<summary class="flex cursor-pointer' in html  # written only in Header.jsx
    props = re.search(
        r'<script type="application/json" data-island-props="header-1">(.*?)</script>', html
    ).group(1)
    assert json.loads(props)["siteName"] == "US Watch Buyers"


def test_props_cannot_close_their_script_element():
    markup = str(props_script("x-1", {"text": "</script><script>alert(1)</script>&\u2028"}))
    assert markup.count("</script>") == 1
    data = markup.split(">", 1)[1].rsplit("</script>", 1)[0]
    assert json.loads(data)["text"] == "</script><script>alert(1)</script>&\u2028"


@pytest.mark.parametrize("path", ["/", "/sell-rolex-watch", "/blog", "/sell"])
def test_pages_load_no_script_file_and_preload_nothing_but_name_the_runtime(client, path):
    """The inline bootstrap imports the runtime, whose URL its element carries, once the page
    has loaded or the visitor interacts (app/rendering/bootstrap.js): nothing but HTML, CSS and
    images may compete for the first paint, on the sell page too."""
    html = client.get(path).get_data(as_text=True)
    assert len(re.findall(r'<script data-src="/static/build/runtime-[\w-]+\.js">', html)) == 1
    assert not re.search(r"<script[^>]* src=", html)
    assert "modulepreload" not in html


def test_page_without_islands_loads_no_script(app):
    html = island_html(app, "{{ island_scripts() }}")
    assert html == ""


def test_island_ids_count_per_page(app):
    props = {
        "siteName": "A",
        "logoUrl": "/l.svg",
        "phone": "1",
        "phoneHref": "tel:1",
        "brands": [],
        "cities": [],
        "services": [],
    }
    html = island_html(app, "{{ island('Header', p) }}{{ island('Header', p) }}", p=props)
    assert 'id="header-1"' in html and 'id="header-2"' in html
    assert 'data-island-props="header-2"' in html


def test_unknown_hydrate_strategy_is_refused(app):
    with app.test_request_context("/"), pytest.raises(IslandError, match="hydrate must be"):
        island("Header", {}, hydrate="eventually")


def test_render_error_names_the_island(app):
    with app.test_request_context("/"), pytest.raises(IslandError, match="'NoSuchIsland'"):
        island("NoSuchIsland", {})


def test_missing_server_bundle_is_a_clear_error(tmp_path):
    renderer = IslandRenderer(str(tmp_path / "missing.js"))
    with pytest.raises(IslandError, match="missing: run `npm run build`"):
        renderer.render("Header", "{}", "header-1")


def test_javascript_exception_in_island_names_it(tmp_path):
    bundle = tmp_path / "ssr.js"
    bundle.write_text("globalThis.renderIsland = () => { throw new Error('kaboom'); };")
    with pytest.raises(IslandError, match="Island 'Broken' failed to render: .*kaboom"):
        IslandRenderer(str(bundle)).render("Broken", "{}", "broken-1")


def test_a_rebuild_is_rendered_and_hydrated_by_the_same_build(make_app, tmp_path):
    """`npm run build` without a restart: markup and scripts switch together, when the
    manifest (written last) names the new server bundle, and not before."""
    build = tmp_path / "build"
    shutil.copytree(ROOT / "app" / "static" / "build", build)
    bundle = tmp_path / "ssr.js"
    shutil.copy(ROOT / "app" / "build" / "ssr.js", bundle)
    manifest_path = build / "manifest.json"
    app = make_app(ISLANDS_MANIFEST=str(manifest_path), ISLANDS_SERVER_BUNDLE=str(bundle))
    client = app.test_client()
    old_script = json.loads(manifest_path.read_text())["components/islands/Header.jsx"]["file"]
    assert old_script in client.get("/sell").get_data(as_text=True)

    new_source = bundle.read_text().replace("Secure & Encrypted", "Secure & Sealed")
    bundle.write_text(new_source)  # the build has written the server bundle, not the manifest
    html = client.get("/sell").get_data(as_text=True)
    assert "Encrypted" in html and "Sealed" not in html and old_script in html

    manifest = json.loads(manifest_path.read_text())
    manifest["components/islands/Header.jsx"]["file"] = "Header-R3bu1ltX.js"
    manifest["components/server.js"]["sha256"] = bundle_hash(new_source.encode())
    manifest_path.write_text(json.dumps(manifest))  # the build's last step
    html = client.get("/sell").get_data(as_text=True)
    assert "Sealed" in html and "Encrypted" not in html
    assert "Header-R3bu1ltX.js" in html and old_script not in html


def test_a_server_bundle_the_manifest_does_not_name_is_refused_clearly(tmp_path):
    bundle = tmp_path / "ssr.js"
    bundle.write_text("globalThis.renderIsland = () => '<p>half-built</p>';")
    renderer = IslandRenderer(str(bundle), expected_hash=bundle_hash(b"another build"))
    with pytest.raises(IslandError, match="not the one the asset manifest names"):
        renderer.render("Header", "{}", "header-1")


def test_a_renderer_started_under_an_async_caller_still_renders_from_other_threads(tmp_path):
    """MiniRacer adopts a running asyncio loop; the renderer must not (the browser tests'
    Playwright loop once hung every later render from a server thread)."""
    bundle = tmp_path / "ssr.js"
    bundle.write_text("globalThis.renderIsland = (name) => `<p>${name}</p>`;")
    renderer = IslandRenderer(str(bundle))

    async def first_render() -> str:
        return renderer.render("Started", "{}", "started-1")

    rendered: list[str] = []
    # Each in a thread of its own: this one's loop may already be taken (by Playwright's).
    for work in (
        lambda: rendered.append(asyncio.run(first_render())),
        lambda: rendered.append(renderer.render("Later", "{}", "later-1")),
    ):
        thread = threading.Thread(target=work)
        thread.start()
        thread.join(timeout=20)
    assert rendered == ["<p>Started</p>", "<p>Later</p>"]
