"""A register question never stays open for ever (app/sale/purchase/register_asks.py): whatever
goes wrong in its job is a failed try, counted, retried and then `failed` (staff check by hand);
a question whose job never ran, or whose try was lost with its process, is found again by
`flask leads requeue` and the start-up sweep and asked; and a try under way is never asked a
second time by another runner at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app import queue
from app.leads.db import get_db, immediate_transaction, transaction
from app.sale import pending
from app.sale.purchase import checklist, record, register_asks
from tests.helpers import wait_until
from tests.sale.purchase.fake_register import (  # noqa: F401 (fixtures)
    register,
    register_server,
)
from tests.sale.purchase.register_steps import (  # noqa: F401 (a fixture)
    SERIAL,
    ask,
    authenticated,
    register_app,
)


@pytest.mark.parametrize(
    ("failure", "error"),
    [
        ("deep", "an unexpected error (RecursionError)"),
        ("not_http", "an unexpected error (BadStatusLine)"),
        ("bad_certificate_url", "an unexpected error (InvalidURL)"),
    ],
)
def test_any_exception_in_a_try_is_a_failed_try(register_app, register, smtp_server, failure,
                                                error):  # fmt: skip
    lead_id = authenticated(register_app)
    register.plan("search", failure, failure)  # the first try and its one retry
    ask_id = ask(register_app, lead_id)
    with register_app.app_context():
        asked = register_asks.get(ask_id)
        assert (asked["outcome"], asked["last_error"], asked["attempts"]) == ("failed", error, 2)
        assert get_db().execute("SELECT count(*) FROM register_checks").fetchone()[0] == 0
        assert not checklist.register_clear(record.get(lead_id))
        assert register_asks.ask_about(lead_id, SERIAL, "before_payment") is not None
    assert sum("no answer, check by hand" in m["Subject"] for m in smtp_server.messages) == 1


def open_question(app, lead_id: int, asking_since: datetime | None = None,
                  asked_ago: timedelta = timedelta(minutes=3)) -> int:  # fmt: skip
    """A question on record whose job never ran (the process died before it, or Redis was
    down), asked `asked_ago`; with `asking_since`, a try under way since then."""
    asked_at = (datetime.now(UTC) - asked_ago).isoformat(timespec="seconds")
    with app.app_context(), immediate_transaction() as db:
        ask_id = register_asks.open_ask(db, lead_id, SERIAL, "serial_on_record", "Rolex")
        db.execute("UPDATE register_asks SET asked_at = ? WHERE id = ?", (asked_at, ask_id))
        if asking_since is not None:
            db.execute(
                "UPDATE register_asks SET asking_since = ?, attempts = 1 WHERE id = ?",
                (asking_since.isoformat(timespec="seconds"), ask_id),
            )
    return ask_id


def answered(app, ask_id: int) -> dict:
    with app.app_context():
        queue.wait_until_idle(10)
        return wait_until(
            lambda: register_asks.get(ask_id)["outcome"] and register_asks.get(ask_id)
        )


@pytest.mark.parametrize("finder", ["requeue", "sweep"])
def test_a_question_whose_job_never_ran_is_found_again_and_asked(register_app, register, finder):
    lead_id = authenticated(register_app)
    # The requeue takes it however recent; asked just now, the sweep that starts with the
    # runner the requeue's first job starts leaves it alone, so the requeue is what asks it.
    recent = timedelta(0) if finder == "requeue" else timedelta(minutes=3)
    ask_id = open_question(register_app, lead_id, asked_ago=recent)
    with register_app.app_context():  # until then it blocks any other question of the serial
        assert register_asks.ask_about(lead_id, SERIAL, "before_payment") is None
        requeued = pending.requeue_all() if finder == "requeue" else pending.sweep()
    assert requeued.register_asks == [ask_id]
    asked = answered(register_app, ask_id)
    assert (asked["outcome"], asked["attempts"]) == ("clear", 1)
    assert len(register.searches()) == 1
    with register_app.app_context():
        assert record.get(lead_id)["register_result"] == "clear"


def test_a_try_lost_with_its_process_is_asked_again_and_counted(register_app, register):
    lead_id = authenticated(register_app)
    lost = datetime.now(UTC) - timedelta(minutes=2)  # far past the try's lease
    ask_id = open_question(register_app, lead_id, asking_since=lost)
    said = register_app.test_cli_runner().invoke(args=["leads", "requeue"]).output
    assert f"Queued stolen-watch register question {ask_id}." in said
    asked = answered(register_app, ask_id)
    assert (asked["outcome"], asked["attempts"], asked["asking_since"]) == ("clear", 2, None)
    assert len(register.searches()) == 1


def test_a_try_under_way_is_not_asked_again_by_another_runner(register_app, register):
    lead_id = authenticated(register_app)
    register_app.config["REGISTER_API_TIMEOUT"] = 10  # a lease of a minute: still running
    ask_id = open_question(register_app, lead_id, asking_since=datetime.now(UTC))
    with register_app.app_context():
        assert pending.requeue_all().register_asks == []  # its lease still runs
        assert register_asks.put_to_register(ask_id) == "being asked by another try"
        assert register_asks.get(ask_id)["outcome"] is None
    assert register.searches() == []


def test_an_answered_question_is_not_found_again(register_app, register):
    lead_id = authenticated(register_app)
    ask(register_app, lead_id)
    with register_app.app_context():
        with transaction() as db:  # answered long ago
            db.execute("UPDATE register_asks SET asked_at = '2020-01-01T00:00:00+00:00'")
        assert pending.requeue_all().register_asks == []
        assert pending.sweep().register_asks == []
    assert len(register.searches()) == 1
