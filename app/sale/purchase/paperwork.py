"""The seller's sale paperwork (docs/sale.md, "The purchase on record"): the declaration they sign
and its exact text, what their details must be (who may issue their ID, a routing number's
checksum, a signature that is their legal name, their age), their ID's photos made safe to keep,
and the signing itself, once. The form that collects it is app/status/paperwork_form.py.

The filled declaration is not stored: its SHA-256 is. `declaration_text()` makes the same text
from the same record every time, so the bill of sale (documents.py) re-makes it and proves it
by the hash. Identity and bank numbers are encrypted column by column; the timeline,
the log and staff's alert get their last 4 characters at most.
"""

from __future__ import annotations

import hashlib
import io
from datetime import date

import pillow_heif
from flask import current_app
from PIL import Image, ImageOps, UnidentifiedImageError

from app import queue
from app.leads import history
from app.leads.db import immediate_transaction, now
from app.leads.display import business_today, usd, watch_name
from app.leads.history import latest_change
from app.leads.state import State
from app.photos import decoding
from app.replica import copies
from app.sale.purchase import drafts, files, payout, record
from app.sale.purchase.record import years_later

pillow_heif.register_heif_opener()

ID_TYPES = {
    "drivers_license": "Driver's license",
    "state_id": "State ID card",
    "us_passport": "US passport",
    "foreign_passport": "Passport of another country",
}
# The declaration the seller signs, word for word (a new wording is a new version: the text
# names its version, so the hash of every signed declaration says which one was signed).
DECLARATION_V1 = """Seller's declaration (version 1)

I, {seller}, am selling my {watch}, serial number ending {serial_last4}, to {buyer} for {price}.

I declare that:
1. I am the lawful owner of this watch, or I am authorized in writing by its owner to sell it.
2. I am 18 years of age or older.
3. The watch is free of any loan, lien, security interest or claim by another person.
4. The watch has not been reported lost or stolen.
5. The information I have given for this sale is true and complete."""
ID_PHOTO_SIDE = 3000  # enough to read any ID; a larger photo is reduced to at least half
ID_PHOTO_ERRORS = (UnidentifiedImageError, Image.DecompressionBombError, SyntaxError, OSError)
# The record may be signed once, while the lead is `agreed` and not erased (checked by the
# UPDATE that signs it, so two posts at once sign once).
SIGNABLE = (
    "signed_at IS NULL AND EXISTS (SELECT 1 FROM leads WHERE leads.id = purchases.lead_id "
    f"AND leads.state = '{State.AGREED}' AND leads.erased_at IS NULL)"
)


US_STATES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
    "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
    "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
    "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York",
    "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma",
    "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina",
    "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont",
    "VA": "Virginia", "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin",
    "WY": "Wyoming",
}  # fmt: skip
STATE_IDS = ("drivers_license", "state_id")
UNITED_STATES = "United States"
US_NAMES = {"us", "usa", "u.s.", "u.s.a.", "united states", "united states of america"}
ADULT_AGE = 18


def issuer_for(id_type: str, typed: str) -> str | None:
    """Who issued the ID, as the record keeps it: a state's name for a driver's license or
    state ID card, the United States for a US passport, the country typed for another; None
    when the two do not fit together."""
    is_us = typed.casefold() in US_NAMES
    if id_type in STATE_IDS:
        by_name = {name.casefold(): name for name in US_STATES.values()}
        return US_STATES.get(typed.upper()) or by_name.get(typed.casefold())
    if id_type == "us_passport":
        return UNITED_STATES if is_us or not typed else None
    return typed if typed and not is_us else None


def aba_checksum_holds(digits: str) -> bool:
    """The ABA routing number's check digit: 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9) ≡ 0 mod 10."""
    d = [int(c) for c in digits]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]) % 10 == 0


def same_name(typed: str, legal: str) -> bool:
    """Whether a typed signature is the legal name, ignoring case and spaces."""
    return "".join(typed.split()).casefold() == "".join(legal.split()).casefold()


def adult_on(day: date, birth: date) -> bool:
    """Whether someone born on `birth` is ADULT_AGE or older on `day`."""
    return years_later(birth, ADULT_AGE) <= day


def latest_adult_birth() -> date:
    """The latest date of birth of someone ADULT_AGE or older today."""
    return years_later(business_today(), -ADULT_AGE)


class NotSignable(LookupError):
    """The paperwork is already signed, or the lead is no longer waiting for it."""


class UnreadablePhoto(ValueError):
    """An ID photo whose bytes do not decode as an image."""


def agreed_price(lead_id: int) -> int | None:
    """The final offer the seller accepted (the latest one: an accepted offer is not revised)."""
    offer = latest_change(history.lead_events(lead_id), State.OFFERED)
    return int(offer["amount"]) if offer else None


def declaration_text(lead: dict, purchase: dict) -> str:
    """The declaration filled in for this sale: the seller's legal name, the watch (its serial
    by the last 4 characters), the buyer and the price. The same record gives the same text."""
    return DECLARATION_V1.format(
        seller=purchase["legal_name"],
        watch=watch_name(lead),
        serial_last4=(purchase.get("serial_number") or "")[-4:],
        buyer=current_app.config["SITE_NAME"],
        price=usd(agreed_price(lead["id"]) or 0),
    )


def digest(text: str) -> str:
    """The SHA-256 of a declaration's exact text (UTF-8), in hex."""
    return hashlib.sha256(text.encode()).hexdigest()


def clean_id_photo(data: bytes) -> bytes:
    """An ID photo as a new JPEG of its pixels only, upright: every byte is decoded within a
    memory bound (app/photos/decoding.py: over PHOTO_MAX_PIXELS, or a file that only looks like
    an image, is refused with UnreadablePhoto) and no metadata (EXIF with GPS, XMP, ICC) is
    carried over."""
    try:
        with decoding.open_within(data, ID_PHOTO_SIDE) as image:
            upright = ImageOps.exif_transpose(image).convert("RGB")
    except ID_PHOTO_ERRORS as error:
        raise UnreadablePhoto(str(error)) from error
    upright.info = {}
    buffer = io.BytesIO()
    upright.save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def signed_columns(lead_id: int, values: dict, text: str, signer: dict) -> dict:
    """What the record keeps of the paperwork: names and address as typed, the numbers
    encrypted with their last 4, the declaration's hash and the signature's record."""
    return record.sealed_values(lead_id, values) | {
        "legal_name": values["legal_name"],
        "street_address": values["street_address"],
        "city": values["city"],
        "region": values["region"],
        "postal_code": values["postal_code"],
        "id_type": values["id_type"],
        "id_number_last4": values["id_number"][-4:],
        "id_issuer": values["id_issuer"],
        "id_expires_on": values["id_expires_on"],
        "account_holder": values["account_holder"],
        "account_number_last4": values["account_number"][-4:],
        "declaration_sha256": digest(text),
        "signed_name": values["signed_name"],
        "signed_at": now(),
        "signed_ip": signer["ip"],
        "signed_user_agent": signer["user_agent"],
    }


def sign(lead: dict, values: dict, photos: dict[str, bytes], signer: dict) -> int:
    """Put the seller's signed paperwork and ID photos on the record, with the
    `paperwork_signed` event and the payout account's check, in one transaction, then e-mail
    the seller that check (payout.py) and alert staff; the event's id. Raises
    NotSignable (nothing changed, no file left behind) unless the record is still unsigned and
    the lead still `agreed`."""
    text = declaration_text(lead, (record.get(lead["id"]) or {}) | values)
    columns = signed_columns(lead["id"], values, text, signer)
    written: list[str] = []
    try:
        with immediate_transaction() as db:
            if not record.update(db, lead["id"], columns, SIGNABLE):
                raise NotSignable(f"Lead {lead['id']} is not waiting for its paperwork.")
            for kind in files.ID_PHOTOS:
                row = files.add_file(db, lead["id"], kind, photos[kind], "image/jpeg")
                written.append(row["file_name"])
            event = {
                "declaration_sha256": columns["declaration_sha256"],
                "id_last4": columns["id_number_last4"],
                "account_last4": columns["account_number_last4"],
            }
            event_id = history.append_event(db, lead["id"], "seller", "paperwork_signed", event)
            check_id = payout.ask_seller(db, lead["id"], columns["account_number_last4"], event_id)
            draft = drafts.remove(db, lead["id"])
    except BaseException:
        files.remove_files(written)
        raise
    files.remove_files(draft)
    copies.sync_later(lead["id"])
    current_app.logger.info("Lead %s: paperwork signed (event %s).", lead["id"], event_id)
    queue.enqueue(queue.SEND_PAYOUT_CHECK, check_id)
    queue.enqueue(queue.ALERT_STAFF, lead["id"], event_id)
    return event_id
