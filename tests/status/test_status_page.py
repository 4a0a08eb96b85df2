"""The seller's side after Submit: reference, confirmation e-mail (real SMTP on loopback) and
the private status page, with its attack tests."""

from __future__ import annotations

import io
import logging
import re
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from icalendar import Calendar
from redis import Redis
from werkzeug.serving import make_server

from app.extensions import rq
from app.leads import history, links, storage, store
from app.leads.db import transaction
from app.leads.reference import PATTERN, new_status_token
from app.sale import erasure, lifecycle
from app.security.tokens import digest
from tests.helpers import (
    JSON,
    answer_data,
    give_token,
    lead_work_done,
    photo,
    post,
    post_multipart,
    save_sample_lead,
    status_link_count,
)
from worker.jobs import alert_staff, confirm_to_seller, send_status_links

SITE = "https://watches.example"
QUOTE = {"amount_low": 8000, "amount_high": 9500, "valid_until": "2026-12-01"}
APPOINTMENT = {"date": "2026-12-03", "time": "14:30", "mode": "office", "place": "5 Main St"}


def confirmation(smtp_server, address: str):
    """The one confirmation e-mail sent to `address` (staff get their own e-mail too)."""
    smtp_server.wait_for(1)
    [message] = [m for m in smtp_server.messages if m["To"] == address]
    return message


def bodies(message) -> tuple[str, str]:
    return (
        message.get_body(("plain",)).get_content(),
        message.get_body(("html",)).get_content(),
    )


def status_path(text: str) -> str:
    return re.search(re.escape(SITE) + r"(/status/[A-Za-z0-9_-]+)", text).group(1)


def act(app, lead_id: int, to_state: str, data: dict, from_state: str) -> int:
    with app.app_context():
        return lifecycle.transition(lead_id, to_state, "staff:1", data, from_state)


def test_confirmation_email_carries_reference_summary_and_a_link_that_opens_the_page(
    mail_app, smtp_server
):
    client = mail_app.test_client()
    answer = post(client, {"email": "seller@example.com"}, photos=[photo(), photo("b.jpg")])
    assert answer.status_code == 303
    lead_work_done(mail_app)
    message = confirmation(smtp_server, "seller@example.com")
    with mail_app.app_context():
        lead = store.get_lead(1)
    assert message["From"] == "US Watch Buyers <offers@watches.example>"
    assert message["Reply-To"] == "offers@example.com"
    assert message["Message-ID"] == "<lead-1-confirmation@watches.example>"
    assert lead["reference"] in str(message["Subject"])
    text, html = bodies(message)
    for body in (text, html):
        assert lead["reference"] in body and "within 24 hours" in body
        assert "(212) 555-0147" in body
        assert "Photos" in body and "Papers" in body
    assert re.search(r"Photos:\s+2\r?\n", text)
    assert "<img" not in html and "<script" not in html  # no remote images, no pixels
    path = status_path(text)
    assert status_path(html.replace("&amp;", "&")) == path
    page = client.get(path)
    assert page.status_code == 200
    assert lead["reference"] in page.get_data(as_text=True)
    token = path.rsplit("/", 1)[1]
    assert len(token) >= 32  # 192 bits
    with mail_app.app_context():
        assert links.lead_by_token_hash(digest(token), "2000")["id"] == lead["id"]
    stored = b"".join(
        p.read_bytes() for p in Path(mail_app.config["LEADS_DB"]).parent.glob("leads.db*")
    )
    assert token.encode() not in stored  # only the hash is kept, in the database and its WAL


def test_confirmation_is_sent_once_however_often_the_job_runs(mail_app, smtp_server):
    lead_id = save_sample_lead(mail_app, email="once@example.com")
    with mail_app.app_context():
        assert confirm_to_seller(lead_id) == "done"
        assert confirm_to_seller(lead_id) == "already done"
    confirmation(smtp_server, "once@example.com")
    assert len(smtp_server.messages) == 1


def test_confirmation_waits_while_smtp_is_not_configured(app):
    lead_id = save_sample_lead(app)
    with app.app_context():
        assert confirm_to_seller(lead_id) == "not configured"
        lead = store.get_lead(lead_id)
    assert status_link_count(app, lead_id) == 0  # no link issued that nobody received
    assert "seller_confirmed_at" in store.pending_work(lead)


def test_no_confirmation_for_a_lead_erased_before_its_job_ran(mail_app, smtp_server):
    lead_id = save_sample_lead(mail_app)
    act(mail_app, lead_id, "closed", {"reason": "not_a_fit"}, "new")
    smtp_server.wait_for(1)  # the closed e-mail
    with mail_app.app_context():
        erasure.erase(lead_id, "staff:1")
        assert confirm_to_seller(lead_id) == "lead erased"
        assert status_link_count(mail_app, lead_id) == 0
    assert len(smtp_server.messages) == 1


def test_island_answer_and_thank_you_page_show_the_reference(client):
    answer = post(client, headers=JSON)
    reference = answer.get_json()["reference"]
    assert PATTERN.fullmatch(reference)
    plain = post(client, {"email": "other@example.com"})
    page = client.get(plain.headers["Location"]).get_data(as_text=True)
    shown = re.search(r"data-reference>([^<]+)<", page).group(1)
    assert PATTERN.fullmatch(shown) and shown != reference
    assert "Form submitted successfully! We&#39;ll review your watch details" in page


def test_status_page_shows_the_watch_and_its_timeline_in_plain_words(app, client):
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    act(app, lead_id, "quoted", QUOTE, "new")
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "Rolex Submariner" in page
    steps = re.findall(r'data-step="(\w+)"', page)
    assert steps == ["done", "done", "current", "upcoming", "upcoming", "upcoming"]
    for words in ("Received", "Under review", "Preliminary quote", "$8,000 to $9,500"):
        assert words in page
    assert "appointment.ics" not in page


def test_appointment_can_be_downloaded_for_the_calendar(app, client):
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    act(app, lead_id, "quoted", QUOTE, "new")
    act(app, lead_id, "accepted", {"via": "phone"}, "quoted")
    booked = act(app, lead_id, "appointment", APPOINTMENT, "accepted")
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert f'href="/status/{token}/appointment.ics"' in page and "5 Main St" in page
    download = client.get(f"/status/{token}/appointment.ics")
    assert download.mimetype == "text/calendar"
    assert download.headers["Cache-Control"] == "no-store"
    calendar = Calendar.from_ical(download.data)
    [event] = calendar.walk("VEVENT")
    assert str(calendar["METHOD"]) == "PUBLISH"
    assert event["SEQUENCE"] == booked and event["LOCATION"] == "5 Main St"


def test_closed_lead_says_why_in_the_sellers_words(app, client):
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    act(app, lead_id, "closed", {"reason": "withdrawn"}, "new")
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "You withdrew your watch" in page
    assert re.findall(r'data-step="(\w+)"', page) == ["done", "current"]


def test_status_page_is_private_noindex_and_sends_no_referrer(app, client):
    token = give_token(app, save_sample_lead(app))
    answer = client.get(f"/status/{token}")
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.headers.getlist("Referrer-Policy") == ["no-referrer"]
    assert answer.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert "ETag" not in answer.headers
    html = answer.get_data(as_text=True)
    assert '<meta name="robots" content="noindex">' in html
    assert token not in html.split("<main", 1)[0]  # not in the canonical or social tags
    assert client.get("/").headers.getlist("Referrer-Policy") == ["strict-origin-when-cross-origin"]


def altered(token: str) -> str:
    swap = "A" if token[5] != "A" else "B"
    return token[:5] + swap + token[6:]


def test_unknown_altered_expired_and_erased_tokens_get_the_same_404(app, client):
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    expired_id = save_sample_lead(app)
    expired = give_token(app, expired_id)
    erased_id = save_sample_lead(app)
    erased = give_token(app, erased_id)
    with app.app_context():
        with transaction() as db:
            db.execute(  # each link its own expiry (tests/status/test_links.py)
                "UPDATE status_links SET expires_at = '2020-01-01T00:00:00+00:00' "
                "WHERE lead_id = ?",
                (expired_id,),
            )
        lifecycle.transition(erased_id, "closed", "staff:1", {"reason": "no_response"}, "new")
        erasure.erase(erased_id, "staff:1")
    assert client.get(f"/status/{token}").status_code == 200
    refused = [
        client.get(f"/status/{path}")
        for path in (
            new_status_token(),
            altered(token),
            expired,
            erased,
            token[:-1],
            token + "x",
            "%00" + token[1:],
            f"{new_status_token()}/appointment.ics",
        )
    ]
    first = refused[0].get_data()
    for answer in refused:
        assert answer.status_code == 404
        assert answer.get_data() == first
        assert answer.headers["Cache-Control"] == "no-store"
        assert answer.headers.getlist("Referrer-Policy") == ["no-referrer"]
    assert b"Page not found" in first
    assert b"USWB-" not in first and b"Jane" not in first and b"Where your sale stands" not in first


@pytest.mark.parametrize("tail", ["documents/receipt", "nothing/here", "offer/x"])
def test_a_path_under_a_real_link_that_no_page_answers_does_not_write_the_token_back(
    app, client, tail
):
    token = give_token(app, save_sample_lead(app))
    answer = client.get(f"/status/{token}/{tail}")
    assert answer.status_code == 404
    assert token.encode() not in answer.get_data()
    assert answer.headers.getlist("Referrer-Policy") == ["no-referrer"]


def test_status_page_stays_out_of_the_page_cache_and_the_sitemap(app, client):
    token = give_token(app, save_sample_lead(app))
    client.get(f"/status/{token}")
    again = client.get(f"/status/{token}", headers={"If-None-Match": "*"})
    assert again.status_code == 200 and "ETag" not in again.headers
    assert "/status" not in client.get("/sitemap.xml").get_data(as_text=True)


def test_request_log_hides_the_status_token(app, caplog):
    token = give_token(app, save_sample_lead(app))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    caplog.set_level(logging.DEBUG)
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        with urllib.request.urlopen(f"{base}/status/{token}") as answer:
            assert answer.status == 200
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{base}/status/{altered(token)}")
    finally:
        server.shutdown()
    assert "/status/[token hidden]" in caplog.text
    assert token not in caplog.text and altered(token) not in caplog.text


def form_token(client, token: str) -> str:
    page = client.get(f"/status/{token}").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def quoted_lead(app, quote: dict = QUOTE) -> tuple[int, str]:
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    act(app, lead_id, "quoted", quote, "new")
    return lead_id, token


def state_of(app, lead_id: int) -> str:
    with app.app_context():
        return store.get_lead(lead_id)["state"]


def test_seller_accepts_the_quote_with_a_plain_form(app, client):
    lead_id, token = quoted_lead(app)
    answer = client.post(f"/status/{token}/quote", data=answer_data(client, token, "accept"))
    assert answer.status_code == 303 and answer.headers["Location"] == f"/status/{token}"
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "you have accepted our preliminary quote" in page
    assert "Preliminary quote accepted" in page and 'value="accept"' not in page
    with app.app_context():
        [change] = [e for e in history.lead_events(lead_id) if e["data"].get("to") == "accepted"]
    assert change["actor"] == "seller" and change["data"]["via"] == "status_page"


def test_an_expired_quote_cannot_be_accepted(app, client):
    lead_id, token = quoted_lead(app, QUOTE | {"valid_until": "2020-01-31"})
    client.post(f"/status/{token}/quote", data=answer_data(client, token, "accept"))
    assert "This preliminary quote has expired" in client.get(f"/status/{token}").get_data(
        as_text=True
    )
    assert state_of(app, lead_id) == "quoted"


def test_seller_declines_the_quote(app, client):
    lead_id, token = quoted_lead(app)
    client.post(
        f"/status/{token}/quote",
        data=answer_data(client, token, "decline"),
    )
    assert state_of(app, lead_id) == "closed"
    assert "You declined our quote" in client.get(f"/status/{token}").get_data(as_text=True)


def test_withdrawal_needs_the_box_ticked_and_can_ask_for_deletion(app, client):
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    csrf = form_token(client, token)
    client.post(f"/status/{token}/withdraw", data={"csrf_token": csrf})
    assert state_of(app, lead_id) == "new"
    client.post(
        f"/status/{token}/withdraw", data={"csrf_token": csrf, "confirm": "yes", "erase": "yes"}
    )
    assert state_of(app, lead_id) == "closed"
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "We have e-mailed you a link to confirm that we should delete your details" in page
    assert "/withdraw" not in page  # nothing left to withdraw
    with app.app_context():
        [closed] = [e for e in history.lead_events(lead_id) if e["data"].get("to") == "closed"]
    assert closed["data"] == {
        "from": "new",
        "to": "closed",
        "reason": "withdrawn",
        "erasure_requested": True,
    }


def test_seller_actions_are_refused_without_csrf_or_with_a_wrong_token(app, client):
    lead_id, token = quoted_lead(app)
    csrf = form_token(client, token)
    forged = client.post(f"/status/{token}/quote", data={"answer": "accept"})
    assert forged.status_code == 303
    assert "Nothing was changed" in client.get(f"/status/{token}").get_data(as_text=True)
    wrong = client.post(
        f"/status/{altered(token)}/quote", data={"answer": "accept", "csrf_token": csrf}
    )
    assert wrong.status_code == 404 and b"USWB-" not in wrong.data
    stale = client.post(f"/status/{token}/quote", data={"answer": "bogus", "csrf_token": csrf})
    assert stale.status_code == 303
    assert state_of(app, lead_id) == "quoted"


def ask_for_link(client, email: str):
    page = client.get("/status").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return client.post("/status", data={"email": email, "csrf_token": csrf})


def notice(client) -> str:
    page = client.get("/status").get_data(as_text=True)
    return re.search(r"data-notice>([^<]+)<", page).group(1)


def test_lost_link_form_answers_alike_and_mails_a_link(mail_app, smtp_server):
    client = mail_app.test_client()
    lead_id = save_sample_lead(mail_app, email="Owner@Example.com")
    closed_id = save_sample_lead(mail_app, email="owner@example.com")
    act(mail_app, closed_id, "closed", {"reason": "not_a_fit"}, "new")
    smtp_server.wait_for(1)  # the closed lead's e-mail
    smtp_server.messages.clear()
    old = give_token(mail_app, lead_id)
    unknown = ask_for_link(client, "nobody@example.com")
    said_to_unknown = notice(client)
    known = ask_for_link(client, "owner@example.com")
    said_to_owner = notice(client)
    assert unknown.status_code == known.status_code == 303
    assert said_to_unknown == said_to_owner
    lead_work_done(mail_app)
    [message] = smtp_server.wait_for(1)  # one open lead: one link; none for the stranger
    assert message["To"] == "Owner@Example.com"
    text = bodies(message)[0]
    assert "The links in our earlier e-mails no longer work" in text
    assert client.get(status_path(text)).status_code == 200
    assert client.get(f"/status/{old}").status_code == 404  # replaced (tests/status/test_links.py)


def test_lost_link_job_is_queued_by_id_and_the_address_is_forgotten_once_sent(
    make_app, mail_settings, smtp_server, redis_server
):
    queued_app = make_app(**mail_settings, REDIS_URL=redis_server.url)
    save_sample_lead(queued_app, email="owner@example.com")
    assert ask_for_link(queued_app.test_client(), "owner@example.com").status_code == 303
    with queued_app.app_context():
        [job] = [rq.queue.fetch_job(job_id) for job_id in rq.queue.get_job_ids()]
        stored = Redis.from_url(redis_server.url).hgetall(f"rq:job:{job.id}")
        assert (job.func_name, job.args) == ("worker.jobs.send_status_links", (1,))
        assert not [value for value in stored.values() if b"owner@example.com" in value]
        assert send_status_links(1) == "sent 1"
        assert send_status_links(1) == "already answered"  # a retry sends nothing twice
        assert links.waiting_link_requests() == []
    [message] = smtp_server.wait_for(1)
    assert message["To"] == "owner@example.com"


def test_lost_link_form_refuses_a_malformed_address(client):
    answer = ask_for_link(client, "not an address")
    assert answer.status_code == 422
    assert "Please enter the e-mail address you used" in answer.get_data(as_text=True)


def test_lost_link_form_is_rate_limited(make_app):
    client = make_app(RATELIMIT_ENABLED=True, STATUS_LINK_RATELIMIT="2 per minute").test_client()
    assert [ask_for_link(client, "a@example.com").status_code for _ in range(3)] == [303, 303, 429]
    refused = ask_for_link(client, "a@example.com")
    assert "Too many requests" in refused.get_data(as_text=True)
    assert refused.headers["Cache-Control"] == "no-store"


# Adding photos, asking a question, and staff hearing of it.


def send_photos(client, token: str, count: int, headers=None, photos=None, csrf=None):
    return post_multipart(
        client,
        f"/status/{token}/photos",
        {"csrf_token": csrf or form_token(client, token)},
        photos if photos is not None else [photo(f"extra-{n}.jpg") for n in range(count)],
        headers,
    )


def stored_uploads(app) -> list[Path]:
    with app.app_context():
        return [*storage.incoming_dir().glob("*"), *storage.photos_dir().glob("*")]


def test_seller_adds_photos_until_the_tenth_and_the_eleventh_is_refused(app, client):
    answer = post(client, photos=[photo(), photo("back.png", fmt="PNG")])
    assert answer.status_code == 303
    lead_work_done(app)
    token = give_token(app, 1)
    assert "You can send 8 more photos" in client.get(f"/status/{token}").get_data(as_text=True)

    assert send_photos(client, token, 3).headers["Location"] == f"/status/{token}"
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "your new photos are with your enquiry" in page and "You can send 5 more" in page
    too_many = send_photos(client, token, 6)
    assert too_many.status_code == 303
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "You can add up to 5 more: we take 10 photos in all." in page
    send_photos(client, token, 5)
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "Add photos" not in page and 'name="photos"' not in page  # no room left
    eleventh = send_photos(client, token, 1)
    assert eleventh.status_code == 303
    assert "You have sent us 10 photos, the most we take" in client.get(
        f"/status/{token}"
    ).get_data(as_text=True)

    lead_work_done(app)
    with app.app_context():
        photos = store.lead_photos(1)
        events = history.lead_events(1)
    assert [p["position"] for p in photos] == list(range(1, 11))
    assert all(p["image_name"] and p["thumb_name"] for p in photos)  # the job took the new ones
    added = [e for e in events if e["kind"] == "photos_added"]
    assert [(e["actor"], e["data"]["photos"]) for e in added] == [("seller", 3), ("seller", 5)]
    # Each refused upload left no file behind: ten photos, each a cleaned image and a thumb.
    assert len(stored_uploads(app)) == 20


def test_added_photos_get_the_sell_forms_checks_and_json_for_the_island(app, client):
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    assert "Photos sent:" not in client.get(f"/status/{token}").text  # none: no "0" shown
    fake = [(io.BytesIO(b"<?php echo 1; ?>"), "watch.jpg")]
    refused = send_photos(client, token, 1, headers=JSON, photos=fake)
    assert refused.status_code == 422
    assert refused.get_json() == {
        "success": False,
        "error": "watch.jpg is not a PNG, JPEG, WebP or HEIC photo.",
    }
    empty = send_photos(client, token, 0, headers=JSON)
    assert empty.get_json()["error"] == "Please choose at least one photo to add."
    accepted = send_photos(client, token, 2, headers=JSON)
    assert accepted.get_json() == {"success": True, "next": f"/status/{token}"}
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "your new photos are with your enquiry" in page and "Photos sent:</dt>" in page
    with app.app_context():
        assert len(store.lead_photos(lead_id)) == 2


def test_photos_and_questions_are_refused_once_the_sale_is_closed(app, client):
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    csrf = form_token(client, token)
    act(app, lead_id, "closed", {"reason": "not_a_fit"}, "new")
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "Add photos" not in page and "Ask us a question" not in page
    photos = send_photos(client, token, 1, headers=JSON, csrf=csrf)
    question = client.post(
        f"/status/{token}/question", data={"question": "Still there?", "csrf_token": csrf}
    )
    assert photos.status_code == 409 and question.status_code == 303
    with app.app_context():
        kinds = [e["kind"] for e in history.lead_events(lead_id)]
    assert "photos_added" not in kinds and "question" not in kinds
    assert stored_uploads(app) == []


def test_photos_and_questions_need_the_csrf_token_and_the_right_link(app, client):
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    csrf = form_token(client, token)
    forged = send_photos(client, token, 1, headers=JSON, csrf="forged")
    assert forged.status_code == 400 and forged.get_json()["success"] is False
    wrong = client.post(
        f"/status/{altered(token)}/question", data={"question": "Hi", "csrf_token": csrf}
    )
    assert wrong.status_code == 404 and b"USWB-" not in wrong.data
    with app.app_context():
        assert [e["kind"] for e in history.lead_events(lead_id)] == ["submitted"]


@pytest.fixture
def alert_app(make_app, mail_settings):
    """Staff e-mail configured, to the loopback SMTP server."""
    return make_app(**mail_settings, STAFF_EMAIL="buyers@watches.example")


def staff_alerts(smtp_server, count: int) -> list:
    """The alerts among the e-mails (not the seller's, nor staff's "New lead" e-mail)."""
    smtp_server.wait_for(count)
    return [
        message
        for message in smtp_server.messages
        if message["To"] == "buyers@watches.example"
        and not message["Subject"].startswith("New lead")
    ]


def test_a_sellers_question_reaches_the_staff_timeline_and_staff_by_email(alert_app, smtp_server):
    client = alert_app.test_client()
    lead_id, token = quoted_lead(alert_app)
    smtp_server.wait_for(1)  # the seller's quote e-mail
    smtp_server.messages.clear()
    csrf = form_token(client, token)
    blank = client.post(f"/status/{token}/question", data={"question": "  ", "csrf_token": csrf})
    assert blank.status_code == 303
    assert "Please write your question." in client.get(f"/status/{token}").get_data(as_text=True)
    question = "Is the <b>quote</b> firm if the bracelet\nneeds a link added?"
    client.post(f"/status/{token}/question", data={"question": question, "csrf_token": csrf})
    assert "your question is with our team" in client.get(f"/status/{token}").get_data(as_text=True)
    lead_work_done(alert_app)
    [alert] = staff_alerts(smtp_server, 1)
    with alert_app.app_context():
        reference = store.get_lead(lead_id)["reference"]
        events = history.lead_events(lead_id)
    assert alert["Subject"] == f"{reference}: Seller asked a question"
    assert alert["Reply-To"] == "jane@example.com"
    text = alert.get_content().replace("\r\n", "\n")
    assert question in text and f"{SITE}/staff/leads/{lead_id}" in text
    [asked] = [e for e in events if e["kind"] == "question"]
    assert asked["actor"] == "seller" and asked["data"] == {"message": question}
    [recorded] = [e for e in events if e["kind"] == "staff_alerted"]
    assert recorded["data"] == {"event_id": asked["id"], "template": "question"}
    # Once per question, however often the job runs again.
    with alert_app.app_context():
        assert alert_staff(lead_id, asked["id"]) == "already sent"


def test_accepting_declining_and_adding_photos_each_alert_staff(alert_app, smtp_server):
    client = alert_app.test_client()
    accepted_id, accepted = quoted_lead(alert_app)
    declined_id, declined = quoted_lead(alert_app)
    smtp_server.wait_for(2)
    smtp_server.messages.clear()
    for token, answer in ((accepted, "accept"), (declined, "decline")):
        client.post(f"/status/{token}/quote", data=answer_data(client, token, answer))
    send_photos(client, accepted, 2)
    lead_work_done(alert_app)
    alerts = staff_alerts(smtp_server, 4)  # and the seller's "closed" e-mail
    subjects = sorted(message["Subject"].split(": ", 1)[1] for message in alerts)
    assert subjects == [
        "Closed: Seller declined",
        "Seller accepted the quote (on the status page)",
        "Seller added 2 photos",
    ]


def test_staff_alerts_wait_for_smtp_and_requeue_sends_them(make_app, mail_settings, smtp_server):
    app = make_app(STAFF_EMAIL="buyers@watches.example")  # no SMTP_HOST yet
    client = app.test_client()
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    client.post(
        f"/status/{token}/question",
        data={"question": "Can you collect on Saturday?", "csrf_token": form_token(client, token)},
    )
    lead_work_done(app)
    with app.app_context():
        assert history.unalerted_seller_events() == [
            (lead_id, history.lead_events(lead_id)[-1]["id"])
        ]
    configured = make_app(
        **mail_settings, LEADS_DB=app.config["LEADS_DB"], STAFF_EMAIL="buyers@watches.example"
    )
    result = configured.test_cli_runner().invoke(args=["leads", "requeue"])
    assert result.exit_code == 0, result.output
    [alert] = staff_alerts(smtp_server, 3)  # and the lead's own two e-mails, pending till now
    assert "Can you collect on Saturday?" in alert.get_content()
    with configured.app_context():
        assert history.unalerted_seller_events() == []


def test_status_actions_are_rate_limited_per_client(make_app):
    app = make_app(RATELIMIT_ENABLED=True, STATUS_ACTION_RATELIMIT="2 per minute")
    client = app.test_client()
    token = give_token(app, save_sample_lead(app))
    csrf = form_token(client, token)
    answers = [
        client.post(f"/status/{token}/question", data={"question": "Hi?", "csrf_token": csrf})
        for _ in range(3)
    ]
    assert [a.status_code for a in answers] == [303, 303, 303]
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "Too many requests from your connection" in page
    with app.app_context():
        assert [e["kind"] for e in history.lead_events(1)].count("question") == 2


def test_lost_link_form_is_limited_per_email_address_too(make_app):
    app = make_app(
        RATELIMIT_ENABLED=True,
        STATUS_LINK_RATELIMIT="100 per minute",
        STATUS_LINK_EMAIL_RATELIMIT="2 per hour",
    )
    client = app.test_client()
    asked = [ask_for_link(client, "Owner@Example.com").status_code for _ in range(2)]
    assert asked + [ask_for_link(client, "owner@example.com ").status_code] == [303, 303, 429]
    assert ask_for_link(client, "someone.else@example.com").status_code == 303


def test_every_email_to_the_seller_links_to_the_status_page_with_a_token_of_its_own(
    mail_app, smtp_server
):
    client = mail_app.test_client()
    lead_id = save_sample_lead(mail_app, email="links@example.com")
    with mail_app.app_context():
        confirm_to_seller(lead_id)
    act(mail_app, lead_id, "quoted", QUOTE, "new")
    act(mail_app, lead_id, "closed", {"reason": "seller_declined"}, "quoted")
    messages = smtp_server.wait_for(3)
    paths = [status_path(bodies(message)[0]) for message in messages]
    assert len(set(paths)) == 3  # confirmation, quote, closed: each its own link
    assert [client.get(path).status_code for path in paths] == [200, 200, 200]
    with mail_app.app_context():
        erasure.erase(lead_id, "staff:1")
        assert status_link_count(mail_app, lead_id) == 0
    assert [client.get(path).status_code for path in paths] == [404, 404, 404]


def test_withdrawal_with_erasure_leaves_no_personal_field_or_photo_file_behind(app, client):
    post(client, photos=[photo(), photo("side.jpg")])
    lead_work_done(app)
    token = give_token(app, 1)
    send_photos(client, token, 2)
    csrf = form_token(client, token)
    client.post(
        f"/status/{token}/question",
        data={"question": "My number changed: 917 555 0188", "csrf_token": csrf},
    )
    client.post(
        f"/status/{token}/withdraw", data={"csrf_token": csrf, "confirm": "yes", "erase": "yes"}
    )
    lead_work_done(app)
    assert len(stored_uploads(app)) == 8  # four photos, each cleaned and a thumbnail
    with app.app_context():
        erasure.erase(1, "staff:1")  # staff confirm the erasure from the inbox
        lead = store.get_lead(1)
        events = history.lead_events(1)
    assert stored_uploads(app) == []
    assert lead["full_name"] == lead["email"] == lead["phone"] == lead["additional_details"] == ""
    assert lead["client_ip"] is None and lead["user_agent"] is None
    assert lead["reference"] and lead["watch_brand"] == "Rolex" and lead["state"] == "closed"
    stored = repr(events) + repr(lead)
    for personal in ("917 555 0188", "Jane", "jane@example.com", "555-0147", "side.jpg"):
        assert personal not in stored
    assert client.get(f"/status/{token}").status_code == 404


def test_a_quote_revised_after_the_page_was_opened_is_not_accepted(app, client):
    lead_id, token = quoted_lead(app)
    seen = answer_data(client, token, "accept")
    with app.app_context():
        lifecycle.transition(lead_id, "quoted", "staff:1", QUOTE | {"amount_low": 7000}, "quoted")
    assert client.post(f"/status/{token}/quote", data=seen).status_code == 303
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "We revised our preliminary quote after this page was opened" in page
    assert "$7,000" in page and state_of(app, lead_id) == "quoted"
