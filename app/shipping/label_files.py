"""A bought label as the seller downloads it from the status page: the provider converts it to
PDF (4 x 6 inches, as a label printer takes it), fetched from the provider's file at each
download and never stored here; for letter paper the same page is placed at the top of a letter
sheet, to cut out. Nothing else on the site or in an e-mail carries a label."""

from __future__ import annotations

import io

import requests
from flask import current_app
from pypdf import PdfReader, PdfWriter, Transformation
from pypdf.errors import PdfReadError

from app.shipping import easypost_api
from app.shipping.easypost_api import ProviderError

LETTER = (612, 792)  # points
MARGIN = 36  # half an inch from the sheet's top and left edges
SIZES = ("4x6", "letter")


def provider_pdf(provider_shipment_id: str) -> bytes:
    """The label as the provider's PDF (converted on its side); ProviderError if it fails."""
    shipment = easypost_api.call(
        "convert the label",
        easypost_api.client().shipment.label,
        provider_shipment_id,
        file_format="PDF",
    )
    url = (shipment.get("postage_label") or {}).get("label_pdf_url")
    if not url:
        raise ProviderError("the provider gave no PDF of the label")
    try:
        answer = requests.get(url, timeout=current_app.config["EASYPOST_TIMEOUT"])
    except requests.RequestException as error:
        raise ProviderError(f"could not fetch the label's PDF: {type(error).__name__}") from error
    if answer.status_code != 200 or not answer.content.startswith(b"%PDF"):
        raise ProviderError(f"the label's PDF was not served ({answer.status_code})")
    return answer.content


def on_letter(label: bytes) -> bytes:
    """The label's first page at the top left of a letter sheet, at its own size."""
    try:
        page = PdfReader(io.BytesIO(label)).pages[0]
    except (PdfReadError, IndexError, ValueError) as error:
        raise ProviderError("the label's PDF does not open") from error
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    writer = PdfWriter()
    sheet = writer.add_blank_page(*LETTER)
    sheet.merge_transformed_page(
        page, Transformation().translate(MARGIN, LETTER[1] - MARGIN - height)
    )
    if width > LETTER[0] or height > LETTER[1]:
        raise ProviderError("the label is larger than a letter sheet")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def label_pdf(provider_shipment_id: str, size: str) -> bytes:
    """The label to print, as a PDF of `size` (4x6 or letter); ProviderError if the provider
    cannot give it now."""
    label = provider_pdf(provider_shipment_id)
    return label if size == "4x6" else on_letter(label)
