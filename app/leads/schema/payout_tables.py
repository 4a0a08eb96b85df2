"""The payout sent through the business's bank API (app/payouts/): one row per try at paying a
deal, asked by one staff member and approved by another, with the bank's transfer id stored
before it is released; and every event the bank sent, stored once by its own id (the bank
delivers at least once). No row holds a bank number: the account is the seller's signing,
read sealed from the purchase record only to create the transfer."""

from __future__ import annotations

PAYOUTS = (
    # `deal` is the seller's acceptance of the final offer (its state_changed event) and
    # `signing` the paperwork whose account is paid (its paperwork_signed event): a payout counts
    # for that deal and that account only. `attempt` numbers the tries of one deal (a transfer
    # the bank refused is tried again as a new row), and the idempotency key is made of the
    # three, so a retry, a double click or two workers create one transfer per try.
    # Amounts are integer cents. The one who asks never approves (the CHECK holds even against a
    # bug); nothing moves past `asked` without an approver; a state only moves forward, and what
    # was asked, who asked and approved, and the bank's transfer id once stored never change;
    # no row is deleted.
    """CREATE TABLE payouts (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        deal INTEGER NOT NULL,
        signing INTEGER NOT NULL,
        attempt INTEGER NOT NULL CHECK (attempt > 0),
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        rail TEXT NOT NULL CHECK (rail IN ('rtp', 'fednow', 'ach', 'wire')),
        idempotency_key TEXT NOT NULL UNIQUE,
        state TEXT NOT NULL DEFAULT 'asked' CHECK (state IN
            ('asked', 'approved', 'released', 'paid', 'rejected', 'canceled', 'returned')),
        asked_by TEXT NOT NULL,
        asked_at TEXT NOT NULL,
        approved_by TEXT,
        approved_at TEXT,
        transfer_id TEXT UNIQUE,
        bank_status TEXT,
        released_at TEXT,
        paid_at TEXT,
        network_reference TEXT,
        reason TEXT,
        approval_alerted_at TEXT,
        updated_at TEXT NOT NULL,
        UNIQUE (lead_id, deal, attempt),
        CHECK (approved_by IS NULL OR approved_by <> asked_by),
        CHECK ((approved_by IS NULL) = (approved_at IS NULL)),
        CHECK (state NOT IN ('approved', 'released', 'paid', 'returned') OR approved_by IS NOT NULL)
    )""",
    # One payout at a time per lead: a second ask while one is asked, approved or on its way is
    # refused by the database.
    "CREATE UNIQUE INDEX payouts_one_live ON payouts(lead_id) "
    "WHERE state IN ('asked', 'approved', 'released')",
    "CREATE INDEX payouts_unfinished ON payouts(state) WHERE state IN "
    "('asked', 'approved', 'released', 'paid')",
    "CREATE INDEX payouts_approved_on ON payouts(approved_at) WHERE approved_at IS NOT NULL",
    """CREATE TRIGGER payouts_kept BEFORE UPDATE ON payouts
        WHEN NEW.id IS NOT OLD.id OR NEW.lead_id IS NOT OLD.lead_id OR NEW.deal IS NOT OLD.deal
          OR NEW.signing IS NOT OLD.signing OR NEW.attempt IS NOT OLD.attempt
          OR NEW.amount_cents IS NOT OLD.amount_cents OR NEW.rail IS NOT OLD.rail
          OR NEW.idempotency_key IS NOT OLD.idempotency_key OR NEW.asked_by IS NOT OLD.asked_by
          OR NEW.asked_at IS NOT OLD.asked_at
          OR (OLD.approved_by IS NOT NULL AND (NEW.approved_by IS NOT OLD.approved_by
              OR NEW.approved_at IS NOT OLD.approved_at))
          OR (OLD.transfer_id IS NOT NULL AND NEW.transfer_id IS NOT OLD.transfer_id)
        BEGIN SELECT RAISE(ABORT, 'a payout asked for is never changed, only moved on'); END""",
    """CREATE TRIGGER payouts_forward_only BEFORE UPDATE OF state ON payouts
        WHEN NEW.state IS NOT OLD.state AND NOT (
             (OLD.state = 'asked' AND NEW.state IN ('approved', 'rejected', 'canceled'))
          OR (OLD.state = 'approved' AND NEW.state IN ('released', 'rejected', 'canceled'))
          OR (OLD.state = 'released'
              AND NEW.state IN ('paid', 'rejected', 'canceled', 'returned'))
          OR (OLD.state = 'paid' AND NEW.state = 'returned'))
        BEGIN SELECT RAISE(ABORT, 'a payout only moves forward'); END""",
    """CREATE TRIGGER payouts_not_deleted BEFORE DELETE ON payouts
        BEGIN SELECT RAISE(ABORT, 'payouts are kept'); END""",
    # When the bank paid a purchase it sent (the seller reads "paid by instant transfer at
    # 2:32 pm"); a payment staff recorded by hand has its day only.
    "ALTER TABLE purchases ADD COLUMN paid_at TEXT",
    """CREATE TABLE payout_events (
        id INTEGER PRIMARY KEY,
        provider_event_id TEXT NOT NULL UNIQUE,
        category TEXT NOT NULL,
        object_id TEXT,
        body TEXT NOT NULL,
        received_at TEXT NOT NULL,
        processed_at TEXT,
        outcome TEXT
    )""",
)
