"""Built assets: hashed files cached for a year, served precompressed."""

import re


def fetch(client, url, **kwargs):
    """GET a static file and close it (WhiteNoise streams from an open file)."""
    response = client.get(url, **kwargs)
    response.get_data()
    response.close()
    return response


def built_urls(client):
    html = client.get("/").get_data(as_text=True)
    css = re.search(r'href="(/static/build/site-[\w-]+\.css)"', html).group(1)
    runtime = re.search(r'src="(/static/build/runtime-[\w-]+\.js)"', html).group(1)
    return css, runtime


def test_hashed_assets_are_immutable_for_a_year(client):
    for url in built_urls(client):
        response = fetch(client, url)
        assert response.status_code == 200
        assert "max-age=31536000" in response.headers["Cache-Control"]
        assert "immutable" in response.headers["Cache-Control"]


def test_assets_are_served_precompressed(client):
    css, _runtime = built_urls(client)
    brotli = fetch(client, css, headers={"Accept-Encoding": "br"})
    assert brotli.headers.get("Content-Encoding") == "br"
    gzip = fetch(client, css, headers={"Accept-Encoding": "gzip"})
    assert gzip.headers.get("Content-Encoding") == "gzip"
    plain = fetch(client, css)
    assert "Content-Encoding" not in plain.headers
    assert len(brotli.data) < len(plain.data) / 3


def test_unhashed_static_files_are_not_immutable(client):
    response = fetch(client, "/static/img/logo.svg")
    assert response.status_code == 200
    assert "immutable" not in response.headers["Cache-Control"]
