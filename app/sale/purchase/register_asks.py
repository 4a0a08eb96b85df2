"""The stolen-watch register asked by a job, not by someone remembering to (docs/sale.md, "The
register asked by API"): as soon as the findings put a serial number on record, and again before
the watch is bought when the latest clear check is older than REGISTER_CHECK_MAX_AGE_DAYS.

Each question is a row of `register_asks` first, then a job by its id (queue.ASK_REGISTER), so
an outage only delays it. A clear or flagged answer becomes a register check exactly like one
staff record by hand (stolen_register.record_check, by "register_api"), with the certificate
stored privately; a flagged one therefore holds the sale under the same rules (a second staff
member must approve clearing it). Whatever goes wrong in a try (an error, a time-out, an answer
no parser takes) is retried on JOB_RETRY_INTERVALS and never recorded as clear; after the last
try the question is `failed`, and staff check by hand.

A question never stays open for ever: each try is claimed on its row first (`asking_since`, and
counted), so two runners never ask at once, and a try lost with its process (a crash, a
restart) is claimed again once its lease has run out. `flask leads requeue` and the start-up
sweep queue every open question that no live try holds (app/sale/pending.py).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from flask import current_app

from app import queue
from app.leads.db import get_db, immediate_transaction, now, transaction
from app.leads.display import business_today
from app.leads.history import append_event
from app.leads.state import State
from app.sale.purchase import (
    authentication,
    checklist,
    register_api,
    serials,
    stolen_register,
)
from app.sale.purchase.authentication import Refused
from app.sale.purchase.register_api import Answer, RegisterError

ACTOR = "register_api"
REASONS = {
    "sellers_serial": "the seller gave the serial number",
    "serial_on_record": "the serial number is on record",
    "before_payment": "the latest clear check is too old to pay on",
}


def open_ask(db: sqlite3.Connection, lead_id: int, serial: str, reason: str,
             brand: str | None = None) -> int | None:  # fmt: skip
    """Inside the caller's transaction: a new question of `serial` (normalised) and `brand`
    (None: nobody has authenticated one), with its event; None when it needs none: one is open
    already, or (for a serial given or newly on record) the register has answered this very
    serial and brand, for the same reason, before."""
    asked = db.execute(
        "SELECT outcome FROM register_asks WHERE lead_id = :lead AND serial_number = :serial "
        "AND brand IS :brand AND (outcome IS NULL OR (reason = :reason "
        "AND :reason != 'before_payment' AND outcome != 'failed'))",
        {"lead": lead_id, "serial": serial, "brand": brand, "reason": reason},
    ).fetchone()
    if asked is not None:
        return None
    ask_id = db.execute(
        "INSERT INTO register_asks (lead_id, serial_number, brand, reason, asked_at) "
        "VALUES (?, ?, ?, ?, ?)",
        (lead_id, serial, brand, reason, now()),
    ).lastrowid
    append_event(db, lead_id, ACTOR, "register_asked", {"ask": ask_id, "reason": reason})
    return ask_id


def authenticated_brand(db: sqlite3.Connection, lead_id: int) -> str | None:
    """The brand the findings read on the watch (None before the findings): the one the
    register is asked with, never the brand the seller chose on /sell."""
    row = db.execute("SELECT brand FROM purchases WHERE lead_id = ?", (lead_id,)).fetchone()
    return row[0] if row else None


def ask_about(lead_id: int, serial: str, reason: str) -> int | None:
    """Ask the register about the lead's watch, by a job after this returns, with the brand
    staff authenticated (none for the serial the seller gave: nobody has seen the watch); the
    question's id, or None when the register is not asked by API or needs no new question."""
    serial = serials.normal(serial)
    if not register_api.configured() or not serial:
        return None
    with immediate_transaction() as db:
        brand = None if reason == "sellers_serial" else authenticated_brand(db, lead_id)
        ask_id = open_ask(db, lead_id, serial, reason, brand)
    if ask_id is not None:
        queue.enqueue(queue.ASK_REGISTER, ask_id)
    return ask_id


def record_findings_and_ask(lead_id: int, actor: str, findings: dict) -> int:
    """Put the authentication's findings on the record, then ask the register about the serial
    number they give (when it is asked by API); the findings' event's id."""
    event_id = authentication.record_findings(lead_id, actor, findings)
    ask_about(lead_id, findings["serial_number"], "serial_on_record")
    return event_id


def refresh_before_payment(lead_id: int) -> int | None:
    """Before `bought`: ask again when the clear check that counts is too old to pay on (the
    move is then refused until the answer is in: checklist's `register_recent`)."""
    purchase = (
        get_db()
        .execute(
            "SELECT serial_number, register_result, register_checked_on FROM purchases "
            "WHERE lead_id = ?",
            (lead_id,),
        )
        .fetchone()
    )
    if purchase is None or purchase["register_result"] != "clear" or not purchase["serial_number"]:
        return None
    if checklist.register_recent(dict(purchase)):
        return None
    return ask_about(lead_id, purchase["serial_number"], "before_payment")


def refresh_on_view(lead: dict) -> int | None:
    """The lead's page opened while its deal waits for the payment: ask again when the clear
    check is too old to pay on (once per question), so the checklist's "asked again" is true
    and the payout panel, which offers no button until the answer is in, waits for no press."""
    if lead["state"] != State.AGREED or lead["erased_at"]:
        return None
    return refresh_before_payment(lead["id"])


def get(ask_id: int) -> dict:
    """One question's row with its lead's erasure; LookupError if there is none."""
    row = (
        get_db()
        .execute(
            "SELECT register_asks.*, leads.erased_at FROM register_asks "
            "JOIN leads ON leads.id = register_asks.lead_id WHERE register_asks.id = ?",
            (ask_id,),
        )
        .fetchone()
    )
    if row is None:
        raise LookupError(f"Register question {ask_id} does not exist.")
    return dict(row)


def try_lease() -> timedelta:
    """How long a try may hold its question: its two requests (the search, the certificate),
    each up to REGISTER_API_TIMEOUT, three times over. A claim older than this was lost with its
    process."""
    return timedelta(seconds=6 * current_app.config["REGISTER_API_TIMEOUT"])


def lease_ended() -> str:
    """The moment before which a claim on a question has run out, as stored."""
    return (datetime.now(UTC) - try_lease()).isoformat(timespec="seconds")


def claim(ask_id: int) -> int | None:
    """Take the question for one try, and count it (a try lost with its process counts too):
    how many tries so far, or None when it is answered or another runner's try holds it."""
    with transaction() as db:
        rows = db.execute(
            "UPDATE register_asks SET attempts = attempts + 1, asking_since = :now "
            "WHERE id = :id AND outcome IS NULL "
            "AND (asking_since IS NULL OR asking_since < :ended) RETURNING attempts",
            {"id": ask_id, "now": now(), "ended": lease_ended()},
        ).fetchall()  # all of it, so the UPDATE is finished before the commit
    return rows[0][0] if rows else None


def release(ask_id: int, error: str) -> None:
    """Let go of a failed try's claim, with why it failed, for the next try."""
    with transaction() as db:
        db.execute(
            "UPDATE register_asks SET asking_since = NULL, last_error = ? WHERE id = ?",
            (error, ask_id),
        )


def last_try(attempts: int) -> bool:
    """Whether no retry follows this many tries (one first try, one per retry interval)."""
    return attempts > len(current_app.config["JOB_RETRY_INTERVALS"])


def end(ask_id: int, outcome: str, answer: Answer | None = None, check_id: int | None = None):
    """Close the question with its outcome, once (a repeated job finds it closed), and put it
    on the lead's timeline; False if it was closed already."""
    with transaction() as db:
        closed = db.execute(
            "UPDATE register_asks SET outcome = ?, answered_at = ?, provider_reference = ?, "
            "check_id = ?, asking_since = NULL WHERE id = ? AND outcome IS NULL",
            (outcome, now(), answer.reference if answer else None, check_id, ask_id),
        ).rowcount
        if closed:
            lead_id = db.execute(
                "SELECT lead_id FROM register_asks WHERE id = ?", (ask_id,)
            ).fetchone()[0]
            data = {"ask": ask_id, "outcome": outcome}
            append_event(db, lead_id, ACTOR, "register_answered", data)
    return bool(closed)


def why_it_failed(error: Exception) -> str:
    """A failed try's reason, in staff's words: the register's, or the kind of error."""
    if isinstance(error, RegisterError):
        return str(error)
    return f"an unexpected error ({type(error).__name__})"


def put_to_register(ask_id: int) -> str:
    """The job's work: claim a try, ask, and record what the register said. Returns the
    outcome; any exception on a try that is not the last is raised again, for the job to
    retry."""
    ask = get(ask_id)
    if ask["outcome"]:
        return f"answered already: {ask['outcome']}"
    if ask["erased_at"]:
        end(ask_id, "not_recorded")
        return "not_recorded"
    attempts = claim(ask_id)
    if attempts is None:
        return "being asked by another try"
    try:
        answer = register_api.ask(ask["serial_number"], ask["brand"])
        certificate = register_api.certificate(answer) if answer.result != "unknown" else None
        return record_answer(ask, answer, certificate)
    except Exception as error:
        release(ask_id, why_it_failed(error))
        current_app.logger.warning("Register question %s: try %s failed.", ask_id, attempts)
        if last_try(attempts):
            end(ask_id, "failed")
            return "failed"
        raise


def open_questions(asked_before: str | None = None) -> list[int]:
    """Questions not answered that no live try holds (their job never ran, Redis refused it,
    or its process died mid-try), oldest first; only those asked before `asked_before` if
    given: what `flask leads requeue` and the sweep queue again."""
    rows = get_db().execute(
        "SELECT id FROM register_asks WHERE outcome IS NULL "
        "AND (asking_since IS NULL OR asking_since < ?) AND asked_at < ? ORDER BY id",
        (lease_ended(), asked_before or "9999"),
    )
    return [row[0] for row in rows]


def record_answer(ask: dict, answer: Answer, certificate: tuple[bytes, str] | None) -> str:
    """A flagged answer as a register check of the serial asked about, whatever happened since
    (a flag always holds: a serial corrected meanwhile, the lead closed); a clear one as a
    check of the serial on record (the findings', or before them the arrival's) while it is
    still the one asked about, or, for the serial the
    seller gave, as the question's outcome only (it is not yet the serial the watch is seen to
    bear: the findings ask again); an unknown one as the question's outcome only. The
    outcome."""
    if answer.result == "unknown":
        end(ask["id"], "unknown", answer)
        return "unknown"
    if answer.result == "flagged":
        return record_as_check(ask, answer, certificate, of_serial=ask["serial_number"])
    if ask["reason"] == "sellers_serial":
        end(ask["id"], "clear", answer)
        return "clear"
    on_record, _ = stolen_register.serial_seen(get_db(), ask["lead_id"])
    if not serials.same(on_record, ask["serial_number"]):
        end(ask["id"], "not_recorded", answer)
        return "not_recorded"
    return record_as_check(ask, answer, certificate)


def record_as_check(ask: dict, answer: Answer, certificate: tuple[bytes, str],
                    of_serial: str | None = None) -> str:  # fmt: skip
    """The answer as a register check by the API (of the serial seen on the watch, or
    `of_serial`), and the question closed with it; the outcome, `not_recorded` when the lead
    no longer takes it (stolen_register.refuse_unless_checkable: a flag, only once erased)."""
    check = {
        "provider": register_api.provider_name(),
        "checked_on": business_today().isoformat(),
        "result": answer.result,
        "provider_reference": answer.reference,
    }
    try:
        event_id = stolen_register.record_check(
            ask["lead_id"], ACTOR, check, *certificate, of_serial=of_serial
        )
    except Refused:
        end(ask["id"], "not_recorded", answer)
        return "not_recorded"
    end(ask["id"], answer.result, answer, check_of_event(event_id))
    return answer.result


def check_of_event(event_id: int) -> int | None:
    """The register check a `register_checked` event recorded."""
    row = (
        get_db()
        .execute("SELECT json_extract(data, '$.check') FROM lead_events WHERE id = ?", (event_id,))
        .fetchone()
    )
    return row[0] if row else None
