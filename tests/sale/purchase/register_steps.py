"""Steps the register's tests share: an app asking the fake register (tests/sale/purchase/
fake_register.py), a lead authenticated with no check standing, and a question asked as the
findings ask it, waited for until it ends, or answered before the question's job is queued."""

from __future__ import annotations

import pytest

from app import queue
from app.leads.db import transaction
from app.sale.purchase import record, register_asks
from tests.helpers import (
    FINDINGS,
    business_today,
    put_purchase_on_record,
    save_sample_lead,
    wait_until,
)
from tests.sale.purchase.fake_register import register_settings

SERIAL = FINDINGS["serial_number"]  # 7Z41K9Q2


@pytest.fixture
def register_app(make_app, register, mail_settings):
    """An app asking the fake register, one retry a moment after a failure, mail to loopback."""
    return make_app(
        **register_settings(register),
        JOB_RETRY_INTERVALS=(0.1,),
        STAFF_EMAIL="staff@watches.example",
        **mail_settings,
    )


def authenticated(app, serial: str = SERIAL) -> int:
    """A lead at `agreed` whose findings (serial `serial`) were recorded today, with no
    register check standing yet."""
    lead_id = save_sample_lead(app)
    with app.app_context():
        put_purchase_on_record(lead_id)
        with transaction() as db:
            record.update(db, lead_id, {
                "serial_number": serial, "authenticated_at": f"{business_today()}T12:00:00+00:00",
                "register_result": None, "register_serial": None,
            })  # fmt: skip
    return lead_id


def ask(app, lead_id: int, serial: str = SERIAL) -> int | None:
    """Ask about the serial as the findings form does, and wait for the question to end (its
    retries included: they wait on a timer, not in the queue)."""
    with app.app_context():
        ask_id = register_asks.ask_about(lead_id, serial, "serial_on_record")
        if ask_id is not None:
            wait_until(lambda: register_asks.get(ask_id)["outcome"], timeout=20)
        queue.wait_until_idle(10)
        return ask_id


def purchase(app, lead_id: int) -> dict:
    """The lead's purchase record as it stands."""
    with app.app_context():
        return record.get(lead_id)


def answer_at_once(monkeypatch) -> None:
    """From now on, the register is asked in the caller's own thread as its question is
    queued: its answer is in before `enqueue` returns, as with a fast register and an idle
    worker. Other jobs are queued as ever."""
    enqueue = queue.enqueue

    def asked_now(job_name: str, *ids: int) -> bool:
        if job_name == queue.ASK_REGISTER:
            return register_asks.put_to_register(*ids) == "clear"
        return enqueue(job_name, *ids)

    monkeypatch.setattr(queue, "enqueue", asked_now)
