"""The migration steps of the money's second pair of eyes (docs/sale.md, "Exceptions need a
second person"): the `approvals` every exception to a purchase's rules needs, the stolen-watch
register checks kept as an append-only history, the payout account's confirmation, and each of
them bound to the one deal, signing or serial number it was given for (app/leads/schema/ runs
them)."""

from __future__ import annotations

MONEY_CHECKS = (
    # One row per exception asked for: a payment other than the accepted offer, a payout account
    # whose holder is not the seller's legal name, or a flagged register check to be cleared.
    # `subject` is exactly what is approved (the amount in dollars, a digest of the two names,
    # the register check's id), so an approval covers that and nothing else. Whoever asks never
    # approves (the CHECK holds even against a bug); an approval is given once and never taken
    # back or edited, and nothing is deleted but with a closed lead's erasure.
    """CREATE TABLE approvals (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        kind TEXT NOT NULL CHECK (kind IN ('payment_amount', 'holder_name', 'register_flag')),
        subject TEXT NOT NULL,
        reason TEXT NOT NULL,
        requested_by TEXT NOT NULL,
        requested_at TEXT NOT NULL,
        approved_by TEXT,
        approved_at TEXT,
        CHECK (approved_by IS NULL OR approved_by <> requested_by),
        CHECK ((approved_by IS NULL) = (approved_at IS NULL))
    )""",
    "CREATE INDEX approvals_lead ON approvals(lead_id, kind, subject)",
    """CREATE TRIGGER approvals_kept BEFORE UPDATE ON approvals
        WHEN NEW.id IS NOT OLD.id OR NEW.lead_id IS NOT OLD.lead_id OR NEW.kind IS NOT OLD.kind
          OR NEW.subject IS NOT OLD.subject OR NEW.reason IS NOT OLD.reason
          OR NEW.requested_by IS NOT OLD.requested_by OR NEW.requested_at IS NOT OLD.requested_at
          OR OLD.approved_by IS NOT NULL
        BEGIN SELECT RAISE(ABORT, 'an approval is given once and never changed'); END""",
    """CREATE TRIGGER approvals_not_deleted BEFORE DELETE ON approvals
        WHEN (SELECT erased_at FROM leads WHERE id = OLD.lead_id) IS NULL
          OR (SELECT state FROM leads WHERE id = OLD.lead_id) = 'bought'
        BEGIN SELECT RAISE(ABORT, 'approvals are kept with the purchase'); END""",
    # Every stolen-watch register check, in the order recorded: a new check adds a row, none is
    # changed or removed. The one that counts is on the purchase row (purchases.register_*):
    # the latest, except that a clear check after a flagged one counts only once a second staff
    # member approves it (an approval of kind register_flag whose subject is the check's id).
    """CREATE TABLE register_checks (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        provider TEXT NOT NULL,
        checked_on TEXT NOT NULL,
        result TEXT NOT NULL CHECK (result IN ('clear', 'flagged')),
        certificate TEXT,
        recorded_by TEXT NOT NULL,
        recorded_at TEXT NOT NULL
    )""",
    "CREATE INDEX register_checks_lead ON register_checks(lead_id, id)",
    """CREATE TRIGGER register_checks_no_update BEFORE UPDATE ON register_checks
        BEGIN SELECT RAISE(ABORT, 'register checks are append-only'); END""",
    """CREATE TRIGGER register_checks_no_delete BEFORE DELETE ON register_checks
        BEGIN SELECT RAISE(ABORT, 'register checks are append-only'); END""",
    # The checks recorded before this step: the one on each purchase row becomes its first.
    """INSERT INTO register_checks
        (lead_id, provider, checked_on, result, certificate, recorded_by, recorded_at)
        SELECT lead_id, register_provider, register_checked_on, register_result,
            register_certificate, coalesce(register_recorded_by, 'system'),
            coalesce(authenticated_at, strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now'))
        FROM purchases WHERE register_result IS NOT NULL""",
)

PAYOUT_CHECKS = (
    # The e-mail that asks the seller to confirm the payout account they signed for, named by
    # its last 4 digits (app/sale/purchase/payout.py): one row per signing; the link's token
    # kept only as a digest (a retry replaces it), its expiry, when it went, and the answer.
    """CREATE TABLE payout_checks (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        account_last4 TEXT NOT NULL,
        asked_at TEXT NOT NULL,
        token_hash TEXT UNIQUE,
        expires_at TEXT,
        sent_at TEXT,
        answered_at TEXT,
        answer TEXT CHECK (answer IN ('confirmed', 'denied'))
    )""",
    "CREATE INDEX payout_checks_lead ON payout_checks(lead_id)",
    # The payout account counts once confirmed: by the seller from that e-mail, or by staff on
    # a call-back to the phone on file (which number was called is kept with it).
    "ALTER TABLE purchases ADD COLUMN payout_confirmed_at TEXT",
    "ALTER TABLE purchases ADD COLUMN payout_confirmed_by TEXT",
    "ALTER TABLE purchases ADD COLUMN payout_callback_phone TEXT",
)

# The newest event of an approval's lead from before it was asked for (a kind to be added).
LATEST_EVENT_BEFORE_ASKED = """SELECT max(id) FROM lead_events
    WHERE lead_events.lead_id = approvals.lead_id AND lead_events.at <= approvals.requested_at"""
# The trigger that keeps an approval as given, naming every column but the approval's own two.
APPROVALS_KEPT = """CREATE TRIGGER approvals_kept BEFORE UPDATE ON approvals
    WHEN NEW.id IS NOT OLD.id OR NEW.lead_id IS NOT OLD.lead_id OR NEW.kind IS NOT OLD.kind
      OR NEW.subject IS NOT OLD.subject OR NEW.reason IS NOT OLD.reason
      OR NEW.requested_by IS NOT OLD.requested_by OR NEW.requested_at IS NOT OLD.requested_at
      OR NEW.deal IS NOT OLD.deal OR NEW.signing IS NOT OLD.signing
      OR OLD.approved_by IS NOT NULL
    BEGIN SELECT RAISE(ABORT, 'an approval is given once and never changed'); END"""

ONE_DEAL = (
    # An approval counts for the deal it was given in: `deal` is the event of the seller's
    # acceptance of the final offer (a lead closed and reopened is accepted again, a new deal),
    # and a holder's name is approved for one signing (`signing`, the paperwork_signed event).
    # Rows from before this step get the latest acceptance before they were asked for, and a
    # holder's name the latest signing by then while its paperwork is on record (else none: it
    # counts for nothing).
    "ALTER TABLE approvals ADD COLUMN deal INTEGER REFERENCES lead_events(id)",
    "ALTER TABLE approvals ADD COLUMN signing INTEGER REFERENCES lead_events(id)",
    "DROP TRIGGER approvals_kept",
    f"""UPDATE approvals SET deal = ({LATEST_EVENT_BEFORE_ASKED}
          AND kind = 'state_changed' AND json_extract(data, '$.to') = 'agreed')""",
    f"""UPDATE approvals SET signing = ({LATEST_EVENT_BEFORE_ASKED} AND kind = 'paperwork_signed')
        WHERE kind = 'holder_name' AND (SELECT signed_at FROM purchases
          WHERE purchases.lead_id = approvals.lead_id) IS NOT NULL""",
    APPROVALS_KEPT,
    # A payout account's check is for one signing (its paperwork_signed event): its link
    # confirms that paperwork and no later one, whatever its account's last 4 digits. Before
    # this step only the lead's latest check could be for the latest signing: it gets that
    # signing when its last 4 are the record's.
    "ALTER TABLE payout_checks ADD COLUMN signing INTEGER REFERENCES lead_events(id)",
    """UPDATE payout_checks SET signing = (SELECT max(id) FROM lead_events
        WHERE lead_events.lead_id = payout_checks.lead_id AND kind = 'paperwork_signed')
        WHERE id = (SELECT max(id) FROM payout_checks AS latest
          WHERE latest.lead_id = payout_checks.lead_id)
        AND account_last4 = (SELECT account_number_last4 FROM purchases
          WHERE purchases.lead_id = payout_checks.lead_id)""",
    # A register check is of the serial number the findings gave when it was recorded; the one
    # that counts names it on the purchase row, and `bought` needs it to be the findings' serial
    # now. The record kept no other, so checks from before this step are taken as made of the
    # serial number on the findings at this step.
    "ALTER TABLE register_checks ADD COLUMN serial_number TEXT",
    "DROP TRIGGER register_checks_no_update",
    """UPDATE register_checks SET serial_number = (SELECT serial_number FROM purchases
        WHERE purchases.lead_id = register_checks.lead_id)""",
    """CREATE TRIGGER register_checks_no_update BEFORE UPDATE ON register_checks
        BEGIN SELECT RAISE(ABORT, 'register checks are append-only'); END""",
    "ALTER TABLE purchases ADD COLUMN register_serial TEXT",
    "UPDATE purchases SET register_serial = serial_number WHERE register_result IS NOT NULL",
)

REGISTER_ASKS = (
    # The stolen-watch register asked by API (app/sale/purchase/register_asks.py): one row per
    # question, by the serial number as asked (normalised) and why it was asked; its tries, and
    # how it ended (a clear or flagged answer is also a register check, below). The register's
    # own reference goes with each check and onto the purchase, for the transaction register.
    """CREATE TABLE register_asks (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        serial_number TEXT NOT NULL,
        reason TEXT NOT NULL CHECK (reason IN ('sellers_serial', 'serial_on_record', 'before_payment')),
        asked_at TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        answered_at TEXT,
        outcome TEXT CHECK (outcome IS NULL OR outcome IN
            ('clear', 'flagged', 'unknown', 'failed', 'not_recorded')),
        provider_reference TEXT,
        check_id INTEGER REFERENCES register_checks(id)
    )""",  # noqa: E501 (a schema statement stays as databases already hold it)
    "CREATE INDEX register_asks_lead ON register_asks(lead_id, id)",
    # One question at a time per lead and serial: a double click or a retried move asks once.
    """CREATE UNIQUE INDEX register_asks_one_open ON register_asks(lead_id, serial_number)
        WHERE outcome IS NULL""",
    "ALTER TABLE register_checks ADD COLUMN provider_reference TEXT",
    "ALTER TABLE purchases ADD COLUMN register_reference TEXT",
)

REGISTER_TRIES = (
    # A register question's try under way since when (register_asks.py claims it before asking,
    # and clears it when the question ends): a try older than its lease was lost with its
    # process, and the requeue or the start-up sweep asks again.
    "ALTER TABLE register_asks ADD COLUMN asking_since TEXT",
)

AUTHENTICATED_BRAND = (
    # The brand the watchmaker read on the watch, with the findings: the register is asked
    # with it, never with the brand the seller chose on /sell. Each question keeps the brand it
    # was asked with (none for a serial nobody has seen yet: the seller's, the arrival's).
    "ALTER TABLE purchases ADD COLUMN brand TEXT",
    "ALTER TABLE register_asks ADD COLUMN brand TEXT",
    # One open question per serial and brand: a brand corrected while one is open is asked too.
    "DROP INDEX register_asks_one_open",
    """CREATE UNIQUE INDEX register_asks_one_open
        ON register_asks(lead_id, serial_number, ifnull(brand, '')) WHERE outcome IS NULL""",
)
