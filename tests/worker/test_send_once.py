"""Every e-mail promised once goes at most once, with a real SMTP server on loopback that fails on
purpose: a relay that refuses or cannot be reached before it has the message gets it again from
the retry; one that goes quiet or hangs up after the whole message, a worker killed after the
relay took it, or a disk full before the send is recorded leaves the e-mail claimed: never sent
again automatically, put on the lead's timeline and before staff once, by its Message-ID."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller

from app import queue
from app.leads import history, links, store
from app.leads.db import transaction
from app.leads.state import State
from app.sale import lifecycle, pending, timeline
from tests.helpers import (
    JSON,
    ROOT,
    SmtpInbox,
    free_port,
    kill_tree,
    lead_work_done,
    mail_settings_for,
    post,
    save_sample_lead,
    wait_until,
)
from worker import jobs, mail

SELLER = "jane@example.com"
STAFF = "desk@watches.example"
QUIET_FOR = 3  # seconds a quiet relay keeps the client waiting, past the client's time-out
UNSURE_SUBJECT = "Unsure whether an e-mail went"


@pytest.fixture
def relay():
    """aiosmtpd on loopback that takes every message, except as `relay.plan` says for the next
    ones: 'quiet' (takes it, then no answer), 'hang up' (takes it, then drops the connection),
    'refuse' (451 to the message), 'refuse recipient' (550), or a function to call once it has
    taken the message, before it answers."""
    inbox = SmtpInbox("127.0.0.1", free_port())
    inbox.plan = []

    class Handler:
        async def handle_RCPT(self, server, session, envelope, address, options):
            if inbox.plan and inbox.plan[0] == "refuse recipient":
                inbox.plan.pop(0)
                return "550 No such mailbox here"
            envelope.rcpt_tos.append(address)
            return "250 OK"

        async def handle_DATA(self, server, session, envelope):
            what = inbox.plan.pop(0) if inbox.plan else "take"
            if what == "refuse":
                return "451 Try again later"
            inbox.messages.append(message_from_bytes(envelope.content, policy=policy.default))
            if what == "quiet":
                await asyncio.sleep(QUIET_FOR)
            if what == "hang up":
                server.transport.abort()
            if callable(what):
                what()
            return "250 OK"

    controller = Controller(Handler(), hostname=inbox.host, port=inbox.port)
    controller.start()
    yield inbox
    controller.stop()


@pytest.fixture
def app(make_app, relay, monkeypatch):
    """An app e-mailing sellers and staff through `relay`, its client waiting 1 s for an answer
    (the time-out that makes a quiet relay a failure), every lead's other work done."""
    monkeypatch.setattr(mail, "SMTP_TIMEOUT", 1)
    return make_app(**relay_settings(relay))


def relay_settings(relay) -> dict:
    """Settings that send every e-mail through `relay`, staff's to STAFF."""
    return mail_settings_for(relay) | {"STAFF_EMAIL": STAFF}


def lead_owing_only_its_confirmation(app) -> int:
    """A lead whose photos, staff e-mail and conversions are done; only the seller's
    confirmation is owed."""
    lead_id = save_sample_lead(app)
    with app.app_context(), transaction() as db:
        db.execute(
            "UPDATE leads SET photos_processed_at = created_at, staff_notified_at = created_at, "
            "conversions_sent_at = created_at WHERE id = ?",
            (lead_id,),
        )
    return lead_id


def attempt(app, job, *ids):
    """Run a job as its runner does: its answer, or the error a retry would follow."""
    with app.app_context():
        try:
            return job(*ids)
        except Exception as error:  # the runner logs it and retries
            return error


def to(relay, address: str, subject: str = "") -> list:
    return [m for m in relay.messages if m["To"] == address and subject in m["Subject"]]


def unsure_reports(relay) -> list:
    return [m for m in to(relay, STAFF) if m["Subject"].startswith(UNSURE_SUBJECT)]


def events(app, lead_id: int, kind: str) -> list[dict]:
    with app.app_context():
        return [event for event in history.lead_events(lead_id) if event["kind"] == kind]


def age_claims(app, minutes: int = 6) -> None:
    """Make every claim as old as `minutes` minutes (UNSURE_AFTER is 5)."""
    then = (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat(timespec="seconds")
    with app.app_context(), transaction() as db:
        db.execute("UPDATE email_claims SET claimed_at = ?", (then,))


def requeue(app) -> pending.Requeued:
    """`flask leads requeue`'s work, the jobs it queued run to their end in-process (on Redis,
    the worker's)."""
    with app.app_context():
        queued = pending.requeue_all()
        queue.wait_until_idle(60)
    return queued


@pytest.mark.parametrize("failure", ["quiet", "hang up"])
def test_a_relay_silent_after_the_whole_message_gets_it_once_and_staff_hear_once(
    app, relay, failure
):
    lead_id = lead_owing_only_its_confirmation(app)
    relay.plan = [failure]
    first = attempt(app, jobs.confirm_to_seller, lead_id)
    lead_work_done(app)
    again = attempt(app, jobs.confirm_to_seller, lead_id)  # a retry, or a second runner
    assert again == "already claimed" and first == "unsure, staff told"
    [confirmation] = to(relay, SELLER)
    assert requeue(app).leads == []  # not owed any more: never sent again automatically
    age_claims(app)
    requeued = requeue(app)
    assert requeued.leads == [] and requeued.unsure_emails == []  # staff were told at once
    [unsure] = events(app, lead_id, "email_unsure")
    assert unsure["data"]["message_id"] == confirmation["Message-ID"]
    title, details, _ = timeline.describe(unsure)
    assert (
        title
        == "Unsure whether this e-mail went: the seller's confirmation, with their status link"
    )
    assert details == [("Message-ID", confirmation["Message-ID"])]
    [report] = unsure_reports(relay)
    text = report.get_body(("plain",)).get_content()
    assert "the seller's confirmation, with their status link" in text
    assert confirmation["Message-ID"] in text and "USWB-" in report["Subject"]
    with app.app_context():
        assert store.get_lead(lead_id)["seller_confirmed_at"] is None  # not recorded as sent


@pytest.mark.parametrize("failure", ["refuse", "refuse recipient", "no relay", "no STARTTLS"])
def test_a_relay_that_never_took_the_message_gets_it_from_the_retry_once(app, relay, failure):
    lead_id = lead_owing_only_its_confirmation(app)
    if failure == "no relay":
        app.config["SMTP_PORT"] = free_port()  # nothing listens there
    elif failure == "no STARTTLS":
        app.config["SMTP_USE_TLS"] = True  # a relay that offers none gets nothing
    else:
        relay.plan = [failure]
    assert isinstance(attempt(app, jobs.confirm_to_seller, lead_id), Exception)
    app.config.update(SMTP_PORT=relay.port, SMTP_USE_TLS=False)
    assert attempt(app, jobs.confirm_to_seller, lead_id) == "done"
    assert len(to(relay, SELLER)) == 1
    with app.app_context():
        assert store.get_lead(lead_id)["seller_confirmed_at"]
    lead_work_done(app)
    assert unsure_reports(relay) == [] and events(app, lead_id, "email_unsure") == []


def test_an_unsure_state_e_mail_is_not_queued_again_by_the_requeue(app, relay):
    lead_id = lead_owing_only_its_confirmation(app)
    with app.app_context():
        change = history.add_event(
            lead_id, "staff:1", "state_changed",
            {"from": "new", "to": "quoted", "amount_low": 9000, "amount_high": 10500,
             "valid_until": "2099-01-01"},
        )  # fmt: skip
    relay.plan = ["quiet"]
    attempt(app, jobs.send_seller_email, lead_id, change)
    lead_work_done(app)
    assert attempt(app, jobs.send_seller_email, lead_id, change) == "already claimed"
    assert requeue(app).seller_emails == []
    assert len(to(relay, SELLER, "preliminary quote")) == 1 and len(unsure_reports(relay)) == 1


def test_the_last_e_mail_before_an_erasure_unsure_still_erases_and_is_not_sent_again(app, relay):
    lead_id = lead_owing_only_its_confirmation(app)
    with app.app_context():
        closed = lifecycle.transition(
            lead_id, State.CLOSED, "seller", {"reason": "withdrawn"}, State.NEW
        )
        with transaction() as db:  # the seller confirmed it from the link e-mailed to them
            db.execute(
                "INSERT INTO erasure_requests (lead_id, closed_event_id, requested_at, "
                "confirmed_at) VALUES (?, ?, '2026-11-27T10:00:00+00:00', "
                "'2026-11-27T10:05:00+00:00')",
                (lead_id, closed),
            )
    lead_work_done(app)  # the closed e-mail
    relay.plan = ["quiet"]
    assert attempt(app, jobs.erase_at_sellers_request, lead_id) == "erased"
    lead_work_done(app)
    assert attempt(app, jobs.erase_at_sellers_request, lead_id) == "already erased"
    assert len(to(relay, SELLER, "We are deleting your details")) == 1
    assert requeue(app).erasures == []
    assert len(unsure_reports(relay)) == 1 and len(events(app, lead_id, "email_unsure")) == 1


def fill_the_disk(path: str) -> None:
    """From now on every change to a row of leads.db at `path` fails as on a full disk."""
    with sqlite3.connect(path) as db:
        tables = db.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE TABLE%'")
        for (table,) in tables.fetchall():
            for change in ("INSERT", "UPDATE") if not table.startswith("sqlite_") else ():
                db.execute(
                    f"CREATE TRIGGER full_{change}_{table} BEFORE {change} ON {table} "
                    "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
                )


def free_the_disk(path: str) -> None:
    """Writes to leads.db at `path` work again."""
    with sqlite3.connect(path) as db:
        triggers = db.execute("SELECT name FROM sqlite_master WHERE name LIKE 'full_%'")
        for (name,) in triggers.fetchall():
            db.execute(f"DROP TRIGGER {name}")


def test_a_disk_full_after_the_send_leaves_it_sent_once_and_staff_told_once(app, relay):
    lead_id = lead_owing_only_its_confirmation(app)
    relay.plan = [lambda: fill_the_disk(app.config["LEADS_DB"])]
    failed = attempt(app, jobs.confirm_to_seller, lead_id)
    assert "disk is full" in str(failed)
    free_the_disk(app.config["LEADS_DB"])
    assert attempt(app, jobs.confirm_to_seller, lead_id) == "already claimed"
    assert requeue(app).leads == []
    assert unsure_reports(relay) == []  # in flight, as far as anyone can tell, for 5 minutes
    age_claims(app)
    with app.app_context():  # a process starting after the crash, without Redis
        assert pending.sweep().count() == 1
    lead_work_done(app)
    assert requeue(app).unsure_emails == []
    assert len(to(relay, SELLER)) == 1 and len(unsure_reports(relay)) == 1
    assert len(events(app, lead_id, "email_unsure")) == 1


def test_a_worker_killed_after_the_relay_took_the_confirmation_never_sends_it_again(
    make_app, pipeline_settings, relay, redis_server, start_rq_worker
):
    settings = pipeline_settings | relay_settings(relay) | {"REDIS_URL": redis_server.url}
    app = make_app(**settings)
    worker = start_rq_worker(settings)
    relay.plan = ["take", lambda: kill_tree(worker.pid)]  # staff's e-mail, then the seller's
    assert post(app.test_client(), headers=JSON).status_code == 200
    worker.wait(timeout=60)
    assert len(to(relay, SELLER)) == 1

    start_rq_worker(settings)
    requeued = requeue(app)
    assert requeued.leads == [1]  # its conversions are still owed

    def finished() -> bool:
        with app.app_context():
            return store.get_lead(1)["conversions_sent_at"] is not None

    wait_until(finished, timeout=60)  # after the confirmation's step, in the lead's work
    assert len(to(relay, SELLER)) == 1
    age_claims(app)
    assert len(requeue(app).unsure_emails) == 1
    wait_until(lambda: unsure_reports(relay), timeout=60)
    assert not requeue(app)  # nothing more is owed, and staff hear of it once
    [unsure] = events(app, 1, "email_unsure")
    assert unsure["data"]["about"] == "confirmation:lead 1"


def test_every_e_mail_leaves_through_send_once():
    """No module but worker/mail.py hands a message to SMTP, so none can skip the claim."""
    senders = {
        path.relative_to(ROOT).as_posix()
        for folder in ("app", "worker")
        for path in (ROOT / folder).rglob("*.py")
        if re.search(r"\bdeliver\(|smtplib|\.send_message\(", path.read_text())
    }
    assert senders == {"worker/mail.py"}


def test_a_seller_asking_twice_for_their_link_gets_it_twice(app, relay):
    """A request's row goes once answered: the next request never takes its id, whose claims
    would stop the new link."""
    lead_id = save_sample_lead(app)
    for _ in range(2):
        with app.app_context():
            request_id = links.add_link_request(SELLER.upper())
            assert jobs.send_status_links(request_id) == "sent 1"
    assert len(to(relay, SELLER)) == 2
    assert len(events(app, lead_id, "email_unsure")) == 0
