"""The migration step of the purchase on record (docs/sale.md, "The purchase on record"): one
`purchases` row per lead that reaches a final offer, the private files that go with it, the
daily jobs' claims, and the dashboard's step for `agreed` (app/leads/schema/ runs it)."""

from __future__ import annotations

# lead_progress.furthest with `agreed` between `offered` and `bought` (a bought lead, 6 before
# this step, is 7 now: it passed through an accepted final offer).
STEP_OF_STATE = (
    "CASE json_extract(NEW.data, '$.to') WHEN 'contacted' THEN 1 WHEN 'quoted' THEN 2 "
    "WHEN 'accepted' THEN 3 WHEN 'appointment' THEN 4 WHEN 'offered' THEN 5 "
    "WHEN 'agreed' THEN 6 WHEN 'bought' THEN 7 ELSE 0 END"
)

PURCHASES = (
    # The watch's identity at authentication, the stolen-watch register check, the seller's
    # paperwork and its signature record, the ID check and the payment. Columns ending in _enc
    # hold Fernet tokens under PURCHASE_DATA_KEY (app/sale/purchase/crypto.py); *_last4 are what the
    # seller's page may show back. hold_ends_on and retain_until are set when the lead is bought.
    """CREATE TABLE purchases (
        lead_id INTEGER PRIMARY KEY REFERENCES leads(id),
        model_reference TEXT,
        serial_number TEXT,
        case_marks TEXT,
        movement_marks TEXT,
        condition_findings TEXT,
        authenticated_by TEXT,
        authenticated_at TEXT,
        register_provider TEXT,
        register_checked_on TEXT,
        register_result TEXT CHECK (register_result IN ('clear', 'flagged')),
        register_certificate TEXT,
        register_recorded_by TEXT,
        legal_name TEXT,
        street_address TEXT,
        city TEXT,
        region TEXT,
        postal_code TEXT,
        birth_date_enc TEXT,
        id_type TEXT,
        id_number_enc TEXT,
        id_number_last4 TEXT,
        id_issuer TEXT,
        id_expires_on TEXT,
        account_holder TEXT,
        routing_number_enc TEXT,
        account_number_enc TEXT,
        account_number_last4 TEXT,
        declaration_sha256 TEXT,
        signed_name TEXT,
        signed_at TEXT,
        signed_ip TEXT,
        signed_user_agent TEXT,
        id_verified_by TEXT,
        id_verified_at TEXT,
        paid_amount INTEGER,
        payment_method TEXT,
        paid_on TEXT,
        bank_confirmation TEXT,
        paid_recorded_by TEXT,
        hold_ends_on TEXT,
        retain_until TEXT,
        payout_erased_at TEXT,
        record_erased_at TEXT
    )""",
    "CREATE INDEX purchases_hold ON purchases(hold_ends_on)",
    "CREATE INDEX purchases_paid ON purchases(paid_on)",
    # Files kept with a purchase, each encrypted under PURCHASE_DATA_KEY in private storage:
    # the ID's photos, the register's certificate, and each version of the bill of sale and the
    # receipt (`sha256` is the plain file's, as the timeline shows it).
    """CREATE TABLE purchase_files (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        kind TEXT NOT NULL CHECK (kind IN
            ('id_front', 'id_back', 'register_certificate', 'bill_of_sale', 'receipt')),
        public_id TEXT NOT NULL UNIQUE,
        file_name TEXT NOT NULL,
        media_type TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 1,
        sha256 TEXT NOT NULL,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX purchase_files_lead ON purchase_files(lead_id, kind, version)",
    # Work done once a day (retention): the day it was last claimed, so of many processes only
    # one runs it each day (a conditional UPDATE, as lifecycle moves are made).
    """CREATE TABLE daily_runs (
        name TEXT PRIMARY KEY,
        ran_on TEXT NOT NULL
    )""",
    "DROP TRIGGER lead_progress_step",
    f"""CREATE TRIGGER lead_progress_step AFTER INSERT ON lead_events
        WHEN NEW.kind = 'state_changed'
        BEGIN
            INSERT OR IGNORE INTO lead_progress (lead_id) VALUES (NEW.lead_id);
            UPDATE lead_progress SET furthest = max(furthest, {STEP_OF_STATE})
                WHERE lead_id = NEW.lead_id;
            UPDATE lead_progress SET bought_at = NEW.at,
                bought_amount = json_extract(NEW.data, '$.amount'),
                paid_on = json_extract(NEW.data, '$.paid_on')
                WHERE lead_id = NEW.lead_id AND json_extract(NEW.data, '$.to') = 'bought';
        END""",
    "UPDATE lead_progress SET furthest = 7 WHERE furthest = 6",
)

SEALED_FILES = (
    # A purchase file sealed to its lead and kind (AES-GCM, app/sale/purchase/crypto.py) is 1;
    # the files written before are Fernet's, bound to nothing, and the app seals them once at
    # start-up (app/sale/purchase/sealing.py), finding them by this.
    "ALTER TABLE purchase_files ADD COLUMN sealed INTEGER NOT NULL DEFAULT 0",
)

PAYMENT_ALERTS = (
    # Staff e-mailed about a signed sale still unpaid when a business day ended (app/sale/
    # purchase/deadline.py): an event on the lead's timeline, one per lead and business day, so
    # a second run the same day, or two at once, cannot record a second e-mail.
    """CREATE UNIQUE INDEX lead_events_one_payment_alert
        ON lead_events(lead_id, json_extract(data, '$.day')) WHERE kind = 'payment_late_alerted'""",
)

PAPERWORK_DRAFTS = (
    # What a seller's refused paperwork got right and the page never shows back (the date of
    # birth, the ID and bank numbers, the ID photos): one sealed file per lead in private
    # storage (app/sale/purchase/drafts.py), for the browser that typed it only (the digest of
    # a random key in its cookie), until the paperwork is signed, the lead leaves `agreed`, or
    # it expires.
    """CREATE TABLE paperwork_drafts (
        lead_id INTEGER PRIMARY KEY REFERENCES leads(id),
        holder_sha256 TEXT NOT NULL,
        file_name TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        saved_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
    )""",
    "CREATE INDEX paperwork_drafts_expiry ON paperwork_drafts(expires_at)",
)
