"""Seller e-mails for staff actions, over a real SMTP server on loopback (and a real rq worker)."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlsplit

import pytest
from icalendar import Calendar

from app.leads import history, links, store
from app.rendering.dates import display_date
from app.sale import erasure, lifecycle
from tests.helpers import (
    PAYMENT,
    business_today,
    fill_purchase_record,
    lead_work_done,
    save_sample_lead,
    wait_until,
)
from worker.jobs import send_seller_email

QUOTE = {
    "amount_low": 8000,
    "amount_high": 9500,
    "valid_until": "2026-12-01",
    "message": "<b>Great</b> watch & a fine strap",
}
APPOINTMENT = {
    "date": "2026-12-03",
    "time": "14:30",
    "mode": "collection",
    "place": "12 Elm St, Brooklyn, NY",
}
EVIL_NAME = 'Jane<script>alert(1)</script> <img src="https://evil.example/x.png">'


def act(app, lead_id: int, to_state: str, data: dict, from_state: str) -> int:
    with app.app_context():
        return lifecycle.transition(lead_id, to_state, "staff:1", data, from_state)


def send(app, lead_id: int, event_id: int) -> str:
    """Run the e-mail job again, as a retry or a requeue would."""
    with app.app_context():
        return send_seller_email(lead_id, event_id)


def attachment_event(message):
    return Calendar.from_ical(next(message.iter_attachments()).get_content()).walk("VEVENT")[0]


def subject(message) -> str:
    """The subject as a mail client shows it (a long one arrives folded)."""
    return str(message["Subject"]).strip()


def bodies(message) -> tuple[str, str]:
    return (
        message.get_body(("plain",)).get_content(),
        message.get_body(("html",)).get_content(),
    )


def test_quote_email_has_text_and_html_parts_with_the_quote(mail_app, smtp_server):
    lead_id = save_sample_lead(mail_app, full_name=EVIL_NAME, email="seller@example.com")
    event_id = act(mail_app, lead_id, "quoted", QUOTE, "new")  # sent in-process (no Redis)
    [message] = smtp_server.wait_for(1)
    lead_work_done(mail_app)  # the job records the e-mail just after the server has it
    with mail_app.app_context():
        reference = store.get_lead(lead_id)["reference"]
        assert history.email_sent(event_id)
    assert message["To"] == "seller@example.com"
    assert message["From"] == "US Watch Buyers <offers@watches.example>"
    assert message["Reply-To"] == "offers@example.com"
    assert subject(message) == f"Your preliminary quote for your Rolex Submariner ({reference})"
    assert message["Message-ID"] == f"<lead-{lead_id}-event-{event_id}@watches.example>"
    text, html = bodies(message)
    for body in (text, html):
        assert "$8,000 to $9,500" in body and "1 December 2026" in body and reference in body
        assert "(212) 555-0147" in body
    assert "<b>Great</b> watch & a fine strap" in text
    assert "&lt;b&gt;Great&lt;/b&gt; watch &amp; a fine strap" in html
    assert "Hello Jane&lt;script&gt;alert(1)&lt;/script&gt;," in html  # the name, as text
    assert "<script" not in html and "<img" not in html  # no scripts, no remote images


def test_one_email_per_event_however_often_the_job_runs(mail_app, smtp_server):
    lead_id = save_sample_lead(mail_app)
    event_id = act(mail_app, lead_id, "quoted", QUOTE, "new")
    smtp_server.wait_for(1)
    lead_work_done(mail_app)  # the job recorded what it sent
    assert send(mail_app, lead_id, event_id) == "already sent"
    assert send(mail_app, lead_id, event_id) == "already sent"
    with mail_app.app_context():
        assert history.record_email(lead_id, event_id, "quote") is False
        sent = [e for e in history.lead_events(lead_id) if e["kind"] == "email_sent"]
    assert len(smtp_server.messages) == 1
    assert [e["data"] for e in sent] == [{"event_id": event_id, "template": "quote"}]


def test_revised_quote_is_a_second_email_saying_so(mail_app, smtp_server):
    lead_id = save_sample_lead(mail_app)
    act(mail_app, lead_id, "quoted", QUOTE, "new")
    act(mail_app, lead_id, "quoted", QUOTE | {"amount_low": 9000}, "quoted")
    messages = smtp_server.wait_for(2)
    assert subject(messages[1]).startswith("Your revised preliminary quote")
    assert "it is now $9,000 to $9,500" in bodies(messages[1])[0]


def book(app, lead_id: int, appointment: dict = APPOINTMENT) -> int:
    act(app, lead_id, "quoted", QUOTE, "new")
    act(app, lead_id, "accepted", {"via": "phone"}, "quoted")
    return act(app, lead_id, "appointment", appointment, "accepted")


def test_appointment_email_carries_an_ics_invitation(mail_app, smtp_server):
    lead_id = save_sample_lead(mail_app)
    event_id = book(mail_app, lead_id)
    message = smtp_server.wait_for(2)[1]
    text, html = bodies(message)
    assert "3 December 2026" in subject(message)
    for body in (text, html):
        assert "2:30 pm EST" in body and "12 Elm St, Brooklyn, NY" in body
        assert "Insured collection" in body
    [attachment] = list(message.iter_attachments())
    assert attachment.get_content_type() == "text/calendar"
    assert attachment.get_filename() == "appointment.ics"
    assert attachment.get_param("method") == "PUBLISH"
    calendar = Calendar.from_ical(attachment.get_content())
    [event] = calendar.walk("VEVENT")
    with mail_app.app_context():
        reference = store.get_lead(lead_id)["reference"]
    assert str(calendar["METHOD"]) == "PUBLISH"
    assert event["UID"] == f"appointment-{reference}@watches.example"
    assert event["SEQUENCE"] == event_id
    start = event.decoded("DTSTART")
    assert start.replace(tzinfo=None) == datetime(2026, 12, 3, 14, 30)
    assert str(start.tzinfo) == "America/New_York"
    assert (event.decoded("DTEND") - start).total_seconds() == 3600
    assert str(event["LOCATION"]) == "12 Elm St, Brooklyn, NY"
    assert "ATTENDEE" not in event  # a copy for the seller's calendar names no attendee
    assert str(event["ORGANIZER"]) == "mailto:offers@example.com"
    assert calendar.walk("VTIMEZONE")  # the zone travels with the invitation


def test_calendar_files_hold_neither_the_sellers_name_nor_email(mail_app, smtp_server):
    """The .ics attached to the e-mail and the one downloaded from the status page: a copy for
    the seller's own calendar (PUBLISH), which needs no attendee, so no personal data."""
    name, email = "Zelda Quixote", "zelda.quixote@example.com"
    lead_id = save_sample_lead(mail_app, full_name=name, email=email)
    book(mail_app, lead_id)
    attachment = next(smtp_server.wait_for(2)[1].iter_attachments())
    with mail_app.app_context():
        status_path = urlsplit(links.issue_status_link(lead_id)).path
    download = mail_app.test_client().get(f"{status_path}/appointment.ics")
    assert download.status_code == 200
    assert attachment.get_param("method") == "PUBLISH"
    for ics in (attachment.get_content(), download.data):
        calendar = Calendar.from_ical(ics)
        [event] = calendar.walk("VEVENT")
        assert str(calendar["METHOD"]) == "PUBLISH" and "ATTENDEE" not in event
        text = ics.decode() if isinstance(ics, bytes) else ics
        unfolded = text.replace("\r\n ", "").replace("\n ", "").lower()
        for personal in (name, email, "zelda", "quixote"):
            assert personal.lower() not in unfolded


def test_rebooked_appointment_updates_the_same_calendar_event(mail_app, smtp_server):
    lead_id = save_sample_lead(mail_app)
    book(mail_app, lead_id)
    act(mail_app, lead_id, "appointment", APPOINTMENT | {"time": "16:00"}, "appointment")
    first, second = smtp_server.wait_for(3)[1:]
    assert attachment_event(first)["UID"] == attachment_event(second)["UID"]
    assert attachment_event(second)["SEQUENCE"] > attachment_event(first)["SEQUENCE"]
    assert subject(second).startswith("Your authentication appointment has moved")
    assert "4:00 pm EST" in bodies(second)[0]


def test_offer_and_completed_emails(mail_app, smtp_server):
    lead_id = save_sample_lead(mail_app)
    book(mail_app, lead_id, APPOINTMENT | {"mode": "office"})
    with mail_app.app_context():
        fill_purchase_record(lead_id)
    act(mail_app, lead_id, "offered", {"amount": 9100, "valid_until": "2026-12-11"}, "appointment")
    act(mail_app, lead_id, "agreed", {"via": "phone"}, "offered")
    paid = {"amount": 9100, "paid_on": business_today().isoformat()} | PAYMENT
    act(mail_app, lead_id, "bought", paid, "agreed")
    lead_work_done(mail_app)
    sent = {subject(message).split(" for ")[0]: message for message in smtp_server.messages}
    offer, completed = sent["Your final offer"], sent["Payment sent"]
    assert "Our final offer is $9,100, valid until 11 December 2026." in bodies(offer)[0]
    assert "Accept or decline it on your status page" in bodies(offer)[0]
    assert "return your watch at our expense" in bodies(offer)[0]
    assert subject(completed).startswith("Payment sent for your Rolex Submariner")
    assert f"by bank transfer on {display_date(paid['paid_on'])}." in bodies(completed)[0]
    attached = [part.get_filename() for part in completed.iter_attachments()]
    assert [name.split("-USWB-")[0] for name in attached] == ["bill-of-sale", "receipt"]


@pytest.mark.parametrize("reason", lifecycle.CLOSE_REASONS)
def test_closed_email_says_why(mail_app, smtp_server, reason):
    lead_id = save_sample_lead(mail_app)
    act(mail_app, lead_id, "closed", {"reason": reason}, "new")
    [message] = smtp_server.wait_for(1)
    text = bodies(message)[0]
    assert subject(message).startswith("Your enquiry about your Rolex Submariner is closed")
    expected = {
        "seller_declined": "As you asked",
        "not_a_fit": "not able to make an offer",
        "no_response": "not heard back",
        "withdrawn": "You have withdrawn",
    }
    assert expected[reason] in text


def test_no_email_for_contacted_or_accepted(mail_app, smtp_server):
    lead_id = save_sample_lead(mail_app)
    contacted = act(mail_app, lead_id, "contacted", {}, "new")
    assert send(mail_app, lead_id, contacted) == "no e-mail for this change"
    act(mail_app, lead_id, "quoted", QUOTE, "contacted")
    accepted = act(mail_app, lead_id, "accepted", {}, "quoted")
    assert send(mail_app, lead_id, accepted) == "no e-mail for this change"
    with pytest.raises(LookupError):
        send(mail_app, lead_id, accepted + 1000)
    assert len(smtp_server.wait_for(1)) == 1  # the quote only


def test_unsent_emails_wait_for_smtp_and_requeue_sends_them(make_app, smtp_server):
    bare = make_app()  # no SMTP_HOST: the e-mail stays pending
    quoted_lead, erased_lead = save_sample_lead(bare), save_sample_lead(bare)
    quote = act(bare, quoted_lead, "quoted", QUOTE, "new")
    closed = act(bare, erased_lead, "closed", {"reason": "not_a_fit"}, "new")
    with bare.app_context():
        assert not history.email_sent(quote)
        erasure.erase(erased_lead, "staff:1")
    assert send(bare, quoted_lead, quote) == "not configured"
    assert send(bare, erased_lead, closed) == "lead erased"
    configured = make_app(
        LEADS_DB=bare.config["LEADS_DB"],
        SMTP_HOST=smtp_server.host,
        SMTP_PORT=str(smtp_server.port),
        SMTP_USE_TLS="0",
    )
    result = configured.test_cli_runner().invoke(args=["leads", "requeue"])
    assert f"Queued the seller e-mail of lead #{quoted_lead} (event {quote})." in result.output
    assert f"lead #{erased_lead}" not in result.output  # erased: no work, no e-mail
    confirmation, quote_email = smtp_server.wait_for(2)  # its lead work ran too
    assert subject(confirmation).startswith("We have your Rolex Submariner")
    assert "$8,000 to $9,500" in bodies(quote_email)[0]
    again = configured.test_cli_runner().invoke(args=["leads", "requeue"])
    assert "seller e-mail" not in again.output


def test_rq_worker_sends_the_seller_email(
    make_app, pipeline_settings, redis_server, start_rq_worker, smtp_server
):
    settings = pipeline_settings | {"REDIS_URL": redis_server.url}
    app = make_app(**settings)
    start_rq_worker(settings)
    lead_id = save_sample_lead(app)
    event_id = act(app, lead_id, "quoted", QUOTE, "new")  # queued to Redis
    [message] = smtp_server.wait_for(1, timeout=60)
    assert "$8,000 to $9,500" in bodies(message)[0]

    def recorded():
        with app.app_context():
            return history.email_sent(event_id)

    assert wait_until(recorded)
