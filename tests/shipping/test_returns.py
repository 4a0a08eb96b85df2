"""The free insured return: a sale by mail that ends without a purchase while the watch is with
us sends it back, once, from our address to the seller's, adult signature required, tracked to
delivered, and the delivery ends the deal on the timeline; a watch whose register check stands
flagged is held and never sent, and the seller reads only "on hold pending checks"; nothing is
sent back that never reached us. Against the fake EasyPost, on a real SQLite file, the jobs run
by the in-process runner."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest

from app.leads import history
from app.leads.db import immediate_transaction, transaction
from app.leads.state import State
from app.rendering.dates import display_date
from app.sale import lifecycle
from app.sale.timeline import entries
from app.shipping import declarations, labels, reconcile, returns, shipment_tabs
from tests.helpers import answer_data, give_token, lead_work_done, save_sample_lead
from tests.shipping.return_steps import (  # noqa: F401 (a fixture)
    held_not_returned,
    mail_deal,
    parcels,
    staff_on,
)
from tests.shipping.steps import deliver, mailin_settings, tracking_event
from worker import label_jobs, return_jobs


@pytest.fixture
def mail_app(make_app, easypost, mail_settings):
    """Selling by mail through the fake, e-mail to the loopback SMTP server, staff's included."""
    return make_app(**mailin_settings(easypost), **mail_settings, STAFF_EMAIL="staff@example.com")


def close(app, lead_id: int, reason: str = "seller_declined", actor: str = "seller",
          at: State = State.OFFERED) -> int:  # fmt: skip
    """Close the lead as the seller or staff would, its jobs run to the end."""
    with app.app_context():
        event_id = lifecycle.transition(lead_id, State.CLOSED, actor, {"reason": reason}, at)
    lead_work_done(app)
    return event_id


def flag_register(app, lead_id: int) -> None:
    """The watch's stolen-watch register check stands flagged on its purchase record."""
    with app.app_context(), transaction() as db:
        db.execute("UPDATE purchases SET register_result = 'flagged' WHERE lead_id = ?",
                   (lead_id,))  # fmt: skip


def timeline_titles(app, lead_id: int) -> list[str]:
    """The staff timeline's titles, oldest first."""
    with app.app_context():
        return [entry.title for entry in reversed(entries(history.lead_events(lead_id), {}))]


def test_declining_the_final_offer_sends_the_watch_back_from_us_to_the_seller(
    mail_app, easypost, smtp_server
):
    inbound = mail_deal(mail_app)
    token = give_token(mail_app, inbound["lead_id"])
    client = mail_app.test_client()
    answer = client.post(f"/status/{token}/offer", data=answer_data(client, token, "decline"))
    assert answer.status_code == 303
    lead_work_done(mail_app)
    [back] = parcels(mail_app, inbound["lead_id"], "return")
    assert back["state"] == "label_ready" and back["tracking_code"]
    assert back["insured_value"] == inbound["insured_value"] == 18500
    assert back["deal_event_id"] == inbound["deal_event_id"]
    assert back["policy"] == "HV-PARCEL-2026-0417"
    created = [r["body"]["shipment"] for r in easypost.requests if r["action"] == "create"]
    [made] = [body for body in created if body["reference"].endswith("-return")]
    assert made["from_address"]["street1"] == "41 Orchard Street"  # our receiving address
    assert made["from_address"]["zip"] == "10002"
    assert made["to_address"] == {"id": "adr_seller_1"}  # the seller's verified address
    assert made["options"]["delivery_confirmation"] == "ADULT_SIGNATURE"
    assert "rolex" not in made["reference"].lower()
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "We are preparing your watch&#39;s return." in page
    assert back["tracking_code"] not in page  # shown once it travels
    assert "The return parcel: prepaid label bought (UPS)" in timeline_titles(
        mail_app, inbound["lead_id"]
    )


def test_a_second_close_or_a_retried_job_buys_one_return_label(mail_app, easypost):
    inbound = mail_deal(mail_app)
    lead_id = inbound["lead_id"]
    close(mail_app, lead_id)
    bought = easypost.bought()
    with mail_app.app_context():  # the job again, as a retry would
        assert "already has its label" in return_jobs.open_return_parcel(lead_id)
        [back] = parcels(mail_app, lead_id, "return")
        assert label_jobs.buy_shipping_label(back["id"]) == "label label_ready"
        note = {"reason": "", "note": "Seller called back"}
        lifecycle.transition(lead_id, State.CONTACTED, "staff:1", note, State.CLOSED)
    close(mail_app, lead_id, "not_a_fit", "staff:1", State.CONTACTED)  # closed again
    assert len(parcels(mail_app, lead_id, "return")) == 1
    assert easypost.bought() == bought  # no second label


def test_the_return_label_is_bought_once_after_a_failure(mail_app, easypost):
    inbound = mail_deal(mail_app)
    with mail_app.app_context(), immediate_transaction() as db:
        db.execute("UPDATE leads SET state = ? WHERE id = ?", (State.CLOSED, inbound["lead_id"]))
    easypost.reset()
    easypost.plan("buy", 500)
    with mail_app.app_context():
        returns.open_return(inbound["lead_id"])  # queues the label's purchase: it meets a 500
    lead_work_done(mail_app)
    with mail_app.app_context():
        [back] = parcels(mail_app, inbound["lead_id"], "return")
        assert [r["answered"] for r in easypost.requests if r["action"] == "buy"] == [500]
        assert labels.get(back["id"])["state"] == "created"
        assert labels.get(back["id"])["provider_shipment_id"]  # stored before the purchase
        label_jobs.buy_shipping_label(back["id"])  # the retry
        label_jobs.buy_shipping_label(back["id"])  # and one more
    assert easypost.bought() == 1
    assert [r["action"] for r in easypost.requests].count("create") == 1


def test_a_flagged_watch_is_held_never_returned_and_the_seller_is_told_only_on_hold(
    mail_app, easypost, smtp_server, staff_on
):
    inbound = mail_deal(mail_app)
    lead_id = inbound["lead_id"]
    flag_register(mail_app, lead_id)
    bought = easypost.bought()
    close(mail_app, lead_id)
    held = held_not_returned(mail_app, easypost, lead_id, bought)
    titles = timeline_titles(mail_app, lead_id)
    assert any(title.startswith("HELD, do not return") for title in titles)
    assert "E-mail to staff: HELD, do not return the watch" in titles
    messages = smtp_server.wait_for(3)  # the seller's "closed" e-mail, staff's two alerts
    [alert] = [m for m in messages if m["Subject"].startswith("HELD")]
    assert alert["Subject"].startswith("HELD, do not return: the watch of lead")
    assert "do not return it to the seller" in alert.get_content()
    to_seller = [m for m in messages if m["To"] != "staff@example.com"]
    assert to_seller
    token = give_token(mail_app, lead_id)
    page = mail_app.test_client().get(f"/status/{token}").get_data(as_text=True)
    assert "on hold" not in page and "data-return" not in page  # as a return still waiting
    with mail_app.app_context():  # a staff member chose to tell the seller
        returns.tell_seller(lead_id, "staff:1")
    page = mail_app.test_client().get(f"/status/{token}").get_data(as_text=True)
    assert "Your sale is on hold pending checks." in page
    for message in to_seller:
        page += message.get_body(("plain",)).get_content()
    assert "stolen" not in page.lower() and "flagged" not in page.lower()
    assert "register" not in page.lower()
    with mail_app.app_context():  # the reconciler's sweep does not open it either
        assert returns.owed() == []
        assert "held" in returns.open_return(lead_id)
    staff, _ = staff_on(mail_app)
    assert "Held: do not return" in staff.get(f"/staff/shipments/{held['id']}").get_data(True)
    assert held["tracking_code"] in staff.get("/staff/shipments?tab=held").get_data(True)


def test_a_flagged_watch_is_held_when_its_lead_and_its_parcel_have_different_ids(
    mail_app, easypost
):
    save_sample_lead(mail_app), save_sample_lead(mail_app)  # leads 1 and 2, neither flagged
    inbound = mail_deal(mail_app)  # parcel 1, of lead 3
    lead_id = inbound["lead_id"]
    assert (lead_id, inbound["id"]) == (3, 1)
    flag_register(mail_app, lead_id)
    close(mail_app, lead_id)
    assert parcels(mail_app, lead_id, "return") == []
    [held] = parcels(mail_app, lead_id, "inbound")
    assert held["return_held_at"]
    with mail_app.app_context():
        assert returns.held_for_checks(lead_id)
        assert not returns.held_for_checks(inbound["id"])
        assert returns.seller_view(lead_id) is None  # as a return still waiting, until told
        assert returns.owed() == [] and "held" in returns.open_return(lead_id)
    assert parcels(mail_app, lead_id, "return") == []


def test_nothing_goes_back_that_never_reached_us_and_its_label_is_voided(mail_app, easypost):
    inbound = mail_deal(mail_app, "label_ready")
    close(mail_app, inbound["lead_id"], "withdrawn")
    assert parcels(mail_app, inbound["lead_id"], "return") == []
    with mail_app.app_context():
        assert "not with us" in returns.open_return(inbound["lead_id"])
        old = (datetime.now(UTC) - timedelta(days=15)).isoformat()
        with transaction() as db:
            db.execute("UPDATE shipments SET bought_at = ? WHERE id = ?", (old, inbound["id"]))
        done = reconcile.reconcile()
    assert done.outcomes[inbound["id"]] == "label unused: refund asked, parcel voided"
    assert done.returns == {}
    assert parcels(mail_app, inbound["lead_id"], "return") == []


def test_the_reconciler_opens_a_return_a_lost_job_owed(mail_app, easypost):
    inbound = mail_deal(mail_app)
    with mail_app.app_context(), immediate_transaction() as db:  # closed, its job lost
        db.execute("UPDATE leads SET state = ? WHERE id = ?", (State.CLOSED, inbound["lead_id"]))
    with mail_app.app_context():
        assert returns.owed() == [inbound["lead_id"]]
        done = reconcile.reconcile()
    assert "on record, its label to buy" in done.returns[inbound["lead_id"]]
    assert "returns owed: lead" in done.summary()
    lead_work_done(mail_app)
    [back] = parcels(mail_app, inbound["lead_id"], "return")
    assert back["state"] == "label_ready"
    with mail_app.app_context():
        assert returns.owed() == []


def test_the_return_is_tracked_to_delivered_and_ends_the_deal(mail_app, easypost):
    inbound = mail_deal(mail_app)
    close(mail_app, inbound["lead_id"])
    [back] = parcels(mail_app, inbound["lead_id"], "return")
    easypost.track(back["provider_shipment_id"], "in_transit")
    with mail_app.app_context():
        done = reconcile.reconcile()  # the reconciler reads the return as any parcel
    assert done.outcomes[back["id"]] == "moved to in_transit"
    with mail_app.app_context():  # on the Returns tab, and declared to the insurer as its leg
        assert [p["id"] for p in shipment_tabs.parcels("returns")] == [back["id"]]
        file = io.StringIO()
        declarations.write_csv(file, datetime.now(UTC).strftime("%Y-%m"))
    declared = {row["leg"]: row for row in csv.DictReader(io.StringIO(file.getvalue()))}
    assert declared["return"]["tracking_code"] == back["tracking_code"]
    assert declared["return"]["insured_value_usd"] == "18500"
    token = give_token(mail_app, inbound["lead_id"])
    client = mail_app.test_client()
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "Your watch is on its way back to you." in page and back["tracking_code"] in page
    deliver(client, tracking_event(back["tracking_code"], "delivered"))
    deliver(client, tracking_event(back["tracking_code"], "in_transit"))  # late: changes nothing
    lead_work_done(mail_app)
    [back] = parcels(mail_app, inbound["lead_id"], "return")
    assert back["state"] == "delivered" and back["delivered_at"]
    with mail_app.app_context():  # done: off the Returns tab
        assert shipment_tabs.parcels("returns") == []
    with mail_app.app_context():
        day = entries(history.lead_events(inbound["lead_id"]), {})[0].at[:10]
        ended = f"Deal ended: returned to the seller, delivered {display_date(day)}"
    assert ended in timeline_titles(mail_app, inbound["lead_id"])
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert "Your watch was delivered back to you." in page
    assert display_date(day) in page


def test_an_unscanned_return_label_is_an_exception_for_staff_never_voided(mail_app, easypost):
    inbound = mail_deal(mail_app)
    close(mail_app, inbound["lead_id"])
    [back] = parcels(mail_app, inbound["lead_id"], "return")
    old = (datetime.now(UTC) - timedelta(days=20)).isoformat()
    with mail_app.app_context():
        with transaction() as db:
            db.execute("UPDATE shipments SET bought_at = ? WHERE id = ?", (old, back["id"]))
        easypost.reset()
        done = reconcile.reconcile()
    assert done.outcomes[back["id"]] == "exception no_first_scan"
    assert "refund" not in [r["action"] for r in easypost.requests]
    [back] = parcels(mail_app, inbound["lead_id"], "return")
    assert back["state"] == "label_ready" and back["exception_status"] == "no_first_scan"
