"""How a seller hands the watch over, in the words the seller and staff read: the two choices
/sell offers while the sale by mail is on (stored as `leads.handover`; NULL is in person, as
every lead was before), and the one sentence that tells a seller who chose the mail what
happens next. One place, so the form, the thank-you page, the e-mail and the inbox agree."""

from __future__ import annotations

IN_PERSON = "in_person"
MAIL = "mail"

CHOICES = {
    IN_PERSON: {
        "label": "In person",
        "hint": "At an appointment within 50 miles of one of the cities we cover.",
    },
    MAIL: {
        "label": "By insured mail",
        "hint": "From anywhere in the 50 states and DC, with a prepaid label we send you.",
    },
}

MAIL_CHOSEN = (
    "You chose to sell by insured mail: nothing is shipped until you have accepted our quote "
    "and we have checked your ID, and then your prepaid, insured label appears on your status "
    "page."
)


def by_mail(lead: dict) -> bool:
    """Whether the seller chose the insured mail (a lead from before the choice is in person)."""
    return lead.get("handover") == MAIL


def seller_words(lead: dict) -> list[str]:
    """The sentence for a seller who chose the mail, none otherwise: an in-person sale reads as
    it always has."""
    return [MAIL_CHOSEN] if by_mail(lead) else []


def described(lead: dict) -> str:
    """The handover as staff read it in the inbox ('By insured mail · ZIP 83702'); "" for a
    lead from before the choice, or from while the mail was not offered."""
    chosen = CHOICES.get(lead.get("handover") or "")
    if chosen is None:
        return ""
    zip_code = lead.get("postal_code")
    return f"{chosen['label']} · ZIP {zip_code}" if zip_code else chosen["label"]
