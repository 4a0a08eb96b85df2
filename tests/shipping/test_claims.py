"""Claims under the parcel policy, from a parcel's staff page: one staff member opens a claim
(a lost parcel moves to `lost`, and no tracking event moves it again), another settles it, paid
with an amount no higher than the insured value, or refused; the one who opened it is refused,
a settled claim is never changed, every step is audited and on the timeline, and the Claims
tab and the insurer's declaration show where each claim stands."""

from __future__ import annotations

import csv
import io
import sqlite3

import pytest

from app.leads import audit, history
from app.leads.db import get_db, transaction
from app.leads.state import State
from app.sale import erasure, lifecycle
from app.shipping import claims, declarations
from tests.helpers import lead_work_done
from tests.shipping.return_steps import mail_deal, parcels, post_form, staff_on  # noqa: F401
from tests.shipping.steps import deliver, mailin_settings, tracking_event

LOST = {"kind": "lost", "reference": "CLM-2026-0042", "note": "No scan for 9 days."}


@pytest.fixture
def mail_app(make_app, easypost):
    return make_app(**mailin_settings(easypost))


def open_claim(staff, client, parcel_id: int, fields: dict):
    path = f"/staff/shipments/{parcel_id}"
    return post_form(staff, client, path, f"{path}/claim", "claim", fields)


def settle(staff, client, parcel_id: int, fields: dict):
    path = f"/staff/shipments/{parcel_id}"
    return post_form(staff, client, path, f"{path}/claim/settle", "settle", fields)


def claim_of(app, parcel_id: int) -> dict | None:
    with app.app_context():
        return claims.of_shipment(parcel_id)


def audited(app, action: str) -> list[dict]:
    with app.app_context():
        return [entry for entry in audit.entries() if entry["action"] == action]


def page(staff, client, path: str) -> str:
    return staff.request(client, "GET", path).get_data(as_text=True)


def test_a_lost_parcel_is_claimed_by_one_and_settled_by_another(mail_app, staff_on):
    parcel = mail_deal(mail_app, "in_transit")
    ana, staff = staff_on(mail_app)
    answer = open_claim(staff, ana, parcel["id"], LOST)
    assert answer.status_code == 303
    assert "Claim opened" in page(staff, ana, answer.headers["Location"])
    claim = claim_of(mail_app, parcel["id"])
    assert claim["state"] == "open" and claim["insurer_reference"] == "CLM-2026-0042"
    [lost] = parcels(mail_app, parcel["lead_id"], "inbound")
    assert lost["state"] == "lost"
    [entry] = audited(mail_app, "shipment_claim_opened")
    assert entry["lead_id"] == parcel["lead_id"] and entry["data"]["kind"] == "lost"

    # the one who opened it cannot settle it: refused, audited, nothing changed
    answer = settle(staff, ana, parcel["id"], {"outcome": "paid", "amount": "18000"})
    html = page(staff, ana, f"/staff/shipments/{parcel['id']}")
    assert "You opened this claim, so another staff member" in html
    assert claim_of(mail_app, parcel["id"])["state"] == "open"
    assert audited(mail_app, "shipment_claim_settle_refused")

    ben, _ = staff_on(mail_app, "ben@example.com", "Ben Ortiz")
    too_much = settle(staff, ben, parcel["id"], {"outcome": "paid", "amount": "18501"})
    assert "above the parcel&#39;s insured value of $18,500" in page(
        staff, ben, too_much.headers["Location"]
    )
    paid = settle(staff, ben, parcel["id"], {"outcome": "paid", "amount": "18,000"})
    assert paid.status_code == 303
    claim = claim_of(mail_app, parcel["id"])
    assert claim["state"] == "paid" and claim["amount"] == 18000
    assert claim["settled_by"] != claim["opened_by"]
    html = page(staff, ben, f"/staff/shipments/{parcel['id']}")
    assert "Lost: paid by the insurer, $18,000" in html
    assert "Ben Ortiz" in html and "Ana Lima" in html
    lead = page(staff, ben, f"/staff/leads/{parcel['lead_id']}")
    assert "claim opened, lost (insurer&#39;s reference CLM-2026-0042)" in lead
    assert "claim paid by the insurer, $18,000" in lead

    # settled once: a second answer is refused, and the database refuses any change
    again = settle(staff, ben, parcel["id"], {"outcome": "refused"})
    assert "no open claim to settle" in page(staff, ben, again.headers["Location"])
    with mail_app.app_context(), pytest.raises(sqlite3.IntegrityError), transaction() as db:
        db.execute("UPDATE shipment_claims SET amount = 1 WHERE shipment_id = ?",
                   (parcel["id"],))  # fmt: skip
    with mail_app.app_context(), pytest.raises(sqlite3.IntegrityError), transaction() as db:
        db.execute("DELETE FROM shipment_claims")


def test_only_an_erasure_blanks_a_claims_note_and_nothing_else_of_the_claim_changes(mail_app):
    parcel = mail_deal(mail_app, "in_transit")
    note = "Quentin Zeppelinovich says a neighbour at 27 Wisteria Lane may have it"
    with mail_app.app_context():
        claims.open_claim(parcel["id"], "lost", "CLM-2026-0043", note, "staff:1")
        claims.settle(parcel["id"], "refused", None, "staff:2")
        settled = claims.of_shipment(parcel["id"])
    for changed in ("", "Edited by staff"):  # while the lead stands, the note is as written
        with mail_app.app_context(), pytest.raises(sqlite3.IntegrityError), transaction() as db:
            db.execute("UPDATE shipment_claims SET note = ?", (changed,))

    with mail_app.app_context():
        reason = {"reason": "not_a_fit"}
        lifecycle.transition(parcel["lead_id"], State.CLOSED, "staff:1", reason, State.OFFERED)
        erasure.erase(parcel["lead_id"], "staff:1")

    assert claim_of(mail_app, parcel["id"]) == settled | {"note": ""}
    with mail_app.app_context(), pytest.raises(sqlite3.IntegrityError), transaction() as db:
        db.execute("UPDATE shipment_claims SET note = 'Written again'")


def test_a_lost_parcel_stays_lost_whatever_tracking_says_short_of_its_delivery(mail_app, staff_on):
    parcel = mail_deal(mail_app, "in_transit")
    ana, staff = staff_on(mail_app)
    open_claim(staff, ana, parcel["id"], LOST)
    for status in ("in_transit", "out_for_delivery", "failure"):
        deliver(mail_app.test_client(), tracking_event(parcel["tracking_code"], status))
    lead_work_done(mail_app)
    [lost] = parcels(mail_app, parcel["lead_id"], "inbound")
    assert lost["state"] == "lost" and lost["exception_status"] is None
    assert lost["delivered_at"] is None


FOUND = "delivered after it was claimed lost"


@pytest.mark.parametrize("settled", [None, {"outcome": "paid", "amount": "18000"}])
def test_a_parcel_claimed_lost_then_delivered_moves_on_and_staff_and_insurer_are_told_once(
    make_app, easypost, mail_settings, smtp_server, staff_on, settled
):
    app = make_app(**mailin_settings(easypost) | mail_settings, STAFF_EMAIL="desk@watches.example")
    parcel = mail_deal(app, "in_transit")
    ana, staff = staff_on(app)
    open_claim(staff, ana, parcel["id"], LOST)
    if settled:  # the insurer paid before the carrier found it
        ben, _ = staff_on(app, "ben@example.com", "Ben Ortiz")
        assert settle(staff, ben, parcel["id"], settled).status_code == 303
    client = app.test_client()
    for _ in range(2):  # the provider reports it delivered, then again in its next event
        deliver(client, tracking_event(parcel["tracking_code"], "delivered"))
    lead_work_done(app)
    [found] = parcels(app, parcel["lead_id"], "inbound")
    assert found["state"] == "delivered" and found["delivered_at"]  # open it on record now
    claim = claim_of(app, parcel["id"])
    assert claim["delivered_at"] == found["delivered_at"]
    assert claim["state"] == ("paid" if settled else "open")  # the insurer's answer stands
    with app.app_context():
        told = [e for e in history.lead_events(parcel["lead_id"])
                if e["kind"] == "shipment_attention"]  # fmt: skip
    assert [event["data"]["title"] for event in told] == [FOUND]
    assert "Tell the insurer, with the claim's reference" in told[0]["data"]["why"]
    [alert] = [m for m in smtp_server.messages if FOUND in m["Subject"]]
    assert alert["To"] == "desk@watches.example"
    assert "CLM-2026-0042" not in alert["Subject"] and parcel["tracking_code"] not in str(alert)
    html = page(staff, ana, f"/staff/shipments/{parcel['id']}")
    assert "Delivered by the carrier after this claim was opened" in html
    with app.app_context():
        month = found["first_scan_at"][:7]
        file = io.StringIO()
        declarations.write_csv(file, month)
    [row] = list(csv.DictReader(io.StringIO(file.getvalue())))
    assert row["state"] == "delivered" and row["claim_delivered_at"] == found["delivered_at"]


def test_what_cannot_be_claimed_is_refused_with_nothing_changed(mail_app, staff_on):
    unscanned = mail_deal(mail_app, "label_ready")
    delivered = mail_deal(mail_app, "delivered")
    ana, staff = staff_on(mail_app)
    answer = open_claim(staff, ana, unscanned["id"], LOST)
    assert "has not scanned this parcel yet" in page(staff, ana, answer.headers["Location"])
    answer = open_claim(staff, ana, delivered["id"], LOST)
    assert "claim it as damaged" in page(staff, ana, answer.headers["Location"])
    assert claim_of(mail_app, unscanned["id"]) is None
    assert claim_of(mail_app, delivered["id"]) is None
    assert len(audited(mail_app, "shipment_claim_refused")) == 2
    # damaged is possible once delivered; the state stays, and a second claim is refused
    damaged = LOST | {"kind": "damaged", "note": "Crystal cracked; box crushed."}
    assert open_claim(staff, ana, delivered["id"], damaged).status_code == 303
    assert parcels(mail_app, delivered["lead_id"], "inbound")[0]["state"] == "delivered"
    html = page(staff, ana, f"/staff/shipments/{delivered['id']}")
    assert "Open the claim" not in html and "Damaged" in html
    # a form without its reference is shown again with the message, nothing stored
    travelling = mail_deal(mail_app, "in_transit")
    answer = open_claim(staff, ana, travelling["id"], LOST | {"reference": ""})
    assert answer.status_code == 400
    assert "Enter the reference the insurer gave the claim." in answer.get_data(as_text=True)
    assert claim_of(mail_app, travelling["id"]) is None
    assert parcels(mail_app, travelling["lead_id"], "inbound")[0]["state"] == "in_transit"
    # and a parcel not yet scanned offers no claim form at all
    assert "No claim is possible for this parcel" in page(
        staff, ana, f"/staff/shipments/{unscanned['id']}"
    )


def test_the_claims_tab_and_the_declaration_show_each_claim(mail_app, staff_on):
    parcel = mail_deal(mail_app, "in_transit")
    quiet = mail_deal(mail_app, "in_transit")
    ana, staff = staff_on(mail_app)
    open_claim(staff, ana, parcel["id"], LOST)
    ben, _ = staff_on(mail_app, "ben@example.com", "Ben Ortiz")
    settle(staff, ben, parcel["id"], {"outcome": "refused"})
    tab = page(staff, ana, "/staff/shipments?tab=claims")
    assert parcel["tracking_code"] in tab and quiet["tracking_code"] not in tab
    assert "Claim (lost): refused" in tab
    assert 'href="/staff/shipments?tab=claims" aria-current="page"' in tab
    with mail_app.app_context():
        month = get_db().execute("SELECT first_scan_at FROM shipments WHERE id = ?",
                                 (parcel["id"],)).fetchone()[0][:7]  # fmt: skip
        file = io.StringIO()
        declarations.write_csv(file, month)
    rows = {row["tracking_code"]: row for row in csv.DictReader(io.StringIO(file.getvalue()))}
    assert rows[parcel["tracking_code"]]["claim"] == "lost: refused"
    assert rows[parcel["tracking_code"]]["claim_reference"] == "CLM-2026-0042"
    assert rows[parcel["tracking_code"]]["state"] == "lost"
    assert rows[quiet["tracking_code"]]["claim"] == ""


def test_signed_out_nobody_opens_or_settles_a_claim(mail_app):
    parcel = mail_deal(mail_app, "in_transit")
    client = mail_app.test_client()
    for path in (f"/staff/shipments/{parcel['id']}", f"/staff/shipments/{parcel['id']}/claim",
                 f"/staff/shipments/{parcel['id']}/claim/settle"):  # fmt: skip
        answer = client.post(path) if path.endswith(("claim", "settle")) else client.get(path)
        assert answer.status_code in (303, 400), path
        assert answer.status_code == 400 or "/staff/login" in answer.headers["Location"]
    assert claim_of(mail_app, parcel["id"]) is None


def test_the_reconciler_finds_the_delivery_of_a_lost_parcel_a_webhook_missed(
    mail_app, staff_on, easypost
):
    parcel, quiet = mail_deal(mail_app, "in_transit"), mail_deal(mail_app, "in_transit")
    ana, staff = staff_on(mail_app)
    open_claim(staff, ana, parcel["id"], LOST)
    easypost.track(parcel["provider_shipment_id"], "delivered")
    easypost.track(quiet["provider_shipment_id"], "in_transit")
    result = mail_app.test_cli_runner().invoke(args=["shipping", "reconcile"])
    assert f"#{parcel['id']}: moved to delivered" in result.output, result.output
    [found] = parcels(mail_app, parcel["lead_id"], "inbound")
    assert found["state"] == "delivered" and claim_of(mail_app, parcel["id"])["delivered_at"]
    again = mail_app.test_cli_runner().invoke(args=["shipping", "reconcile"])
    assert f"#{parcel['id']}:" not in again.output  # no longer lost: read as any delivered one
