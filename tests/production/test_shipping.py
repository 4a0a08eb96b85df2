"""The label provider's webhook in the production shape: through nginx over TLS to gunicorn,
verified on the raw bytes nginx passed on, stored once, applied by the real rq worker; a
forged or replayed event changes nothing. The secret never reaches a log."""

from __future__ import annotations

from tests.helpers import wait_until
from tests.production.conftest import WEBHOOK_SECRET
from tests.production.steps import leads_db
from tests.shipping.steps import signed, tracking_event

TRACKING = "1ZPRODSHAPE0000001"


def parcel_on_record(site) -> int:
    """A lead and its labelled inbound parcel, written as an operator's restore would."""
    with leads_db(site) as db:
        lead_id = db.execute(
            "INSERT INTO leads (created_at, full_name, email, phone, watch_brand, "
            "watch_condition, has_box, has_papers, source, meta_event_id, reference) VALUES "
            "('2026-11-20T10:00:00+00:00', 'Mo Mail', 'mo.mail@example.com', '2125550123', "
            "'Rolex', 'Excellent - Like new', 1, 1, 'USA Website', 'mail-1', 'USWB-MAIL01')"
        ).lastrowid
        db.execute(
            "INSERT INTO shipments (lead_id, leg, deal_event_id, state, insured_value, policy, "
            "from_address_id, provider_shipment_id, tracking_code, created_at, updated_at) "
            "VALUES (?, 'inbound', 1, 'label_ready', 18500, 'HV-PARCEL-2026-0417', 'adr_1', "
            "'shp_1', ?, '2026-11-20T10:00:00+00:00', '2026-11-20T10:00:00+00:00')",
            (lead_id, TRACKING),
        )
    return lead_id


def post_event(site, body: bytes, headers: dict):
    return site.front.request("POST", "/webhooks/easypost", headers=headers, body=body)


def parcel_state(site) -> str:
    with leads_db(site) as db:
        row = db.execute("SELECT state FROM shipments WHERE tracking_code = ?", (TRACKING,))
        return row.fetchone()["state"]


def test_a_signed_event_through_nginx_moves_the_parcel_and_a_forged_one_is_refused(site):
    parcel_on_record(site)
    event = tracking_event(TRACKING, "in_transit", "evt_prod_1", mode="production")
    body, headers = signed(event, WEBHOOK_SECRET)
    forged_body, forged_headers = signed(tracking_event(TRACKING, "delivered"), "whsec-guess")
    assert post_event(site, forged_body, forged_headers).status == 401
    first = post_event(site, body, headers)
    again = post_event(site, body, headers)  # the provider delivering it again
    assert (first.status, first.body) == (200, b"Stored.\n")
    assert (again.status, again.body) == (200, b"Already stored.\n")
    wait_until(lambda: parcel_state(site) == "in_transit", timeout=60)  # the rq worker's job
    with leads_db(site) as db:
        stored = db.execute(  # this test's events (the stack is shared with other tests')
            "SELECT provider_event_id FROM shipment_events WHERE provider_event_id LIKE 'evt_prod%'"
        ).fetchall()
    assert [row[0] for row in stored] == ["evt_prod_1"]
    assert not [log.name for log in site.folder.glob("*.log") if WEBHOOK_SECRET in log.read_text()]
