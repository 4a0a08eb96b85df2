"""The daily retention run (worker.jobs.apply_retention; app/sale/purchase/retention.py holds the
rules, their SQL, and when and why the run happens). Each lead is done on its own, in its own
transaction, and recorded in the audit log (no staff account: the system acts) as well as on
its timeline. A lead that fails is logged and the others go on; the run then raises, so RQ
retries it, and what was done is no longer due. Log lines name leads by id only.
"""

from __future__ import annotations

from flask import current_app

from app.leads import audit
from app.leads.db import immediate_transaction, truncate_wal
from app.sale import erasure, lifecycle
from app.sale.purchase import retention


class RetentionIncomplete(RuntimeError):
    """Some leads' retention failed (each is logged); raised so the run is retried."""


def erase_payout_details(due: dict) -> bool:
    """One purchase's bank details, PAYOUT_DETAILS_DAYS after its payment: erased and audited
    in one transaction."""
    with immediate_transaction() as db:
        if not retention.erase_payout_details(db, due["lead_id"], "system"):
            return False
        days = current_app.config["PAYOUT_DETAILS_DAYS"]
        data = {"paid_on": due["paid_on"], "after_days": days}
        audit.record("payout_details_erased", None, due["lead_id"], data=data)
    return True


def erase_inactive_lead(due: dict) -> bool:
    """A lead that never became a purchase, LEAD_RETENTION_MONTHS without activity: closed if
    open, then erased; left alone if someone acted on it meanwhile."""
    try:
        photos = erasure.erase_inactive(due["lead_id"], due["state"])
    except lifecycle.TransitionError:
        return False
    data = {
        "photos": photos,
        "inactive_since": due["last_activity_at"][:10],
        "after_months": current_app.config["LEAD_RETENTION_MONTHS"],
    }
    audit.record("lead_erased", None, due["lead_id"], data=data)
    return True


def erase_purchase_record(due: dict) -> bool:
    """A purchase record past its retain_until: blanked with its files, and its lead erased too
    unless its seller already had that done."""
    if due["lead_erased"]:
        if not retention.erase_kept_record(due["lead_id"]):
            return False
    else:
        try:
            erasure.erase_sale(due["lead_id"], "system", whole_record=True)
        except lifecycle.TransitionError:  # erased at its seller's request meanwhile: next run
            return False
    data = {"retain_until": due["retain_until"]}
    audit.record("purchase_record_erased", None, due["lead_id"], data=data)
    return True


# Each rule: what the summary calls what it erased, what is due, and how one of them is done.
RULES = (
    ("bank details", retention.payouts_due, erase_payout_details),
    ("leads", retention.inactive_leads, erase_inactive_lead),
    ("purchase records", retention.records_due, erase_purchase_record),
)


def apply_rules() -> str:
    """Apply every rule to whatever is due, then empty the WAL (its frames still hold what was
    blanked); a summary of what was erased."""
    erased: dict[str, int] = {}
    failed: list[int] = []
    for name, find_due, erase in RULES:
        erased[name] = 0
        for due in find_due():
            try:
                erased[name] += erase(due)
            except Exception:
                failed.append(due["lead_id"])
                current_app.logger.exception("Lead %s: retention (%s) failed.", failed[-1], name)
    truncate_wal()
    summary = "erased: " + ", ".join(f"{name} {count}" for name, count in erased.items())
    current_app.logger.info("Retention %s.", summary)
    if failed:
        raise RetentionIncomplete(f"Retention {summary}; failed for leads {failed}.")
    return summary
