"""The e-mails promised once, by kind: how each one's claim is named (app/leads/email_claims.py
takes the claims), what staff read it as, and the SQL with which a finder of owed work passes
over the e-mails already claimed."""

from __future__ import annotations

from dataclasses import dataclass

SELLER, STAFF = "the seller", "staff"  # whom an e-mail of a kind goes to
KINDS: dict[str, Kind] = {}  # every kind by its name, as each is made


@dataclass(frozen=True)
class Kind:
    """One kind of e-mail promised once: how its claims are named (`name:about`, the ids filled
    into `about`), what staff read it as, and whom it goes to."""

    name: str
    about: str
    words: str
    to: str = SELLER

    def __post_init__(self) -> None:
        KINDS[self.name] = self  # so a claim's name finds its kind (kind_of)

    def key(self, *ids: object) -> str:
        """The claim's name for the e-mail about these ids, e.g. 'confirmation:lead 12'."""
        return f"{self.name}:{self.about.format(*ids)}"


NEW_LEAD = Kind("new lead", "lead {}", "staff's e-mail with the new lead", STAFF)
CONFIRMATION = Kind("confirmation", "lead {}", "the seller's confirmation, with their status link")
SELLER_EMAIL = Kind("seller e-mail", "event {}", "the seller's e-mail about a step of their sale")
STAFF_ALERT = Kind("staff alert", "event {}", "staff's alert about the lead", STAFF)
STATUS_LINK = Kind("status link", "request {} lead {}", "a new status link the seller asked for")
ERASURE_LINK = Kind("erasure link", "lead {} request {}", "the link that confirms an erasure")
ERASED = Kind("erased", "lead {}", "the seller's last e-mail, sent before the erasure")
PAYOUT_CHECK = Kind("payout check", "check {}", "the link that confirms the payout account")
ADDRESS_CHECK = Kind("address check", "lead {} change {}", "the link that confirms a new address")
LABEL_READY = Kind("label ready", "shipment {}", "the seller's e-mail that their label is ready")
PARCEL = Kind("parcel", "shipment {} {}", "the seller's e-mail about their parcel's progress")
SIGN_IN_CEILING = Kind("sign-in ceiling", "audit {}", "staff's alert of a stopped sign-in", STAFF)
LATE_PAYMENT = Kind("late payment", "lead {} day {}", "staff's alert of a sale unpaid", STAFF)
UNREADABLE = Kind("unreadable", "lead {} day {}", "staff's alert: a record no key opens", STAFF)
RANGE_VOLUME = Kind("range volume", "day {}", "staff's alert about the instant range", STAFF)
REPLICA = Kind("replica alert", "hour {}", "staff's alert about the off-site replica", STAFF)
PAYOUT_ALERT = Kind("payout alert", "event {}", "staff's alert about a payout", STAFF)
UNSURE = Kind("unsure e-mail", "claim {}", "staff's e-mail about an unsure one", STAFF)
HEALTH = Kind("health alert", "faults {}", "staff's alert of the site's faults", STAFF)


def kind_of(about: str) -> Kind:
    """The kind of e-mail a claim's name is about; a name no kind here has (one a later release
    wrote, say) is its own words."""
    name = about.partition(":")[0]
    return KINDS.get(name) or Kind(name, "", name, STAFF)


def unclaimed(kind: Kind, *columns: str) -> str:
    """SQL that holds while no claim names the e-mail of `kind` about the ids in `columns`
    (SQL expressions, in the order of `kind.about`'s), for a finder of owed work."""
    texts = [f"'{text}'" for text in f"{kind.name}:{kind.about}".split("{}")]
    name = texts[0]
    for column, text in zip(columns, texts[1:], strict=True):
        name += f" || {column}" + (f" || {text}" if text != "''" else "")
    return f"NOT EXISTS (SELECT 1 FROM email_claims WHERE about = {name})"
