"""The bill of sale and the receipt of a bought lead: rendered from app/templates/documents/ to
PDF by WeasyPrint in a job (worker.jobs.make_purchase_documents, queued before the "paid"
e-mail, which attaches the stored files), never in a request, and once per version. Each is
stored encrypted as the next version of its kind (files.add_file), its SHA-256 on the timeline
(`document_made`) in the same transaction.

A document is current when it was made after the last event that put on record anything it
says (the findings, the signed paperwork, the payment): a staff correction after payment makes
both owed again, as version n+1, and the old versions are kept. Nothing in a document reveals
more than the last 4 characters of an ID or bank number, and no ID image is in either.
"""

from __future__ import annotations

import json

from flask import current_app
from PIL import ImageFile

from app.leads import store
from app.leads.db import get_db, immediate_transaction
from app.leads.display import (
    business_today,
    local_day,
    local_time,
    usd,
    watch_name,
)
from app.leads.history import append_event
from app.leads.state import State
from app.rendering.dates import display_date
from app.rendering.layout import site_info
from app.sale.purchase import files, paperwork, record

PDF = "application/pdf"
TITLES = {"bill_of_sale": "Bill of sale", "receipt": "Receipt"}
CODES = {"bill_of_sale": "BOS", "receipt": "RCT"}
FILE_NAMES = {"bill_of_sale": "bill-of-sale", "receipt": "receipt"}
# The latest event that changed what the documents say: a new fact on the record or the payment.
LAST_CHANGE = (
    "(SELECT max(change.id) FROM lead_events AS change WHERE change.lead_id = leads.id AND "
    "(change.kind IN ('authentication_recorded', 'paperwork_signed') OR "
    f"(change.kind = 'state_changed' AND json_extract(change.data, '$.to') = '{State.BOUGHT}')))"
)
# A bought lead whose record is still kept: the only kind that has documents made.
KEPT_PURCHASE = (
    f"leads.state = '{State.BOUGHT}' AND leads.erased_at IS NULL AND EXISTS (SELECT 1 "
    "FROM purchases WHERE purchases.lead_id = leads.id AND purchases.record_erased_at IS NULL)"
)
# The kinds of document made since then, gathered by `{}` (a lead's row in scope as `leads`).
MADE_SINCE_CHANGE = (
    "(SELECT {} FROM lead_events AS made WHERE made.lead_id = leads.id "
    f"AND made.kind = 'document_made' AND made.id > {LAST_CHANGE})"
)


class RecordMismatch(RuntimeError):
    """The declaration's text no longer hashes to what the seller signed: no document is made
    from it (the job fails loudly, to be looked at)."""


def document_state(lead_id: int) -> tuple[int | None, list[str]]:
    """The id of the lead's last event that changed what its documents say, and the documents
    it is owed (none unless it is bought and its record is kept)."""
    made = MADE_SINCE_CHANGE.format("json_group_array(json_extract(made.data, '$.kind'))")
    row = (
        get_db()
        .execute(
            f"SELECT {LAST_CHANGE}, {made} FROM leads WHERE leads.id = ? AND {KEPT_PURCHASE}",
            (lead_id,),
        )
        .fetchone()
    )
    if row is None:
        return None, []
    return row[0], [kind for kind in files.DOCUMENTS if kind not in json.loads(row[1])]


def leads_owed_documents(changed_before: str = "9999") -> list[int]:
    """Bought leads, not erased, without both documents made since their record last changed
    (before `changed_before`, a stored time: the sweep leaves a live process's work alone):
    what `flask leads requeue` and the sweep queue."""
    made = MADE_SINCE_CHANGE.format("count(DISTINCT json_extract(made.data, '$.kind'))")
    rows = get_db().execute(
        f"SELECT leads.id FROM leads WHERE {KEPT_PURCHASE} AND {made} < ? "
        f"AND (SELECT at FROM lead_events WHERE id = {LAST_CHANGE}) < ? ORDER BY leads.id",
        (len(files.DOCUMENTS), changed_before),
    )
    return [row[0] for row in rows]


def make_documents(lead_id: int) -> list[dict]:
    """Make the documents the lead is owed; the rows made (none when both are current).
    Rendered outside the write lock, then stored under it only if still owed and nothing
    changed meanwhile (else rendered again), so two workers at once make each version once."""
    change, kinds = document_state(lead_id)
    if not kinds:
        return []
    context = document_context(lead_id)
    rendered = {kind: render(kind, context, next_version(lead_id, kind)) for kind in kinds}
    made = store_documents(lead_id, change, rendered)
    return make_documents(lead_id) if made is None else made


def store_documents(lead_id: int, change: int, rendered: dict) -> list[dict] | None:
    """Store each rendered document still owed, with its `document_made` event, in one
    transaction; None if the record changed since `change` (what was rendered is stale)."""
    made: list[dict] = []
    try:
        with immediate_transaction() as db:
            now_change, kinds = document_state(lead_id)
            if now_change != change:
                return None
            for kind in kinds:
                made.append(files.add_file(db, lead_id, kind, rendered[kind], PDF))
                event = {key: made[-1][key] for key in ("kind", "version", "sha256")}
                append_event(db, lead_id, "system", "document_made", event)
    except BaseException:
        files.remove_files([row["file_name"] for row in made])
        raise
    return made


def next_version(lead_id: int, kind: str) -> int:
    """The version a document of this kind made now will be (files.add_file numbers it)."""
    latest = files.latest(lead_id, kind)
    return latest["version"] + 1 if latest else 1


def render(kind: str, context: dict, version: int) -> bytes:
    """One document as PDF: its template to HTML, then WeasyPrint, which may fetch nothing."""
    from weasyprint import HTML  # only the worker renders: web processes need not load it

    # WeasyPrint's import tells Pillow to accept truncated images, for the whole process: the
    # worker's photo checks (and the ID photos') must go on refusing them.
    ImageFile.LOAD_TRUNCATED_IMAGES = False

    number = f"{context['reference']}-{CODES[kind]}-{version}"
    template = current_app.jinja_env.get_template(f"documents/{kind}.html")
    html = template.render(context | {"title": TITLES[kind], "number": number, "version": version})
    return HTML(string=html, url_fetcher=refuse_to_fetch).write_pdf()


def refuse_to_fetch(url: str) -> dict:
    """WeasyPrint's fetcher for documents: everything they show is in their HTML, so a URL in
    one (a seller's words are escaped, but still) is refused rather than fetched."""
    raise ValueError(f"Documents fetch nothing ({url[:40]}).")


def buyer() -> dict:
    """The buyer as the bill of sale names it: the business's legal name and postal address
    (BUSINESS_LEGAL_NAME, BUSINESS_ADDRESS), the site's name alone where they are not set
    (outside production, which requires them)."""
    config = current_app.config
    address = [line.strip() for line in config["BUSINESS_ADDRESS"].split(";") if line.strip()]
    return {"name": config["BUSINESS_LEGAL_NAME"] or config["SITE_NAME"], "address": address}


def document_context(lead_id: int) -> dict:
    """What both documents say, read from the lead and its purchase record."""
    lead, purchase = store.get_lead(lead_id), record.get(lead_id)
    return {
        "site": site_info(),
        "buyer": buyer(),
        "reference": lead["reference"],
        "issued_on": display_date(business_today().isoformat()),
        "seller_name": purchase["legal_name"],
        "seller_address": address_lines(purchase),
        "watch_name": watch_name(lead | {"watch_brand": authenticated_brand(lead, purchase)}),
        "serial_number": purchase["serial_number"],
        "watch": watch_facts(lead, purchase),
        "price": usd(purchase["paid_amount"]),
        "paid_on": display_date(purchase["paid_on"]),
        "payment": payment_facts(purchase),
        "identity": identity_facts(purchase),
        "declaration": signed_declaration(lead, purchase),
        "signature": signature_facts(purchase),
        "signed_name": recorded(purchase["signed_name"]),
        "signed_on": local_day(purchase["signed_at"]),
    }


def address_lines(purchase: dict) -> list[str]:
    """The seller's residential address as it is written on an envelope."""
    town = " ".join(filter(None, (f"{purchase['city']}," if purchase["city"] else "",
                                  purchase["region"], purchase["postal_code"])))  # fmt: skip
    return [line for line in (purchase["street_address"], town) if line]


def authenticated_brand(lead: dict, purchase: dict) -> str:
    """The brand staff read on the watch, which the documents name; the seller's choice on
    /sell only for a record older than that finding."""
    return purchase.get("brand") or lead["watch_brand"]


def watch_facts(lead: dict, purchase: dict) -> list[tuple[str, str]]:
    """The watch's identity as authenticated: its brand, the serial in full (it names the
    watch, not a person), with what came with it."""
    return [
        ("Brand", authenticated_brand(lead, purchase)),
        ("Model", recorded(lead["watch_model"])),
        ("Model reference", recorded(purchase["model_reference"])),
        ("Serial number", recorded(purchase["serial_number"])),
        ("Case marks", recorded(purchase["case_marks"])),
        ("Movement marks", recorded(purchase["movement_marks"])),
        ("Condition", recorded(purchase["condition_findings"])),
        ("Box", "Included" if lead["has_box"] else "Not included"),
        ("Papers", "Included" if lead["has_papers"] else "Not included"),
    ]


def payment_facts(purchase: dict) -> list[tuple[str, str]]:
    """How the price was paid; the account only by its last 4 digits (once the bank details
    are erased, not at all)."""
    facts = [
        ("Payment method", record.PAYMENT_METHODS[purchase["payment_method"]]),
        ("Payment date", display_date(purchase["paid_on"])),
        ("Bank confirmation", purchase["bank_confirmation"]),
    ]
    if purchase["account_number_last4"]:
        facts.append(("Paid to account", ending(purchase["account_number_last4"])))
    return facts


def identity_facts(purchase: dict) -> list[tuple[str, str]]:
    """The seller's photo ID as checked: type, issuer and the number's last 4 only."""
    return [
        ("ID type", recorded(paperwork.ID_TYPES.get(purchase["id_type"]))),
        ("Issued by", recorded(purchase["id_issuer"])),
        ("ID number", ending(purchase["id_number_last4"])),
    ]


def signature_facts(purchase: dict) -> list[tuple[str, str]]:
    """The record of the seller's electronic signature of the declaration."""
    return [
        ("Signed by (typed name)", recorded(purchase["signed_name"])),
        ("Signed at", local_time(purchase["signed_at"])),
        ("IP address", recorded(purchase["signed_ip"])),
        ("SHA-256 of the declaration", recorded(purchase["declaration_sha256"])),
    ]


def signed_declaration(lead: dict, purchase: dict) -> str:
    """The declaration's exact text as the seller signed it, re-made from the same record;
    RecordMismatch if it no longer hashes to the SHA-256 recorded when it was signed."""
    text = paperwork.declaration_text(lead, purchase)
    signed = purchase["declaration_sha256"]
    if signed and paperwork.digest(text) != signed:
        raise RecordMismatch(f"Lead {lead['id']}: the declaration differs from what was signed.")
    return text


def recorded(value) -> str:
    """A fact as the documents print it, saying so when the record lacks it."""
    return str(value) if value else "Not recorded"


def ending(last4: str | None) -> str:
    """A number shown only by its last 4 characters."""
    return f"ending {last4}" if last4 else "Not recorded"


class DocumentsNotReady(LookupError):
    """The documents job has not made the current bill of sale and receipt yet."""


def attachments(lead: dict) -> list[tuple[str, bytes]]:
    """The stored bill of sale and receipt as (file name, PDF) for the "paid" e-mail, as the
    documents job made them (never rendered again here); DocumentsNotReady while either is
    missing or owed a new version, so that e-mail never goes without them, nor with old ones."""
    _, owed = document_state(lead["id"])
    if owed:
        raise DocumentsNotReady(f"Lead {lead['id']} is owed its {' and '.join(owed)}.")
    found = []
    for kind in files.DOCUMENTS:
        row = files.latest(lead["id"], kind)
        if row is None:
            raise DocumentsNotReady(f"Lead {lead['id']} has no {kind} yet.")
        found.append((file_name(kind, lead["reference"]), files.read(row)))
    return found


def file_name(kind: str, reference: str) -> str:
    """A document's name wherever the seller saves it: 'bill-of-sale-USWB-7K3F9Q.pdf'."""
    return f"{FILE_NAMES[kind]}-{reference}.pdf"
