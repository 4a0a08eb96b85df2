"""/sell over HTTP: the page, the plain-form path (PRG, inline errors) and the island's JSON."""

import io
import json
import re

import pytest

from app.leads import search, storage
from tests.data.photos import photo_bytes
from tests.data.validation_cases import VALID
from tests.helpers import (
    JSON,
    csp_hash_source,
    csrf_token,
    inline_scripts,
    island_props,
    lead_work_done,
    page_html,
    photo,
    post,
)


def test_sell_page_has_three_numbered_sections_and_submit(client):
    html = page_html(client)
    for number, title in enumerate(
        ["Personal Information", "Watch Details", "Upload Photos"], start=1
    ):
        assert re.search(rf">{number}</span>.*?{number}\. </span>{title}</h2>", html, re.S)
    assert 'type="submit"' in html
    assert "PNG, JPEG, WebP or HEIC up to 10MB each" in html
    for tip in ("dial, face-on", "caseback", "clasp", "serial between the lugs", "papers"):
        assert tip in html


def test_sell_page_is_a_plain_multipart_form_with_csrf(client):
    html = page_html(client)
    form_tag = re.search(r'<form[^>]*id="sell-form"[^>]*>', html).group(0).lower()
    assert 'method="post"' in form_tag and 'enctype="multipart/form-data"' in form_tag
    assert re.search(r'name="csrf_token" value="[^"]+" form="sell-form"', html)
    assert re.search(r'name="metaEventId" value="[0-9a-f-]{36}" form="sell-form"', html)


def test_required_fields_are_marked_with_an_asterisk(client):
    html = page_html(client)
    for label in ("Full Name", "Email Address", "Phone Number", "Watch Brand", "Condition"):
        assert re.search(rf">{label}<span[^>]*>\*</span>", html), label
    assert re.search(r">Model<span[^>]*>\(optional\)</span>", html)


def test_brand_and_condition_choices_in_spec_order(client):
    html = page_html(client)
    brands = re.findall(r'<option value="([^"]+)">', html)
    assert brands[:17][0] == "Rolex" and brands[16] == "Other"
    assert brands[17:] == [
        "Excellent - Like new",
        "Very Good - Minor wear",
        "Good - Moderate wear",
        "Fair - Significant wear",
        "Needs Service/Repair",
    ]
    assert 'name="hasBox"' in html and 'name="hasPapers"' in html


def test_brand_is_prefilled_from_query_when_it_is_a_choice(client):
    html = page_html(client, "/sell?brand=Patek%20Philippe")
    assert '<option value="Patek Philippe" selected="">' in html
    html = page_html(client, "/sell?brand=Swatch")
    assert not re.search(r'<option value="[^"]+" selected', html)


def test_sell_page_is_never_cached_and_keeps_csrf_out_of_island_props(client):
    response = client.get("/sell")
    assert "no-store" in response.headers["Cache-Control"]
    html = response.get_data(as_text=True)
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', html).group(1)
    assert token not in json.dumps(island_props(html))


def test_campaign_parameters_on_the_url_become_hidden_fields(client):
    html = page_html(client, "/sell?utm_source=google&utm_campaign=spring")
    assert 'name="utm_source" value="google" form="sell-form"' in html
    assert 'name="utm_campaign" value="spring" form="sell-form"' in html


def test_plain_form_success_redirects_to_noindex_thanks_page(client, app):
    response = post(client, {"utm_source": "newsletter"}, photos=[photo()])
    assert response.status_code == 303
    assert response.headers["Location"] == "/sell/thanks"
    page = client.get("/sell/thanks").get_data(as_text=True)
    assert '<meta name="robots" content="noindex">' in page
    assert "Form submitted successfully! We'll review your watch details" in page.replace(
        "&#39;", "'"
    )
    with app.app_context():
        [lead] = search.list_leads()
    assert lead["full_name"] == "Jane Doe" and lead["utm_source"] == "newsletter"
    assert lead["photo_count"] == 1


def test_plain_form_errors_rerender_inline_with_values_kept(client):
    response = post(
        client, {"fullName": "R2-D2", "watchYear": "1899", "watchModel": "Daytona"}, [photo()]
    )
    assert response.status_code == 422
    html = response.get_data(as_text=True).replace("<!-- -->", "")
    assert "Submission failed. Please try again or call us directly at (212) 555-0147." in html
    assert "Name can only contain letters, spaces, hyphens, and apostrophes" in html
    assert "Please enter a valid year" in html
    assert 'value="R2-D2"' in html and 'value="Daytona"' in html
    assert "please choose them again" in html
    assert re.search(r'id="field-fullName"[^>]*aria-invalid="true"', html)
    assert 'aria-describedby="field-fullName-error"' in html


def test_island_gets_json_with_success_flag(client, app):
    response = post(client, {"metaEventId": "evt-1234567890"}, [photo()], headers=JSON)
    assert response.status_code == 200
    answer = response.get_json()
    assert answer == {
        "success": True,
        "error": None,
        "errors": {},
        "reference": answer["reference"],
        "range": None,  # the guide is empty: no number
    }
    assert answer["reference"].startswith("USWB-")
    with app.app_context():
        [lead] = search.list_leads()
    assert lead["meta_event_id"] == "evt-1234567890"


def test_island_gets_json_errors_with_spec_messages(client):
    response = post(client, {"email": "nope", "watchBrand": ""}, headers=JSON)
    assert response.status_code == 422
    body = response.get_json()
    assert body["success"] is False
    assert body["error"] == (
        "Submission failed. Please try again or call us directly at (212) 555-0147."
    )
    assert body["errors"] == {
        "email": "Please enter a valid email address",
        "watchBrand": "Please select a watch brand",
    }


@pytest.mark.parametrize("address", ["jane..doe@example.com", "jane@example.invalid"])
def test_address_only_email_validator_refuses_gets_the_field_message_on_both_paths(
    client, app, address
):
    """The browser's quick pattern lets these through; the server's full check does not."""
    body = post(client, {"email": address}, headers=JSON).get_json()
    assert body["errors"] == {"email": "Please enter a valid email address"}
    html = post(client, {"email": address}).get_data(as_text=True)
    assert re.search(r'id="field-email"[^>]*aria-invalid="true"', html)
    assert "Please enter a valid email address" in html
    with app.app_context():
        assert search.list_leads() == []


def test_email_is_stored_normalised(client, app):
    assert post(client, {"email": " Jane.Doe@EXAMPLE.Com "}, headers=JSON).status_code == 200
    with app.app_context():
        [lead] = search.list_leads()
    assert lead["email"] == "Jane.Doe@example.com"


def test_island_gets_every_message_and_limit_from_the_server(client, app):
    props = island_props(page_html(client))
    assert props["messages"]["success"].startswith("Form submitted successfully!")
    assert props["messages"]["failure"].endswith("call us directly at (212) 555-0147.")
    assert props["messages"]["tooManyPhotos"] == "Please upload a maximum of 10 photos."
    assert props["messages"]["photoTooLarge"] == "{name} is larger than 10MB."
    assert props["photos"]["maxBytes"] == app.config["PHOTO_MAX_BYTES"]


def test_limits_in_messages_follow_the_settings(make_app):
    client = make_app(PHOTO_MAX_COUNT=4, PHOTO_MAX_BYTES=5 * 1024 * 1024).test_client()
    messages = island_props(page_html(client))["messages"]
    assert messages["tooManyPhotos"] == "Please upload a maximum of 4 photos."
    assert messages["photoTooLarge"] == "{name} is larger than 5MB."
    assert "up to 5MB each" in messages["photoHint"]


def test_csrf_header_alone_is_accepted(client, app):
    token = csrf_token(client)
    data = {**VALID, "photos": []}
    response = client.post("/sell", data=data, headers=JSON | {"X-CSRFToken": token})
    assert response.get_json()["success"] is True


def test_missing_csrf_token_is_refused(client, app):
    client.get("/sell")
    response = client.post("/sell", data=VALID, headers=JSON)
    assert response.status_code == 400
    assert response.get_json()["success"] is False
    with app.app_context():
        assert search.list_leads() == []


def test_every_spec_lead_field_is_saved(client, app):
    post(client, {"hasBox": "y", "watchModel": "", "watchYear": ""}, headers=JSON)
    with app.app_context():
        [lead] = search.list_leads()
    assert lead["watch_model"] is None and lead["watch_year"] is None
    assert lead["has_box"] == 1 and lead["has_papers"] == 0
    assert lead["source"] == "USA Website"
    assert lead["client_ip"] == "127.0.0.1" and lead["user_agent"]
    assert lead["created_at"] and re.fullmatch(r"[0-9a-f-]{36}", lead["meta_event_id"])


def test_duplicate_event_id_stores_one_lead_and_answers_success(client, app):
    fields = {"metaEventId": "dup-event-0001"}
    first = post(client, fields, [photo()], headers=JSON)
    second = post(client, fields, [photo()], headers=JSON)
    assert first.get_json()["success"] and second.get_json()["success"]
    lead_work_done(app)
    with app.app_context():
        assert len(search.list_leads()) == 1
        assert len(list(storage.incoming_dir().iterdir())) == 0  # processed, duplicate discarded


def test_eleven_photos_are_refused_with_the_spec_message(client, app):
    response = post(
        client, photos=[photo(f"{i}.jpg", size=(64, 48)) for i in range(11)], headers=JSON
    )
    assert response.get_json()["errors"] == {"photos": "Please upload a maximum of 10 photos."}
    with app.app_context():
        assert search.list_leads() == []


def test_ten_photos_are_accepted(client, app):
    photos = [photo(f"{i}.jpg", size=(320, 240), seed=i) for i in range(10)]
    assert post(client, photos=photos, headers=JSON).get_json()["success"]
    with app.app_context():
        assert search.list_leads()[0]["photo_count"] == 10


def test_text_file_named_jpg_is_refused_by_content(client):
    fake = (io.BytesIO(b"just some notes, not a photo\n" * 20), "notes.jpg")
    response = post(client, photos=[fake], headers=JSON)
    message = "notes.jpg is not a PNG, JPEG, WebP or HEIC photo."
    assert response.get_json()["errors"] == {"photos": message}


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
def test_png_and_webp_are_accepted_whatever_their_name(client, fmt):
    response = post(client, photos=[photo("IMG_0001.dat", fmt=fmt, size=(200, 150))], headers=JSON)
    assert response.get_json()["success"]


def test_photo_over_ten_megabytes_is_refused(client):
    big = io.BytesIO(photo_bytes(size=(64, 64)) + b"\0" * (10 * 1024 * 1024))
    response = post(client, photos=[(big, "huge.jpg")], headers=JSON)
    assert response.get_json()["errors"] == {"photos": "huge.jpg is larger than 10MB."}


def test_request_over_the_size_limit_gets_a_clear_413(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 200_000
    token = csrf_token(client)
    big = (io.BytesIO(b"\xff\xd8\xff" + b"\0" * 300_000), "big.jpg")
    response = post(client, photos=[big], headers=JSON, token=token)
    assert response.status_code == 413
    assert "Your upload is too large" in response.get_json()["error"]
    page = post(
        client, photos=[(io.BytesIO(b"\xff\xd8\xff" + b"\0" * 300_000), "b.jpg")], token=token
    )
    assert page.status_code == 413 and "Your upload is too large" in page.get_data(as_text=True)


def test_honeypot_submission_looks_successful_but_is_not_saved(client, app):
    response = post(client, {"website": "http://spam.example"}, headers=JSON)
    assert response.get_json()["success"] is True
    with app.app_context():
        assert search.list_leads() == []


def test_submissions_are_rate_limited_per_ip_with_a_clear_429(make_app):
    app = make_app(RATELIMIT_ENABLED=True, SELL_RATELIMIT="2 per minute")
    client = app.test_client()
    token = csrf_token(client)
    statuses = [post(client, headers=JSON, token=token).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    refused = post(client, headers=JSON, token=token)
    body = refused.get_json()
    assert body["success"] is False and "Too many submissions" in body["error"]
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert client.get("/sell").status_code == 200  # reading the form is never limited


def test_sell_page_runs_no_inline_script_but_the_islands_bootstrap(client):
    response = client.get("/sell")
    [bootstrap] = inline_scripts(response.get_data(as_text=True))
    assert csp_hash_source(bootstrap) in response.headers["Content-Security-Policy"]


def test_tracking_ids_reach_the_page_only_when_configured(app, client):
    assert 'name="meta-pixel-id"' not in page_html(client)
    app.config.update(META_PIXEL_ID="123456", GA4_MEASUREMENT_ID="G-ABC")
    html = page_html(client)
    assert '<meta name="meta-pixel-id" content="123456">' in html
    assert '<meta name="ga4-measurement-id" content="G-ABC">' in html


def test_noscript_pixel_is_on_the_sell_page_only_when_the_pixel_id_is_set(app, client):
    assert "<noscript>" not in page_html(client)
    assert "facebook.com/tr" not in page_html(client)
    app.config.update(META_PIXEL_ID="123456")
    noscript = page_html(client).split("<noscript>")[1].split("</noscript>")[0]
    assert noscript == (
        '<img class="hidden" width="1" height="1" alt="" '
        'src="https://www.facebook.com/tr?id=123456&amp;ev=PageView&amp;noscript=1">'
    )
