"""Steps the status page's sale-by-mail tests share: a mail deal whose quote the seller
accepted, each of the seller's three parts posted as the page posts them, and staff's button."""

from __future__ import annotations

import html as html_lib
import io
import re
from datetime import timedelta

from werkzeug.datastructures import FileStorage

from app.leads import history, store
from app.leads.db import transaction
from app.sale import lifecycle
from app.shipping import labels, preparation
from tests.data.paperwork import id_photo
from tests.helpers import business_today, give_token, sample_lead

ADDRESS = {
    "name": "Jordan Avery",
    "street1": "12 Main St",
    "street2": "",
    "city": "Boise",
    "state": "ID",
    "zip": "83702",
    "phone": "(208) 555-0142",
}


def quote(high: int) -> dict:
    """A preliminary quote up to `high` dollars, valid for a week."""
    until = (business_today() + timedelta(days=7)).isoformat()
    return {"amount_low": high - 1500, "amount_high": high, "valid_until": until}


def mail_deal(app, high: int = 9500, handover: str | None = "mail") -> tuple[int, str]:
    """A lead sold by mail (`handover`) whose seller accepted a quote up to `high` on the status
    page; its id and status token."""
    with app.app_context():
        lead_id, _ = store.save_lead(sample_lead(), [])
        with transaction() as db:
            db.execute("UPDATE leads SET handover = ? WHERE id = ?", (handover, lead_id))
        lifecycle.transition(lead_id, "quoted", "staff:1", quote(high), "new")
        lifecycle.transition(lead_id, "accepted", "seller", {"via": "status_page"}, "quoted")
    return lead_id, give_token(app, lead_id)


def csrf(client, token: str) -> str:
    """The CSRF token of the status page's forms (the lost-link form's, when the page shows
    none: it is the session's)."""
    html = client.get(f"/status/{token}").get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    if found is None:
        html = client.get("/status").get_data(as_text=True)
        found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    return found.group(1)


def post_address(client, token: str, changes: dict | None = None):
    """The return address form, as typed (ADDRESS with `changes`)."""
    data = ADDRESS | (changes or {}) | {"csrf_token": csrf(client, token)}
    return client.post(f"/status/{token}/mail/address", data=data)


def post_id(client, token: str, front: bytes | None = None, back: bytes | None = None):
    """The ID's two photos (by default a JPEG of each side)."""
    data = {
        "csrf_token": csrf(client, token),
        "id_front": FileStorage(io.BytesIO(front or id_photo(1)), "front.jpg", "image/jpeg"),
        "id_back": FileStorage(io.BytesIO(back or id_photo(2)), "back.jpg", "image/jpeg"),
    }
    return client.post(f"/status/{token}/mail/id", data=data, content_type="multipart/form-data")


def post_conditions(client, token: str, leave_out: tuple[str, ...] = ()):
    """The shipping conditions, each ticked but those of `leave_out`."""
    from app.shipping.preparation import CONDITIONS

    data = {name: "yes" for name in CONDITIONS if name not in leave_out}
    return client.post(
        f"/status/{token}/mail/conditions", data=data | {"csrf_token": csrf(client, token)}
    )


def all_given(app, token: str) -> None:
    """The seller's three parts, each accepted."""
    client = app.test_client()
    for response in (
        post_address(client, token),
        post_id(client, token),
        post_conditions(client, token),
    ):
        assert response.status_code == 303


def labelled(app, high: int = 9500) -> tuple[int, str, dict]:
    """A mail deal whose seller gave everything, its ID verified and its label bought; (lead
    id, token, the parcel's row)."""
    lead_id, token = mail_deal(app, high)
    all_given(app, token)
    with app.app_context():
        return lead_id, token, labels.buy_label(verify_id(lead_id))


def verify_id(lead_id: int) -> int:
    """Staff verify the ID as the lead's page shows it now (in an app context); the parcel's id."""
    record = preparation.get(lead_id, preparation.deal_of(history.lead_events(lead_id)))
    return preparation.verify_id_and_open(lead_id, "staff:1", preparation.seen_now(lead_id, record))


def notice(client, token: str) -> str:
    """The page's notice after a post (the flashed message)."""
    html = client.get(f"/status/{token}").get_data(as_text=True)
    found = re.search(r"data-notice>(.*?)</p>", html, re.S)
    return html_lib.unescape(found.group(1).strip()) if found else ""
