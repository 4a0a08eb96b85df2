"""The purchase on record's staff side in tests: a lead taken to its appointment as
staff take it, a register certificate, and the lead page's purchase forms posted as a browser
posts them."""

from __future__ import annotations

import io
import json
import re

from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.test import stream_encode_multipart

from app.leads import history, store
from app.leads.db import transaction
from app.sale import lifecycle
from app.sale.purchase import authentication, record
from tests.data.paperwork import APPOINTMENT, FINDINGS, QUOTE, agreed_lead, post_paperwork
from tests.data.photos import photo_bytes
from tests.helpers import CLEAR_CHECK, business_today, sample_lead

# A PDF as a register sends one (its magic bytes are what is checked), and a photo of one.
CERTIFICATE_PDF = b"%PDF-1.7\n1 0 obj <</Type /Catalog>> endobj\ntrailer <<>>\n%%EOF\n"
CERTIFICATE_PHOTO = photo_bytes(size=(600, 800), fmt="PNG")
# A register check as staff record it; check_register() dates it the day it is recorded.
REGISTER_CHECK = {"provider": "Stolen Watch Register", "result": "clear"}
PATHS = {
    "findings": "findings",
    "register_check": "register-check",
    "verify_id": "id-verified",
    "payment_exception": "exceptions/payment",
    "clear_flag": "exceptions/register-flag",
    "holder_name": "exceptions/account-holder",
    "payout_callback": "payout-call-back",
}


def appointment_lead(app, **overrides) -> int:
    """A lead quoted, accepted by phone and booked for its authentication appointment."""
    with app.app_context():
        lead_id, _ = store.save_lead(sample_lead(**overrides), [])
        state = "new"
        moves = [("quoted", QUOTE), ("accepted", {"via": "phone"}), ("appointment", APPOINTMENT)]
        for to_state, data in moves:
            lifecycle.transition(lead_id, to_state, "staff:1", data, state)
            state = to_state
    return lead_id


def authenticated_lead(app) -> int:
    """A lead at its appointment with the authentication's findings recorded, as staff do."""
    lead_id = appointment_lead(app)
    with app.app_context():
        authentication.record_findings(lead_id, "staff:1", FINDINGS)
    return lead_id


def page_token(html: str) -> str:
    """A CSRF token from a staff page (each is valid for the whole session)."""
    return re.search(r'csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def post_step(client, lead_id: int, name: str, fields: dict, files: dict | None = None):
    """POST one of the lead page's purchase forms (findings, register_check, verify_id) with
    its prefixed fields and files {field: (bytes, file name)}, as the browser sends it."""
    html = client.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    data = MultiDict({f"{name}-{key}": value for key, value in fields.items()})
    data[f"{name}-csrf_token"] = page_token(html)
    for field, (content, filename) in (files or {}).items():
        data.add(f"{name}-{field}", FileStorage(io.BytesIO(content), filename=filename))
    # Encoded in memory: the test client would spool a big body to a file it never closes.
    body, length, boundary = stream_encode_multipart(data, use_tempfile=False)
    return client.post(
        f"/staff/leads/{lead_id}/{PATHS[name]}",
        input_stream=body,
        content_length=length,
        content_type=f"multipart/form-data; boundary={boundary}",
    )


def check_register(client, lead_id: int, result: str = "clear", certificate=CERTIFICATE_PDF):
    """Record a register check with `result` and its certificate, as staff do."""
    # Dated the day it is recorded (not the day this module was imported: a run that crosses
    # midnight in the business's time zone would date it before the authentication).
    fields = REGISTER_CHECK | {"result": result, "checked_on": business_today().isoformat()}
    return post_step(
        client, lead_id, "register_check", fields, {"certificate": (certificate, "cert.pdf")}
    )


def signed_lead(app) -> int:
    """A lead whose seller accepted the final offer and signed the paperwork on the status
    page (the real form, with both ID photos)."""
    lead_id, token = agreed_lead(app)
    assert post_paperwork(app.test_client(), token).status_code == 303
    return lead_id


def ready_to_buy(app, verified_by: str = "staff:1") -> int:
    """A signed lead with a clear register check and its ID verified: every item before
    `bought` holds."""
    lead_id = signed_lead(app)
    checked_and_verified(app, lead_id, verified_by)
    return lead_id


def checked_and_verified(app, lead_id: int, verified_by: str = "staff:1") -> None:
    """What staff and the seller put on a signed lead's record before payment: a clear register
    check of its serial number, the ID verified and the payout account confirmed."""
    checked = {"register_provider": "Stolen Watch Register"} | CLEAR_CHECK
    verified = {
        "id_verified_by": verified_by,
        "id_verified_at": "2026-11-20T16:00:00+00:00",
        "payout_confirmed_at": "2026-11-20T16:00:00+00:00",
        "payout_confirmed_by": "seller",
    }
    with app.app_context(), transaction() as db:
        record.update(db, lead_id, checked | verified | {"register_checked_on": "2026-11-20"})


def buy(app, lead_id: int, actor: str = "staff:1", paid_on: str | None = None, **payment) -> None:
    """The real `bought` move of a lead ready to buy (the payment recorded with it). A payment
    dated `paid_on` in the past is paid for paperwork signed that day (a payment is never
    dated before the signature)."""
    data = {"amount": 7400, "method": "wire", "confirmation": "FED-0042"} | payment
    with app.app_context():
        data["paid_on"] = paid_on or business_today().isoformat()
        with transaction() as db:
            signed = f"{data['paid_on']}T15:00:00+00:00"
            db.execute(
                "UPDATE purchases SET signed_at = min(signed_at, ?) WHERE lead_id = ?",
                (signed, lead_id),
            )
        lifecycle.transition(lead_id, "bought", actor, data, "agreed")


def lead_page(client, lead_id: int) -> str:
    """The lead's staff page, which must answer 200."""
    response = client.get(f"/staff/leads/{lead_id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def act(client, lead_id: int, action: str, fields: dict):
    """Submit an action's form from the lead page, with the state the page showed."""
    html = lead_page(client, lead_id)
    state = re.search(rf'name="{action}-expected_state" type="hidden" value="(\w+)"', html)
    data = {f"{action}-{name}": value for name, value in fields.items()}
    data |= {f"{action}-csrf_token": page_token(html), f"{action}-expected_state": state.group(1)}
    return client.post(f"/staff/leads/{lead_id}/{action}", data=data)


def purchase(app, lead_id: int) -> dict:
    """The lead's purchase row ({} before there is one)."""
    with app.app_context():
        return record.get(lead_id) or {}


def events(app, lead_id: int, kind: str) -> list[dict]:
    """The lead's events of one kind, oldest first."""
    with app.app_context():
        return [event for event in history.lead_events(lead_id) if event["kind"] == kind]


def audit(app) -> list[tuple[str, dict]]:
    """Every audit entry as (action, data), oldest first."""
    with app.app_context(), transaction() as db:
        rows = db.execute("SELECT action, data FROM audit ORDER BY id").fetchall()
    return [(row["action"], json.loads(row["data"] or "{}")) for row in rows]


def state_of(app, lead_id: int) -> str:
    """The lead's state now."""
    with app.app_context():
        return store.get_lead(lead_id)["state"]
