"""`flask shipping reconcile`: what the webhooks missed is read from the provider, a label never
scanned is an exception for staff (once), an unused label is refunded and its parcel voided
after MAILIN_LABEL_VOID_DAYS (never one the carrier scanned meanwhile), an exception after the
parcel ended is not told, and one parcel the provider fails does not stop the others."""

from __future__ import annotations

from app.leads import history
from app.leads.db import get_db, transaction
from app.shipping import labels
from app.shipping import reconcile as reconciler
from tests.helpers import lead_work_done
from tests.shipping.return_steps import staff_on  # noqa: F401 (a fixture)
from tests.shipping.steps import bought_label, deliver, mailin_settings, tracking_event


def reconcile(app):
    return app.test_cli_runner().invoke(args=["shipping", "reconcile"])


def bought_days_ago(app, shipment_id: int, days: int) -> None:
    with app.app_context(), transaction() as db:
        db.execute(
            "UPDATE shipments SET bought_at = strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now', ?) "
            "WHERE id = ?",
            (f"-{days} days", shipment_id),
        )


def row(app, shipment_id: int) -> dict:
    with app.app_context():
        return labels.get(shipment_id)


def test_a_move_the_webhook_missed_is_read_from_the_provider(mailin_app, easypost):
    parcel = bought_label(mailin_app)
    easypost.track(parcel["provider_shipment_id"], "out_for_delivery")
    result = reconcile(mailin_app)
    assert result.exit_code == 0, result.output
    assert f"1 parcels read (#{parcel['id']}: moved to out_for_delivery)" in result.output
    assert row(mailin_app, parcel["id"])["state"] == "out_for_delivery"


def test_a_label_never_scanned_after_three_days_is_an_exception_told_once(
    make_app, easypost, mail_settings, smtp_server
):
    app = make_app(
        **mailin_settings(easypost) | mail_settings | {"STAFF_EMAIL": "d@watches.example"}
    )
    parcel = bought_label(app)
    bought_days_ago(app, parcel["id"], 4)
    first, second = reconcile(app), reconcile(app)
    lead_work_done(app)
    assert "exception no_first_scan" in first.output
    assert "exception no_first_scan already recorded" in second.output
    assert row(app, parcel["id"])["exception_status"] == "no_first_scan"
    alerts = [m for m in smtp_server.messages if "not scanned by the carrier" in m["Subject"]]
    assert len(alerts) == 1


def test_the_carriers_first_scan_clears_the_not_scanned_exception(make_app, easypost, staff_on):
    app = make_app(**mailin_settings(easypost))
    parcel, other = bought_label(app), bought_label(app)
    for late in (parcel, other):
        bought_days_ago(app, late["id"], 4)
    assert "exception no_first_scan" in reconcile(app).output
    with app.app_context(), transaction() as db:  # a carrier exception of its own stays
        db.execute("UPDATE shipments SET exception_status = 'failure' WHERE id = ?",
                   (other["id"],))  # fmt: skip
    for scanned in (parcel, other):
        deliver(app.test_client(), tracking_event(scanned["tracking_code"], "in_transit"))
    lead_work_done(app)
    assert row(app, parcel["id"])["exception_status"] is None
    assert row(app, other["id"])["exception_status"] == "failure"
    staff, _ = staff_on(app)
    listed = staff.get("/staff/shipments?tab=all").get_data(as_text=True)
    assert "not scanned by the carrier" not in listed.lower()
    exceptions = staff.get("/staff/shipments?tab=exceptions").get_data(as_text=True)
    assert other["tracking_code"] in exceptions and parcel["tracking_code"] not in exceptions


def test_a_label_unused_past_its_days_is_refunded_and_the_parcel_voided(mailin_app, easypost):
    parcel = bought_label(mailin_app)
    bought_days_ago(app=mailin_app, shipment_id=parcel["id"], days=15)
    result = reconcile(mailin_app)
    assert "label unused: refund asked, parcel voided" in result.output, result.output
    refunds = [r for r in easypost.requests if r["action"] == "refund"]
    assert [r["path"] for r in refunds] == [
        f"/v2/shipments/{parcel['provider_shipment_id']}/refund"
    ]
    assert row(mailin_app, parcel["id"])["state"] == "voided"
    with mailin_app.app_context():
        moves = [e["data"] for e in history.lead_events(parcel["lead_id"])
                 if e["kind"] == "shipment_moved"]  # fmt: skip
    assert moves == [{"leg": "inbound", "state": "voided"}]
    assert "0 parcels read" in reconcile(mailin_app).output  # a voided parcel is not read again


def test_the_days_an_unused_label_waits_are_the_setting(make_app, easypost):
    app = make_app(**mailin_settings(easypost, MAILIN_LABEL_VOID_DAYS="9"))
    kept, voided = bought_label(app), bought_label(app)
    bought_days_ago(app, kept["id"], 8)  # void under the default 14? no; under 9? not yet
    bought_days_ago(app, voided["id"], 10)  # kept under the default 14, void under 9
    assert reconcile(app).exit_code == 0
    assert row(app, kept["id"])["state"] == "label_ready"
    assert row(app, kept["id"])["exception_status"] == "no_first_scan"
    assert row(app, voided["id"])["state"] == "voided"


def test_a_void_decided_before_the_carriers_scan_leaves_the_parcel_scanned(mailin_app, easypost):
    parcel = bought_label(mailin_app)
    bought_days_ago(mailin_app, parcel["id"], 15)
    as_read = row(mailin_app, parcel["id"])  # the reconciler's row, read before the scan
    deliver(mailin_app.test_client(), tracking_event(parcel["tracking_code"], "in_transit"))
    lead_work_done(mailin_app)
    with mailin_app.app_context():
        assert reconciler.void_label(as_read) == "already moved on"
        moves = [e["data"]["state"] for e in history.lead_events(parcel["lead_id"])
                 if e["kind"] == "shipment_moved"]  # fmt: skip
    assert row(mailin_app, parcel["id"])["state"] == "in_transit" and moves == ["in_transit"]


def test_an_exception_after_the_parcel_ended_is_neither_kept_nor_told(
    make_app, easypost, mail_settings, smtp_server
):
    app = make_app(**mailin_settings(easypost) | mail_settings, STAFF_EMAIL="d@watches.example")
    parcel = bought_label(app)
    bought_days_ago(app, parcel["id"], 15)
    assert "parcel voided" in reconcile(app).output
    deliver(app.test_client(), tracking_event(parcel["tracking_code"], "return_to_sender"))
    lead_work_done(app)
    assert row(app, parcel["id"])["exception_status"] is None
    with app.app_context():
        outcome = get_db().execute("SELECT outcome FROM shipment_events").fetchone()[0]
    assert outcome == "exception return_to_sender after the parcel ended"
    assert not [m for m in smtp_server.messages if "Parcel of lead" in m["Subject"]]


def test_a_parcel_the_provider_fails_is_named_and_the_others_still_read(mailin_app, easypost):
    failing, fine = bought_label(mailin_app), bought_label(mailin_app)
    easypost.track(fine["provider_shipment_id"], "delivered")
    easypost.plan("retrieve", 500)  # the first parcel read: the failing one
    result = reconcile(mailin_app)
    assert result.exit_code == 1
    assert f"#{failing['id']}: could not read the shipment" in result.output
    assert row(mailin_app, fine["id"])["state"] == "delivered"


def test_without_the_sale_by_mail_there_is_nothing_to_reconcile(make_app, easypost):
    result = reconcile(make_app(**mailin_settings(easypost, MAILIN_ENABLED="0")))
    assert result.exit_code == 1 and "MAILIN_ENABLED is off" in result.output
