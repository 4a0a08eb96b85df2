"""`flask payouts reconcile` (a timer every 5 minutes) reads what the bank's webhooks missed:
a payout paid with no event delivered, an event stored whose job was lost, a purchase not
recorded after its payout was paid, a cancelled payout's transfer still waiting at the bank; a
payout waiting longer than PAYOUT_APPROVAL_ALERT_MINUTES for its second person e-mails staff
once; one payout the bank fails is named and the others are read."""

from __future__ import annotations

from app import queue
from app.leads import history
from app.leads.db import get_db, now, transaction
from app.payouts import bank_events, ledger
from app.sale.purchase import bank_payouts
from tests.payouts.steps import deal_to_pay, payout_settings
from tests.payouts.test_two_people import ask
from tests.payouts.test_webhook import on_its_way, state_of


def reconcile(app):
    result = app.test_cli_runner().invoke(args=["payouts", "reconcile"])
    with app.app_context():
        queue.wait_until_idle(30)
    return result


def test_a_payment_no_event_told_us_of_is_found_and_the_lead_bought(payout_app, bank):
    lead_id, row = on_its_way(payout_app, bank)
    bank.settle(row["transfer_id"])  # no site to deliver to: the event is lost
    result = reconcile(payout_app)
    assert result.exit_code == 0, result.output
    assert f"#{row['id']}: moved to paid; the lead is bought" in result.output
    assert state_of(payout_app, lead_id, row["id"]) == ("bought", "paid")


def event_whose_job_was_lost(app, bank) -> tuple[int, dict, int]:
    """A payout the bank paid, whose event was stored and its job never queued; (lead id,
    payout row, the stored event's id)."""
    lead_id, row = on_its_way(app, bank)
    bank.settle(row["transfer_id"])
    with app.app_context():
        event = {"id": "event_lostjob", "category": "real_time_payments_transfer.updated",
                 "object_id": row["transfer_id"]}  # fmt: skip
        return lead_id, row, bank_events.store_event(event)


def test_an_event_stored_whose_job_was_lost_is_applied(payout_app, bank):
    lead_id, row, _ = event_whose_job_was_lost(payout_app, bank)
    result = reconcile(payout_app)
    assert result.output.startswith("1 events applied")
    assert state_of(payout_app, lead_id, row["id"]) == ("bought", "paid")
    with payout_app.app_context():
        assert bank_payouts.events_to_apply() == []


def paid_but_not_bought(app, bank) -> tuple[int, dict]:
    """A payout the bank paid and recorded as paid, whose lead's move to bought never ran (the
    process died after that commit); (lead id, payout row)."""
    lead_id, row = on_its_way(app, bank)
    bank.settle(row["transfer_id"])
    with app.app_context(), transaction() as db:
        db.execute(
            "UPDATE payouts SET state = 'paid', paid_at = ?, network_reference = 'RTP-1' "
            "WHERE id = ?",
            (now(), row["id"]),
        )
    return lead_id, row


def test_a_payout_paid_whose_purchase_was_not_recorded_is_recorded(payout_app, bank):
    lead_id, row = paid_but_not_bought(payout_app, bank)
    reconcile(payout_app)
    assert state_of(payout_app, lead_id, row["id"]) == ("bought", "paid")


def test_a_payout_waiting_for_its_second_person_too_long_tells_staff_once(
    make_app, bank, mail_settings, smtp_server
):
    app = make_app(**payout_settings(bank, PAYOUT_APPROVAL_ALERT_MINUTES="0"), **mail_settings,
                   STAFF_EMAIL="desk@watches.example")  # fmt: skip
    lead_id = deal_to_pay(app)
    payout_id = ask(app, lead_id)
    first, second = reconcile(app), reconcile(app)
    assert f"staff told: #{payout_id}" in first.output
    assert "staff told" not in second.output
    [alert] = smtp_server.wait_for(1)
    assert "A payout is waiting for its second person" in alert["Subject"]
    assert len(smtp_server.messages) == 1
    with app.app_context():
        kinds = [event["kind"] for event in history.lead_events(lead_id)]
    assert kinds.count("payout_waiting") == 1


def test_a_payout_asked_a_moment_ago_is_not_yet_told(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    ask(payout_app, lead_id)  # PAYOUT_APPROVAL_ALERT_MINUTES is 15
    assert "staff told" not in reconcile(payout_app).output
    with payout_app.app_context():
        assert get_db().execute("SELECT approval_alerted_at FROM payouts").fetchone()[0] is None


def test_a_cancelled_payouts_transfer_still_waiting_at_the_bank_is_called_off(payout_app, bank):
    lead_id = deal_to_pay(payout_app)
    payout_id = ask(payout_app, lead_id)
    with payout_app.app_context(), transaction() as db:  # cancelled; its job never ran
        db.execute("UPDATE payouts SET state = 'canceled' WHERE id = ?", (payout_id,))
    reconcile(payout_app)
    with payout_app.app_context():
        transfer_id = ledger.get(payout_id)["transfer_id"]
    assert bank.transfers[transfer_id]["status"] == "canceled" and bank.approved() == 0


def test_the_bank_failing_one_payout_is_named_and_the_others_are_read(payout_app, bank):
    first_lead, first = on_its_way(payout_app, bank)
    second_lead, second = on_its_way(payout_app, bank)
    bank.settle(second["transfer_id"])
    bank.plan("retrieve", 500)  # the first payout read fails
    result = reconcile(payout_app)
    assert result.exit_code == 1
    assert f"#{first['id']}: could not read the transfer" in result.output
    assert state_of(payout_app, second_lead, second["id"]) == ("bought", "paid")
    assert state_of(payout_app, first_lead, first["id"]) == ("agreed", "released")


def test_without_a_provider_there_is_nothing_to_reconcile(app):
    result = app.test_cli_runner().invoke(args=["payouts", "reconcile"])
    assert result.exit_code == 1 and "PAYOUT_PROVIDER is not set" in result.output
