"""Two job runners at once (two rq workers, or two gunicorn processes without Redis) run the same
e-mail job against one leads.db: both read that the e-mail is owed before either sends (a
barrier holds each after the read that decides it is owed), and the seller or staff still get
it once."""

from __future__ import annotations

import threading

import pytest

from app.leads import history
from app.leads.db import transaction
from app.shipping import notices
from tests.helpers import lead_work_done, save_sample_lead
from tests.shipping.deal_steps import QUOTE, mail_deal
from tests.shipping.fake_easypost import easypost, easypost_server  # noqa: F401 (fixtures)
from tests.shipping.steps import mailin_settings
from worker import jobs, parcel_mail

SELLER = "jane@example.com"
STAFF = "desk@watches.example"


@pytest.fixture
def app(make_app, easypost, mail_settings):
    """Selling by mail through the fake provider, e-mailing sellers and staff."""
    return make_app(**mailin_settings(easypost), **mail_settings, STAFF_EMAIL=STAFF)


def race(app, monkeypatch, owner, first_read: str, job, *ids) -> list:
    """Run `job(*ids)` on two threads, each in an app context of its own, both held after
    their first call of `owner.first_read` until the other has made it too; their answers."""
    barrier, racers = threading.Barrier(2, timeout=20), set()
    read = getattr(owner, first_read)

    def held(*args, **kwargs):
        answer = read(*args, **kwargs)
        if threading.current_thread().name in racers:
            racers.discard(threading.current_thread().name)
            barrier.wait()
        return answer

    monkeypatch.setattr(owner, first_read, held)
    answers = []

    def run() -> None:
        with app.app_context():
            try:
                answers.append(job(*ids))
            except Exception as error:  # what the runner would log and retry
                answers.append(error)

    threads = [threading.Thread(target=run, name=f"racer-{n}") for n in range(2)]
    racers.update(thread.name for thread in threads)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    lead_work_done(app)
    return answers


def to(smtp_server, address: str, subject: str) -> list:
    return [m for m in smtp_server.messages if m["To"] == address and subject in m["Subject"]]


def test_the_confirmation_goes_once(app, smtp_server, monkeypatch):
    lead_id = save_sample_lead(app)
    answers = race(app, monkeypatch, jobs, "load_lead", jobs.confirm_to_seller, lead_id)
    assert sorted(answers) == ["already claimed", "done"]
    assert len(to(smtp_server, SELLER, "what happens next")) == 1


def test_a_state_change_e_mail_goes_once(app, smtp_server, monkeypatch):
    lead_id = save_sample_lead(app)
    with app.app_context():
        change = history.add_event(
            lead_id, "staff:1", "state_changed", {"from": "new", "to": "quoted", **QUOTE}
        )
    answers = race(app, monkeypatch, history, "email_sent", jobs.send_seller_email, lead_id, change)
    assert sorted(answers) == ["already claimed", "sent"]
    assert len(to(smtp_server, SELLER, "preliminary quote")) == 1
    with app.app_context():
        assert history.email_sent(change)


def test_a_staff_alert_goes_once(app, smtp_server, monkeypatch):
    lead_id = save_sample_lead(app)
    with app.app_context():
        question = history.add_event(lead_id, "seller", "question", {"message": "Box needed?"})
    answers = race(app, monkeypatch, history, "email_sent", jobs.alert_staff, lead_id, question)
    assert sorted(answers) == ["already claimed", "sent"]
    assert len(to(smtp_server, STAFF, "question")) == 1


def test_the_label_e_mail_goes_once(app, smtp_server, monkeypatch):
    parcel = mail_deal(app)  # its label bought, the seller not yet told
    job = parcel_mail.send_label_mail
    answers = race(app, monkeypatch, notices, "label_mail_owed", job, parcel["id"])
    assert sorted(answers) == ["already claimed label_ready", "sent label_ready"]
    assert len(to(smtp_server, SELLER, "label for your Rolex Submariner is ready")) == 1


def test_a_parcel_e_mail_goes_once(app, smtp_server, monkeypatch):
    parcel = mail_deal(app)
    with app.app_context(), transaction() as db:  # the carrier's first scan, on record
        db.execute("UPDATE shipments SET state = 'in_transit' WHERE id = ?", (parcel["id"],))
    answers = race(app, monkeypatch, notices, "owed", parcel_mail.send_parcel_mail, parcel["id"])
    assert sorted(answers) == ["already claimed in_transit", "sent in_transit"]
    assert len(to(smtp_server, SELLER, "is on its way to us")) == 1
