"""Sellers' status links: a link sent by the lost-link form replaces the lead's
earlier ones once it has gone out, each link expires on its own date, and a revoked or expired
link gets the one 404 every bad link gets."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from app.leads import history, links
from app.leads.db import transaction
from app.leads.reference import new_status_token
from app.security.tokens import digest
from tests.helpers import (
    database_at_version,
    free_port,
    give_token,
    lead_work_done,
    save_sample_lead,
)
from worker.jobs import send_status_links

SITE = "https://watches.example"


def ask_for_link(client, email: str):
    page = client.get("/status").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return client.post("/status", data={"email": email, "csrf_token": csrf})


def unknown_link_page(client) -> bytes:
    """The one 404 every bad link gets (unknown, altered, malformed, erased)."""
    answer = client.get(f"/status/{new_status_token()}")
    assert answer.status_code == 404
    return answer.get_data()


def link_column(app, token: str, column: str) -> str:
    with app.app_context(), transaction() as db:
        query = f"SELECT {column} FROM status_links WHERE token_hash = ?"
        return db.execute(query, (digest(token),)).fetchone()[0]


def status_path(text: str) -> str:
    return re.search(re.escape(SITE) + r"(/status/[A-Za-z0-9_-]+)", text).group(1)


def test_lost_link_page_says_earlier_links_stop_once_the_new_one_is_sent(client):
    page = " ".join(client.get("/status").get_data(as_text=True).split())
    assert "the old link will stop working" not in page
    assert "Once it is sent, the links in our earlier e-mails stop working." in page


def test_a_link_sent_by_the_lost_link_form_revokes_the_leads_earlier_links(mail_app, smtp_server):
    client = mail_app.test_client()
    lead_id = save_sample_lead(mail_app, email="owner@example.com")
    other_lead = save_sample_lead(mail_app, email="someone.else@example.com")
    first, second = give_token(mail_app, lead_id), give_token(mail_app, lead_id)
    others = give_token(mail_app, other_lead)
    assert ask_for_link(client, "owner@example.com").status_code == 303
    lead_work_done(mail_app)
    [message] = smtp_server.wait_for(1)
    text = message.get_body(("plain",)).get_content()
    assert "The links in our earlier e-mails no longer work" in text
    new = status_path(text)
    assert client.get(new).status_code == 200
    not_found = unknown_link_page(client)
    for old in (first, second):
        answer = client.get(f"/status/{old}")
        assert answer.status_code == 404 and answer.get_data() == not_found
    assert client.get(f"/status/{others}").status_code == 200  # another seller's: untouched
    with mail_app.app_context():
        [resent] = [e for e in history.lead_events(lead_id) if e["kind"] == "link_resent"]
    assert resent["actor"] == "system" and resent["data"] == {"revoked": 2}


def test_a_lost_link_request_that_sends_nothing_revokes_nothing(make_app, app, client):
    """Until the new link has gone out, the seller's link keeps working: a stranger typing their
    address, an unconfigured mail server or a failed delivery never locks them out."""
    lead_id = save_sample_lead(app, email="owner@example.com")
    token = give_token(app, lead_id)
    assert ask_for_link(client, "owner@example.com").status_code == 303  # no SMTP_HOST
    lead_work_done(app)
    with app.app_context():
        assert links.waiting_link_requests() != []  # still waiting: nothing was sent
    assert client.get(f"/status/{token}").status_code == 200

    refusing = make_app(
        LEADS_DB=app.config["LEADS_DB"],
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=str(free_port()),  # nothing listens there: the delivery fails
        SMTP_USE_TLS="0",
    )
    with refusing.app_context():
        [request_id] = links.waiting_link_requests()
        with pytest.raises(OSError):
            send_status_links(request_id)
    assert client.get(f"/status/{token}").status_code == 200


def test_each_link_expires_on_its_own_date_and_activity_does_not_extend_it(app, client):
    lead_id = save_sample_lead(app)
    before = datetime.now(UTC)
    older, newer = give_token(app, lead_id), give_token(app, lead_id)
    expires = datetime.fromisoformat(link_column(app, newer, "expires_at"))
    assert before + timedelta(days=180) - timedelta(seconds=5) <= expires
    assert expires <= datetime.now(UTC) + timedelta(days=180)
    with app.app_context(), transaction() as db:
        db.execute(
            "UPDATE status_links SET expires_at = ? WHERE token_hash = ?",
            (
                (datetime.now(UTC) - timedelta(seconds=1)).isoformat(timespec="seconds"),
                digest(older),
            ),
        )
    expired = client.get(f"/status/{older}")
    assert expired.status_code == 404 and expired.get_data() == unknown_link_page(client)
    page = client.get(f"/status/{newer}").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    client.post(f"/status/{newer}/question", data={"question": "Still there?", "csrf_token": csrf})
    assert link_column(app, newer, "expires_at") == expires.isoformat()  # not extended
    assert client.get(f"/status/{older}").status_code == 404  # nor revived


def test_a_link_works_until_its_own_expiry_however_long_the_lead_was_quiet(app, client):
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    with app.app_context(), transaction() as db:
        db.execute(
            "UPDATE leads SET last_activity_at = datetime('now', '-400 days') WHERE id = ?",
            (lead_id,),
        )
    assert client.get(f"/status/{token}").status_code == 200


def test_links_from_before_their_own_expiry_keep_the_date_they_had(make_app, tmp_path):
    """A database from before the column: each link expires 180 days after its lead's last
    activity, as it did, so upgrading neither kills nor lengthens any link."""
    path = str(tmp_path / "leads.db")
    db = database_at_version(path, 10)
    token = new_status_token()
    db.execute(
        "INSERT INTO leads (full_name, email, phone, watch_brand, watch_condition, has_box, "
        "has_papers, source, meta_event_id, created_at, reference, last_activity_at) "
        "VALUES ('Jane', 'j@example.com', '1', 'Rolex', 'Good', 0, 0, 'web', 'evt', "
        "'2026-01-01T00:00:00+00:00', 'USWB-AAAAAA', ?)",
        ((datetime.now(UTC) - timedelta(days=10)).isoformat(timespec="seconds"),),
    )
    db.execute(
        "INSERT INTO status_links (token_hash, lead_id, issued_at) "
        "VALUES (?, 1, '2026-01-01T00:00:00+00:00')",
        (digest(token),),
    )
    db.commit()
    db.close()
    app = make_app(LEADS_DB=path)
    expires = datetime.fromisoformat(link_column(app, token, "expires_at"))
    expected = datetime.now(UTC) - timedelta(days=10) + timedelta(days=180)
    assert abs((expires - expected).total_seconds()) < 60
    assert app.test_client().get(f"/status/{token}").status_code == 200
