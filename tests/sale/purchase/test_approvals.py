"""What the database itself holds to about exceptions and register checks, whatever the code
above it does: the one who asks never approves, an approval and a register check are never
changed or removed, a payment is the accepted offer on a day between the signature and today,
and closing an accepted offer drops its paperwork in the move's own transaction."""

from __future__ import annotations

import re
import sqlite3
from datetime import date

import pytest

from app.leads import schema
from app.leads.db import get_db, now, transaction
from app.sale import erasure, lifecycle
from app.sale.purchase import approvals, files, record
from tests.helpers import (
    PAYMENT,
    business_today,
    database_at_version,
    put_purchase_on_record,
    save_sample_lead,
)


def agreed(app) -> int:
    """A lead at `agreed` for $9,500, signed on 20 November 2026, with its record complete."""
    lead_id = save_sample_lead(app)
    with app.app_context():
        put_purchase_on_record(lead_id, 9500, signed_on=date(2026, 11, 20))
    return lead_id


def test_the_database_refuses_an_approval_by_the_one_who_asked(app):
    lead_id = agreed(app)
    with app.app_context():
        approvals.ask(lead_id, approvals.PAYMENT_AMOUNT, "9000", "Scratched crystal", "staff:1")
        with pytest.raises(sqlite3.IntegrityError), transaction() as db:
            db.execute("UPDATE approvals SET approved_by = 'staff:1', approved_at = ?", (now(),))
        with pytest.raises(approvals.Refused, match="another staff member must approve"):
            approvals.approve(lead_id, 1, "staff:1")
        assert not approvals.approved(get_db(), lead_id, approvals.PAYMENT_AMOUNT, "9000")


def test_an_approval_once_given_is_never_changed_or_deleted(app):
    lead_id = agreed(app)
    with app.app_context():
        approvals.ask(lead_id, approvals.PAYMENT_AMOUNT, "9000", "Scratched crystal", "staff:1")
        approvals.approve(lead_id, 1, "staff:2")
        for statement in (
            "UPDATE approvals SET approved_by = 'staff:3'",
            "UPDATE approvals SET subject = '90000'",
            "UPDATE approvals SET reason = 'something else'",
            "DELETE FROM approvals",
        ):
            with pytest.raises(sqlite3.IntegrityError), transaction() as db:
                db.execute(statement)
        assert approvals.approved(get_db(), lead_id, approvals.PAYMENT_AMOUNT, "9000")


def test_register_checks_are_append_only(app):
    lead_id = agreed(app)
    with app.app_context():
        with transaction() as db:
            db.execute(
                "INSERT INTO register_checks (lead_id, provider, checked_on, result, "
                "recorded_by, recorded_at) VALUES (?, 'SWR', '2026-11-20', 'flagged', 's', ?)",
                (lead_id, now()),
            )
        for statement in (
            "UPDATE register_checks SET result = 'clear'",
            "DELETE FROM register_checks",
        ):
            with pytest.raises(sqlite3.IntegrityError), transaction() as db:
                db.execute(statement)


@pytest.mark.parametrize(
    ("amount", "paid_on", "refusal"),
    [
        (87500, None, "The amount, $87,500, is not the accepted offer of $9,500."),
        (9500, "2016-03-01", "The payment date, 1 March 2016, is before the seller signed"),
        (9500, "2099-01-01", "The payment date cannot be in the future."),
    ],
    ids=["ten-times-the-offer", "dated-2016", "in-the-future"],
)
def test_a_payment_other_than_the_one_agreed_records_nothing(app, amount, paid_on, refusal):
    lead_id = agreed(app)
    data = {"amount": amount, "paid_on": paid_on or business_today().isoformat()} | PAYMENT
    with app.app_context():
        with pytest.raises(lifecycle.MissingDetails, match=re.escape(refusal)):
            lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
        kept = record.get(lead_id)
        assert (kept["paid_amount"], kept["hold_ends_on"], kept["retain_until"]) == (None,) * 3
        assert get_db().execute("SELECT state FROM leads").fetchone()[0] == "agreed"


def test_a_process_that_dies_right_after_closing_an_accepted_offer_keeps_no_paperwork(
    app, monkeypatch
):
    lead_id = agreed(app)
    with app.app_context():
        with transaction() as db:
            files.add_file(db, lead_id, "id_front", b"an ID", "image/jpeg")

        def die(*args, **kwargs):
            raise SystemExit("the process was killed")

        monkeypatch.setattr(app.logger, "info", die)
        with pytest.raises(SystemExit):
            lifecycle.transition(lead_id, "closed", "seller", {"reason": "withdrawn"}, "agreed")
        kept = record.get(lead_id)
        assert get_db().execute("SELECT state FROM leads").fetchone()[0] == "closed"
        assert all(kept[column] is None for column in record.PAPERWORK_COLUMNS)
        assert files.files_of(lead_id, files.ID_PHOTOS) == []


def test_a_register_check_from_before_this_step_becomes_the_first_of_its_history(tmp_path):
    db = database_at_version(str(tmp_path / "leads.db"), 18)  # the step before register_checks
    db.execute(
        "INSERT INTO leads (id, full_name, email, phone, watch_brand, watch_condition, has_box, "
        "has_papers, source, meta_event_id, created_at) "
        "VALUES (1, 'A', 'a@b.c', '1', 'Rolex', 'Good', 0, 0, 'form', 'e1', '2025-01-01')"
    )
    db.execute(
        "INSERT INTO purchases (lead_id, register_provider, register_checked_on, "
        "register_result, register_recorded_by) VALUES (1, 'SWR', '2025-01-02', 'flagged', 's:1')"
    )
    db.commit()
    schema.migrate(db)
    rows = db.execute("SELECT lead_id, provider, checked_on, result FROM register_checks")
    assert [tuple(row) for row in rows] == [(1, "SWR", "2025-01-02", "flagged")]
    db.close()


def test_erasing_a_closed_lead_drops_its_exceptions_but_not_its_register_checks(app):
    lead_id = agreed(app)
    with app.app_context():
        approvals.ask(lead_id, approvals.PAYMENT_AMOUNT, "9000", "Seller: J. Avery", "staff:1")
        with transaction() as db:
            db.execute(
                "INSERT INTO register_checks (lead_id, provider, checked_on, result, "
                "recorded_by, recorded_at) VALUES (?, 'SWR', '2026-11-20', 'clear', 's', ?)",
                (lead_id, now()),
            )
        lifecycle.transition(lead_id, "closed", "seller", {"reason": "withdrawn"}, "agreed")
        erasure.erase(lead_id, "staff:1")
        assert approvals.of_lead(lead_id) == []
        assert get_db().execute("SELECT count(*) FROM register_checks").fetchone()[0] == 1
