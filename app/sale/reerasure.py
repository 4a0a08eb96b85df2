"""Erasures applied again after a restore: a backup, or the replica at an earlier moment, holds
the leads erased since it was taken with their names, e-mails, phones, photos and live status
links. `flask leads restore` reads the record of erasures wherever it is kept (beside leads.db,
in the backups, in the bucket: app/replica/erasure_log.py) before anything is restored, then,
before anything else touches the restored database, erases each lead again with the same
functions (actor `restore`), closing it first with its recorded reason where the copy holds it
at an earlier state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.leads import store
from app.leads.state import State
from app.sale import erasure
from app.sale.lifecycle import TransitionError
from app.sale.purchase import record

# The closing reason of a sale's erasure whose sale the restored copy does not hold: the seller
# asked to be erased, which is what withdrawing is.
SALE_NOT_RESTORED_REASON = "withdrawn"


@dataclass
class Reapplied:
    """The erasures applied again (their entries' lead ids) and those that failed, with why."""

    erased: list[int] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)


def reapply_all(entries: list[dict]) -> Reapplied:
    """Apply again, in the order given (oldest first), every recorded erasure of `entries` the
    restored database does not show."""
    done = Reapplied()
    for entry in entries:
        try:
            if reapply(entry):
                done.erased.append(entry["lead_id"])
        except TransitionError as error:
            done.failed[entry["lead_id"]] = str(error)
    return done


def reapply(entry: dict) -> bool:
    """Erase the entry's lead again if the restored database holds it unerased; whether it did.
    A lead that is not there, or is another lead under the same id (its reference differs: one
    made after an earlier restore), is left alone."""
    lead = store.get_lead(entry["lead_id"])
    if lead is None or lead["reference"] != entry["reference"]:
        return False
    if lead["state"] == State.BOUGHT:
        return reapply_to_sale(lead, entry)
    if lead["erased_at"]:
        return False
    reason = entry["reason"] or SALE_NOT_RESTORED_REASON
    erasure.close_and_erase(lead["id"], lead["state"], reason, erasure.RESTORE)
    return True


def reapply_to_sale(lead: dict, entry: dict) -> bool:
    """A bought lead: its personal data erased keeping the purchase record, or with the record
    too if the entry says the record went (past its retain_until)."""
    whole = entry["erased"] == erasure.WHOLE_RECORD
    if not lead["erased_at"]:
        erasure.erase_sale(lead["id"], erasure.RESTORE, whole_record=whole)
        return True
    return whole and record.erase_kept_record(lead["id"])
