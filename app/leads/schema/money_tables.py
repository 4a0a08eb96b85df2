"""The migration step of the money's second pair of eyes (docs/sale.md, "Exceptions need a
second person"): the `approvals` every exception to a purchase's rules needs, and the
stolen-watch register checks kept as an append-only history (app/leads/schema/ runs it)."""

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
