"""The payment's deadline (docs/sale.md, "Payment due, and on time"). The site promises payment
by bank transfer the same day the seller accepts the final offer; we can pay only once they have
signed the paperwork and every item of checklist.BEFORE_PURCHASE holds.

So a lead of `agreed` whose record lacks nothing but the payment is *payment due* (the inbox
flags it).
"""

from __future__ import annotations

from app.leads.db import get_db
from app.leads.state import State
from app.sale.purchase import checklist


def payment_due(leads: list[dict]) -> set[int]:
    """The ids of those of `leads` (inbox rows) in `agreed` whose purchase record lacks nothing
    but the payment: signed, the payout account confirmed, the ID checked, the register clear."""
    agreed = [lead["id"] for lead in leads if lead["state"] == State.AGREED]
    if not agreed:
        return set()
    marks = ", ".join("?" for _ in agreed)
    rows = get_db().execute(f"SELECT * FROM purchases WHERE lead_id IN ({marks})", agreed)
    return {row["lead_id"] for row in rows if checklist.complete(dict(row))}
