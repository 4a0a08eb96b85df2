"""The purchase on record's seller side in tests: a lead taken to the final offer as
staff take it, a paperwork form that passes every rule, and posting it with its ID photos."""

from __future__ import annotations

import io
import re
from datetime import timedelta

from werkzeug.datastructures import FileStorage, MultiDict

from app.leads import store
from app.sale import lifecycle
from app.sale.purchase import authentication
from app.status.paperwork_form import PaperworkForm
from tests.data.photos import photo_bytes
from tests.helpers import business_today, csrf_token, give_token, post_multipart, sample_lead

IN_A_WEEK = (business_today() + timedelta(days=7)).isoformat()
QUOTE = {"amount_low": 8000, "amount_high": 9500, "valid_until": IN_A_WEEK}
APPOINTMENT = {"date": IN_A_WEEK, "time": "14:30", "mode": "office", "place": "5 Main St"}
SERIAL = "7Z41K9Q2"
FINDINGS = {
    "brand": "Rolex",
    "model_reference": "126610LN",
    "serial_number": SERIAL,
    "case_marks": "Light scratches on the clasp",
    "movement_marks": "Calibre 3235, service mark 2023",
    "condition_findings": "Bezel insert faded; dial and hands original",
}
DIFFERENCES = [
    {"what": "Faded bezel insert", "why": "It needs replacing before resale: about $600."},
    {"what": "No service papers", "why": "The 2023 service cannot be shown to a buyer."},
]
OFFER = {"amount": 7400, "valid_until": IN_A_WEEK, "differences": DIFFERENCES}

# The numbers a seller types: each must never be seen again but by its last 4 characters.
ID_NUMBER = "K4827719305"
BIRTH_DATE = "1980-04-21"
ROUTING = "021000021"  # a real routing number's shape: its ABA checksum holds
ACCOUNT = "483920175566"
SECRETS = (ID_NUMBER, BIRTH_DATE, ROUTING, ACCOUNT)
VALID = {
    "legal_name": "Jordan A. Avery",
    "street_address": "41 Elm Street\r\nApt 3",
    "city": "Brooklyn",
    "region": "NY",
    "postal_code": "11201",
    "birth_date": BIRTH_DATE,
    "id_type": "drivers_license",
    "id_number": "K48-277-193 05",
    "id_issuer": "ny",
    "id_expires_on": (business_today() + timedelta(days=900)).isoformat(),
    "account_holder": "Jordan Avery",
    "routing_number": ROUTING,
    "account_number": ACCOUNT,
    "account_number_again": ACCOUNT,
    "esign_consent": "yes",
    "signed_name": "jordan a.  avery",
    "declaration_name": "Jordan A. Avery",  # the declaration the seller read bore this name
}


# The moves staff make from a lead's quote to its appointment.
TO_APPOINTMENT = (
    ("quoted", QUOTE),
    ("accepted", {"via": "phone"}),
    ("appointment", APPOINTMENT),
)


def move_through(lead_id: int, state: str, moves) -> None:
    """Inside an app context: the lead moved by staff from `state` through each (state, data)
    of `moves`, in order."""
    for to_state, data in moves:
        lifecycle.transition(lead_id, to_state, "staff:1", data, state)
        state = to_state


def offered_lead(
    app, offer: dict | None = None, quote: dict = QUOTE, at_appointment=None
) -> tuple[int, str]:
    """A lead taken by staff through quote, appointment and authentication to the final offer;
    its id and status token. `at_appointment(lead_id, token)`, if given, runs before the
    authentication (what a seller can still do then, such as sending photos)."""
    with app.app_context():
        lead_id, _ = store.save_lead(sample_lead(), [])
        move_through(lead_id, "new", [("quoted", quote), *TO_APPOINTMENT[1:]])
    token = give_token(app, lead_id)
    if at_appointment:
        at_appointment(lead_id, token)
    with app.app_context():
        authentication.record_findings(lead_id, "staff:1", FINDINGS)
        lifecycle.transition(lead_id, "offered", "staff:1", offer or OFFER, "appointment")
    return lead_id, token


def agreed_lead(app, at_appointment=None) -> tuple[int, str]:
    """A lead whose seller accepted the final offer on the status page (`at_appointment` as
    offered_lead's)."""
    lead_id, token = offered_lead(app, at_appointment=at_appointment)
    with app.app_context():
        lifecycle.transition(lead_id, "agreed", "seller", {"via": "status_page"}, "offered")
    return lead_id, token


def accepted_again(app, lead_id: int, amount: int) -> None:
    """A new deal on a lead whose seller had accepted a final offer: the seller withdraws, staff
    reopen the lead and take it again through a quote and an appointment to a final offer of
    `amount` dollars, which the seller accepts (the findings stay on the record)."""
    reopen = {"note": "The seller called back: they want to sell after all"}
    with app.app_context():
        lifecycle.transition(lead_id, "closed", "seller", {"reason": "withdrawn"}, "agreed")
        move_through(lead_id, "closed", [("contacted", reopen), *TO_APPOINTMENT])
        move_through(lead_id, "appointment", [("offered", OFFER | {"amount": amount})])
        lifecycle.transition(lead_id, "agreed", "seller", {"via": "status_page"}, "offered")


def page_csrf(client, path: str) -> str:
    """The CSRF token of the form on the page at `path`."""
    html = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def id_photo(seed: int = 0, fmt: str = "JPEG") -> bytes:
    """A photo standing in for an ID card's side, with GPS EXIF that must not be kept."""
    return photo_bytes(size=(1000, 640), seed=seed, fmt=fmt, gps=fmt == "JPEG")


def post_paperwork(client, token: str, changes: dict | None = None, photos=None, headers=None):
    """POST the paperwork form (VALID with `changes`; a None value leaves the field out) with
    the ID photos {field: (bytes, file name)} (default: a JPEG of each side)."""
    form = {key: value for key, value in (VALID | (changes or {})).items() if value is not None}
    data = MultiDict({"csrf_token": csrf_token(client), **form})
    chosen = {"id_front": (id_photo(1), "front.jpg"), "id_back": (id_photo(2), "back.jpg")}
    for name, (content, filename) in (chosen if photos is None else photos).items():
        data.add(name, FileStorage(io.BytesIO(content), filename=filename))
    return post_multipart(client, f"/status/{token}/paperwork", data, headers=headers)


def checked_form(app, fields: dict, photos: dict | None = None):
    """The paperwork form as the server checks a post of `fields` and `photos` {field: bytes}
    (no CSRF token: what is checked here is the form's own rules); validated, its cleaned values
    and clean ID photos ready. Call inside `app.test_request_context()`."""
    data = MultiDict(fields)
    for name, content in (photos or {}).items():
        data.add(name, FileStorage(io.BytesIO(content), filename=f"{name}.jpg"))
    form = PaperworkForm(formdata=data, meta={"csrf": False})
    form.validate()
    return form
