"""The attack suite: each request an attacker (or a broken client) might send, the status it
must get, and what must (not) be stored afterwards."""

import io
import sqlite3
import struct
import zlib
from pathlib import Path

import pytest

from app.leads import db as leads_db
from app.leads import search, storage, store
from app.photos import intake
from app.photos.uploads import safe_filename
from tests.data.photos import photo_bytes
from tests.data.validation_cases import VALID
from tests.helpers import JSON, PRODUCTION, ROOT, SITE, csrf_token, lead_work_done, post


def leads(app) -> list[dict]:
    with app.app_context():
        return search.list_leads()


def stored_files(app) -> list[Path]:
    with app.app_context():
        root = storage.storage_dir()
    return [path for path in root.rglob("*") if path.is_file()] if root.exists() else []


def png(width: int, height: int, data: bytes = b"\x00") -> bytes:
    """A PNG whose header claims any size, with a tiny body: the shape of a decompression bomb."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(data))
        + chunk(b"IEND", b"")
    )


# Odd requests: never a 500, never anything outside the site.


@pytest.mark.parametrize(
    "path, status",
    [
        ("/%2e%2e/%2e%2e/etc/passwd", 404),
        ("/static/../instance/leads.db", 404),
        ("/static/%2e%2e/%2e%2e/instance/leads.db", 404),
        ("/static/..%2f..%2finstance%2fleads.db", 404),
        ("/sell%00", 404),
        ("/%ff%fe", 404),
        ("/" + "a" * 5000, 414),
        ("/?q=" + "a" * 5000, 414),
        ("/blog?category=%ff%fe%00", 200),
        ("/blog?category=" + "x" * 1000, 200),
        ("/sell?brand=%00%3Cscript%3E", 200),
        ("/?a=1&a=2&%%%=&=;;&", 200),
        ("/sell-watch-%3Cscript%3E", 302),
    ],
)
def test_odd_paths_and_queries_answer_4xx_or_the_page(client, path, status):
    with client.get(path) as response:
        assert response.status_code == status
        assert b"<script>alert" not in response.data
        assert b"SQLite format" not in response.data
        assert "Content-Security-Policy" in response.headers


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "TRACE", "PROPFIND", "CONNECT"])
@pytest.mark.parametrize("path", ["/", "/sell", "/static/img/logo.svg"])
def test_unknown_methods_are_refused(client, method, path):
    response = client.open(path, method=method)
    assert response.status_code == 405


def test_huge_headers_are_refused(client):
    assert client.get("/", headers={"X-Padding": "a" * 100_000}).status_code == 431
    many = {f"X-Header-{i}": "a" * 900 for i in range(20)}
    assert client.get("/", headers=many).status_code == 431


@pytest.mark.parametrize(
    "path",
    [
        "//evil.example/",
        "///evil.example/sell-form",
        "/\\evil.example",
        "/%2F%2Fevil.example",
        "/sell-form?next=https://evil.example",
        "/blog//",
        "/sell-watch-..%2f%2fevil.example",
    ],
)
def test_no_open_redirect(client, path):
    response = client.get(path)
    assert response.status_code < 500
    location = response.headers.get("Location", "")
    if location:
        assert location.startswith("/") and not location.startswith("//"), location
        assert "evil.example" not in location


# The form: CSRF, injection, sizes.


def test_post_without_csrf_token_is_refused_and_stores_nothing(app, client):
    response = client.post("/sell", data={"fullName": "Jane Doe"}, headers=JSON)
    assert response.status_code == 400
    assert leads(app) == []


def test_csrf_token_of_another_session_is_refused(app):
    token = csrf_token(app.test_client())
    response = post(app.test_client(), token=token, headers=JSON)
    assert response.status_code == 400
    assert leads(app) == []


def test_cross_site_post_over_https_is_refused_in_production(make_app):
    app = make_app(**PRODUCTION)
    client = app.test_client()
    html = client.get("/sell", base_url=SITE).get_data(as_text=True)
    token = html.split('name="csrf-token" content="')[1].split('"')[0]
    for sent_from in (
        {"Referer": "https://evil.example/form"},
        {"Origin": "https://evil.example"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site", "Referer": SITE + "/sell"},  # a sibling subdomain's page
    ):
        response = client.post(
            "/sell", base_url=SITE, data={**VALID, "csrf_token": token}, headers=JSON | sent_from
        )
        assert response.status_code == 403, sent_from
        assert leads(app) == []
    headers = {**JSON, "Referer": SITE + "/sell"}
    response = client.post(
        "/sell", base_url=SITE, data={**VALID, "csrf_token": token}, headers=headers
    )
    assert response.status_code == 200
    assert len(leads(app)) == 1


def test_script_in_name_is_refused_and_in_details_is_kept_as_text(app, client):
    response = post(client, {"fullName": "<script>alert(1)</script>"}, headers=JSON)
    assert response.status_code == 422
    assert "fullName" in response.json["errors"]
    evil = "</script><script>alert(1)</script>'); DROP TABLE leads;--"
    response = post(client, {"additionalDetails": evil, "email": "bad"})
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "</script><script>alert(1)" not in html
    response = post(client, {"additionalDetails": evil}, headers=JSON)
    assert response.status_code == 200
    [lead] = leads(app)
    assert lead["additional_details"] == evil  # stored verbatim, as data


@pytest.mark.parametrize(
    "fields",
    [
        {"email": "jane@example.com\r\nBcc: victim@example.com"},
        {"fullName": "J" * 10_000},
        {"phone": "1" * 5000},
        {"watchBrand": "Rolex' OR '1'='1"},
        {"watchYear": "１９９９"},
        {"watchCondition": "Excellent"},
        {"additionalDetails": "x" * 2001},
    ],
)
def test_invalid_or_oversized_fields_store_nothing(app, client, fields):
    response = post(client, fields, headers=JSON)
    assert response.status_code == 422
    assert leads(app) == []


def test_megabyte_text_field_is_413_not_500(app, client):
    response = post(client, {"additionalDetails": "x" * 1_000_000}, headers=JSON)
    assert response.status_code == 413
    assert response.json["success"] is False
    assert leads(app) == []


def test_thousands_of_form_parts_are_refused(app, client):
    fields = {f"junk{i}": "1" for i in range(1500)}
    response = post(client, fields, headers=JSON)
    assert response.status_code == 413
    assert leads(app) == []


def test_json_body_instead_of_a_form_is_a_clean_400(app, client):
    response = client.post("/sell", json={"fullName": "Jane Doe"}, headers=JSON)
    assert response.status_code == 400
    assert leads(app) == []


def test_forged_event_id_and_long_campaign_values_are_bounded(app, client):
    fields = {"metaEventId": "../../etc/passwd", "utm_source": "s" * 10_000}
    assert post(client, fields, headers=JSON).status_code == 200
    [lead] = leads(app)
    assert lead["meta_event_id"] != "../../etc/passwd"
    assert len(lead["utm_source"]) == 200


# Uploads: checked by content, refused with a clear message, never served.

SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
HTML = b"<!doctype html><html><script>alert(document.cookie)</script></html>"
JPEG = photo_bytes(size=(400, 300))
PNG = photo_bytes(size=(400, 300), fmt="PNG")
WEBP = photo_bytes(size=(400, 300), fmt="WEBP")


@pytest.mark.parametrize(
    "content, name, message",
    [
        (SVG, "watch.svg", "is not a PNG, JPEG, WebP or HEIC photo"),
        (SVG, "watch.jpg", "is not a PNG, JPEG, WebP or HEIC photo"),
        (HTML, "watch.png", "is not a PNG, JPEG, WebP or HEIC photo"),
        (b"<?php system($_GET['c']); ?>", "watch.jpg.php", "is not a PNG, JPEG, WebP or HEIC"),
        (b"GIF89a" + b"\x00" * 50, "watch.gif", "is not a PNG, JPEG, WebP or HEIC photo"),
        (b"\xff\xd8\xff\xe0" + HTML, "watch.jpg", "is damaged or incomplete"),
        (JPEG[: len(JPEG) // 2], "half.jpg", "is damaged or incomplete"),
        (PNG[: len(PNG) // 2], "half.png", "is damaged or incomplete"),
        (WEBP[: len(WEBP) // 2], "half.webp", "is damaged or incomplete"),
        (b"\x89PNG\r\n\x1a\n" + b"garbage" * 10 + b"IEND\xaeB`\x82", "bad.png", "damaged"),
        (png(30_000, 30_000), "bomb.png", "too large in pixels"),
        (png(9_000, 7_000), "big.png", "too large in pixels"),
    ],
)
def test_upload_that_is_not_a_whole_photo_is_refused(app, client, content, name, message):
    response = post(client, photos=[(io.BytesIO(content), name)], headers=JSON)
    assert response.status_code == 422
    assert message in response.json["errors"]["photos"]
    assert leads(app) == []
    assert stored_files(app) == []


def test_file_name_in_the_message_is_harmless(client):
    name = '<img src=x onerror="alert(1)">\x1b[31m.svg'
    response = post(client, photos=[(io.BytesIO(SVG), name)])
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "<img src=x" not in html and "\x1b" not in html


def test_polyglot_jpeg_is_neutralised_by_re_encoding(app, client):
    polyglot = JPEG + HTML  # a valid JPEG with a script appended after its end marker
    response = post(client, photos=[(io.BytesIO(polyglot), "watch.jpg")], headers=JSON)
    assert response.status_code == 200
    lead_work_done(app)
    [lead] = leads(app)
    assert lead["photos_processed_at"]
    files = stored_files(app)
    assert files and all(b"<script" not in path.read_bytes() for path in files)
    assert all(path.parent.name == "watch-photos" for path in files)  # the raw upload is gone


@pytest.mark.parametrize(
    "name, kept",
    [
        ("../../../app/static/evil.jpg", "evil.jpg"),
        ("..\\..\\windows\\evil.jpg", "windowsevil.jpg"),  # multipart unescapes "\\"
        ("wat\x00ch\x07.jpg", "watch.jpg"),
        ("\u202egpj.exe", "gpj.exe"),
        ("...", "photo"),
    ],
)
def test_file_names_cannot_traverse_or_smuggle_control_characters(app, client, name, kept):
    response = post(client, photos=[(io.BytesIO(JPEG), name)], headers=JSON)
    assert response.status_code == 200
    with app.app_context():
        [photo] = store.lead_photos(1)
    assert photo["original_name"] == kept
    assert not (ROOT / "app" / "static" / "evil.jpg").exists()
    assert all(kept not in path.name for path in stored_files(app))


def test_safe_filename_drops_folders_and_line_breaks():
    assert safe_filename("C:\\Users\\me\\IMG 1.jpg") == "IMG 1.jpg"
    assert safe_filename("a\r\nBcc: x.jpg") == "aBcc: x.jpg"
    assert safe_filename("é" * 300) == "é" * 100
    assert safe_filename(None) == "photo"


def test_stored_photos_are_never_served(app, client):
    assert post(client, photos=[(io.BytesIO(JPEG), "watch.jpg")], headers=JSON).status_code == 200
    files = stored_files(app)
    assert files
    for path in files:
        for prefix in ("/static/", "/storage/", "/instance/storage/watch-photos/", "/"):
            with client.get(prefix + path.name) as response:
                assert response.status_code == 404


# Atomicity: a lead is stored whole or not at all, and the seller is told which.


def test_disk_failure_mid_upload_stores_nothing_and_says_so(app, client, monkeypatch):
    real_store = intake.store_upload
    calls = []

    def failing_store(upload, directory):
        calls.append(upload)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real_store(upload, directory)

    monkeypatch.setattr(intake, "store_upload", failing_store)
    photos = [(io.BytesIO(JPEG), f"w{i}.jpg") for i in range(3)]
    response = post(client, photos=photos, headers=JSON)
    assert response.status_code == 503
    assert "nothing was kept" in response.json["error"]
    assert leads(app) == []
    assert stored_files(app) == []


def test_locked_database_stores_nothing_then_a_retry_succeeds(app, client, monkeypatch):
    monkeypatch.setattr(leads_db, "BUSY_TIMEOUT_MS", 200)
    leads(app)  # creates the schema
    blocker = sqlite3.connect(app.config["LEADS_DB"])
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        response = post(client, photos=[(io.BytesIO(JPEG), "w.jpg")], headers=JSON)
        assert response.status_code == 503
        html = post(client).get_data(as_text=True)  # the plain form says so too
        assert "nothing was kept" in html
    finally:
        blocker.rollback()
        blocker.close()
    assert leads(app) == []
    assert stored_files(app) == []
    assert post(client, photos=[(io.BytesIO(JPEG), "w.jpg")], headers=JSON).status_code == 200
    assert len(leads(app)) == 1


def test_logs_carry_lead_ids_not_seller_details(app, client, caplog):
    caplog.set_level("DEBUG")
    fields = {"fullName": "Zelda Quixote", "phone": "+1 (917) 555-0199"}
    fields |= {"email": "zelda.q@example.net", "additionalDetails": "Grandfather's watch"}
    assert (
        post(client, fields, photos=[(io.BytesIO(JPEG), "w.jpg")], headers=JSON).status_code == 200
    )
    lead_work_done(app)
    assert "Lead 1" in caplog.text
    for secret in ("Zelda", "zelda.q", "555-0199", "Grandfather"):
        assert secret not in caplog.text
