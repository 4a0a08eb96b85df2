"""The migration step behind every e-mail promised once (app/leads/email_claims.py): the claim
each e-mail takes before it is sent, and lost-link requests whose ids are never used again."""

from __future__ import annotations

EMAIL_CLAIMS = (
    # One row per e-mail promised once, named by what it is about ("confirmation:lead 12",
    # "seller e-mail:event 345"): the runner whose INSERT makes the row sends it, however many
    # run the job at once. `sent_at` once the relay took it; a row without it is in flight, or
    # its send may or may not have happened (the worker died, the relay went quiet after the
    # message): `unsure_at` once staff are told. Nothing personal: ids, times, the Message-ID.
    """CREATE TABLE email_claims (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        about TEXT NOT NULL UNIQUE,
        lead_id INTEGER REFERENCES leads(id),
        claimed_at TEXT NOT NULL,
        message_id TEXT,
        sent_at TEXT,
        unsure_at TEXT
    )""",
    "CREATE INDEX email_claims_unsent ON email_claims(claimed_at) WHERE sent_at IS NULL",
    # A lost-link request's row goes once its e-mails are sent, so its id could be given to
    # the next request and meet the claims of the one before: AUTOINCREMENT never reuses one.
    """CREATE TABLE status_link_requests_once (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        email TEXT NOT NULL,
        requested_at TEXT NOT NULL
    )""",
    """INSERT INTO status_link_requests_once (id, email, requested_at)
        SELECT id, email, requested_at FROM status_link_requests ORDER BY id""",
    "DROP TABLE status_link_requests",
    "ALTER TABLE status_link_requests_once RENAME TO status_link_requests",
)
