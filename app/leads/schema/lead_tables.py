"""The migration steps of a lead's own tables: leads, photos, the timeline, status links,
lost-link and erasure requests (the tables as each step left them; app/leads/schema/ runs them)."""

from __future__ import annotations

import sqlite3

from app.leads.reference import new_photo_id, new_reference

BASE_TABLES = (
    """CREATE TABLE IF NOT EXISTS leads (
        id INTEGER PRIMARY KEY,
        full_name TEXT NOT NULL,
        email TEXT NOT NULL,
        phone TEXT NOT NULL,
        watch_brand TEXT NOT NULL,
        watch_model TEXT,
        watch_year INTEGER,
        watch_condition TEXT NOT NULL,
        has_box INTEGER NOT NULL,
        has_papers INTEGER NOT NULL,
        additional_details TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL,
        utm_source TEXT,
        utm_medium TEXT,
        utm_campaign TEXT,
        utm_content TEXT,
        utm_term TEXT,
        meta_event_id TEXT NOT NULL UNIQUE,
        client_ip TEXT,
        user_agent TEXT,
        ga_client_id TEXT,
        created_at TEXT NOT NULL,
        photos_processed_at TEXT,
        staff_notified_at TEXT,
        conversions_sent_at TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS lead_photos (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        position INTEGER NOT NULL,
        original_name TEXT NOT NULL,
        upload_name TEXT NOT NULL,
        image_name TEXT,
        thumb_name TEXT,
        width INTEGER,
        height INTEGER,
        error TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS lead_photos_lead ON lead_photos(lead_id, position)",
)


LIFECYCLE_TABLES = (
    "ALTER TABLE leads ADD COLUMN state TEXT NOT NULL DEFAULT 'new'",
    "ALTER TABLE leads ADD COLUMN reference TEXT",
    "ALTER TABLE leads ADD COLUMN status_token_hash TEXT",
    "ALTER TABLE leads ADD COLUMN last_activity_at TEXT",
    "ALTER TABLE leads ADD COLUMN erased_at TEXT",
    "CREATE UNIQUE INDEX leads_reference ON leads(reference)",
    "CREATE UNIQUE INDEX leads_status_token_hash ON leads(status_token_hash)",
    "CREATE INDEX leads_state ON leads(state, id)",
    "UPDATE leads SET last_activity_at = created_at",
    """CREATE TABLE lead_events (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        kind TEXT NOT NULL,
        data TEXT NOT NULL DEFAULT '{}'
    )""",
    "CREATE INDEX lead_events_lead ON lead_events(lead_id, id)",
    # One e-mail per event it announces: a retried or requeued job cannot record a second.
    """CREATE UNIQUE INDEX lead_events_one_email ON lead_events(json_extract(data, '$.event_id'))
        WHERE kind = 'email_sent'""",
    # Append-only: no event is ever deleted, and one is only rewritten (its free text removed)
    # once its lead has been erased, in the same transaction that erased it.
    """CREATE TRIGGER lead_events_no_delete BEFORE DELETE ON lead_events
        BEGIN SELECT RAISE(ABORT, 'lead_events is append-only'); END""",
    """CREATE TRIGGER lead_events_no_update BEFORE UPDATE ON lead_events
        WHEN NEW.id IS NOT OLD.id OR NEW.lead_id IS NOT OLD.lead_id OR NEW.at IS NOT OLD.at
          OR NEW.actor IS NOT OLD.actor OR NEW.kind IS NOT OLD.kind
          OR (SELECT erased_at FROM leads WHERE id = OLD.lead_id) IS NULL
        BEGIN SELECT RAISE(ABORT, 'lead_events is append-only'); END""",
)


PHOTO_IDS = (
    "ALTER TABLE lead_photos ADD COLUMN public_id TEXT",
    "CREATE UNIQUE INDEX lead_photos_public_id ON lead_photos(public_id)",
)


SELLER_CONFIRMATION = (
    "ALTER TABLE leads ADD COLUMN seller_confirmed_at TEXT",
    # Leads saved before the confirmation e-mail existed are not sent one late.
    "UPDATE leads SET seller_confirmed_at = created_at",
)


STATUS_LINKS = (
    # One row per status link e-mailed (the confirmation, each e-mail a state change sends, each
    # lost-link request): only the SHA-256 of the token, which every such link keeps opening.
    """CREATE TABLE status_links (
        token_hash TEXT PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        issued_at TEXT NOT NULL
    )""",
    "CREATE INDEX status_links_lead ON status_links(lead_id)",
    """INSERT INTO status_links (token_hash, lead_id, issued_at)
        SELECT status_token_hash, id, last_activity_at FROM leads
        WHERE status_token_hash IS NOT NULL""",
    "DROP INDEX leads_status_token_hash",
    "ALTER TABLE leads DROP COLUMN status_token_hash",
)


STAFF_ALERTS = (
    # One staff e-mail per seller action (a question, photos added, an answer to a quote).
    """CREATE UNIQUE INDEX lead_events_one_staff_alert
        ON lead_events(json_extract(data, '$.event_id')) WHERE kind = 'staff_alerted'""",
)


# Staff accounts, their recovery codes, sessions and sign-in throttling, and the audit log. Made
# with IF NOT EXISTS: databases from before this step already had them (each connection used to
# create them itself).


LINK_REQUESTS = (
    # The lost-link form's requests, waiting for their job: the job is queued with the row's id
    # (never the address) and deletes the row once it has sent.
    """CREATE TABLE status_link_requests (
        id INTEGER PRIMARY KEY,
        email TEXT NOT NULL,
        requested_at TEXT NOT NULL
    )""",
)


LINK_EXPIRY = (
    # Each status link gets an id (revoking "the links issued before this one" needs an order
    # that VACUUM keeps) and its own expiry, set when it is issued. A link older than this step
    # keeps the date it had: 180 days after its lead's last activity (a date SQLite cannot read
    # makes the link expire now: closed, never open-ended).
    """CREATE TABLE status_links_with_expiry (
        id INTEGER PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        issued_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
    )""",
    """INSERT INTO status_links_with_expiry (token_hash, lead_id, issued_at, expires_at)
        SELECT status_links.token_hash, status_links.lead_id, status_links.issued_at,
            coalesce(strftime('%Y-%m-%dT%H:%M:%S+00:00',
                max(coalesce(leads.last_activity_at, ''), status_links.issued_at), '+180 days'),
                strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now'))
        FROM status_links JOIN leads ON leads.id = status_links.lead_id
        ORDER BY status_links.issued_at, status_links.rowid""",
    "DROP TABLE status_links",
    "ALTER TABLE status_links_with_expiry RENAME TO status_links",
    "CREATE INDEX status_links_lead ON status_links(lead_id, id)",
)


ERASURE_REQUESTS = (
    # A seller's request to have their lead erased, done only once they confirm it from the link
    # e-mailed to the address on file (app/sale/erasure.py): its job is queued by the row's id,
    # and only the link's SHA-256 is kept. It stands while the lead stays in the closure it was
    # made in (closed_event_id: any later state change voids it). Erasure removes the rows.
    """CREATE TABLE erasure_requests (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        closed_event_id INTEGER NOT NULL REFERENCES lead_events(id),
        requested_at TEXT NOT NULL,
        token_hash TEXT UNIQUE,
        expires_at TEXT,
        sent_at TEXT,
        confirmed_at TEXT
    )""",
    "CREATE INDEX erasure_requests_lead ON erasure_requests(lead_id)",
)


AD_OPT_OUT = (
    # The seller's "do not sell or share" at the time of the submission, and how it was said:
    # 'gpc' (their browser's Global Privacy Control signal) or 'choice' (the privacy choices
    # page). Such a lead never sends an event to any advertising platform (worker/jobs.py).
    """ALTER TABLE leads ADD COLUMN ad_opt_out TEXT
        CHECK (ad_opt_out IS NULL OR ad_opt_out IN ('gpc', 'choice'))""",
)


CLICK_IDS = (
    # Where a lead came from beyond its UTM tags (app/sell/attribution.py): Meta's click id in
    # its fbc format and its browser id (_fbp), Google's click ids and when they were seen (for
    # its 90-day window), the visit's landing page (a path of this site) and the host name of
    # the external site that referred the visit (never the whole address).
    "ALTER TABLE leads ADD COLUMN fbc TEXT",
    "ALTER TABLE leads ADD COLUMN fbp TEXT",
    "ALTER TABLE leads ADD COLUMN gclid TEXT",
    "ALTER TABLE leads ADD COLUMN gbraid TEXT",
    "ALTER TABLE leads ADD COLUMN wbraid TEXT",
    "ALTER TABLE leads ADD COLUMN google_click_at TEXT",
    "ALTER TABLE leads ADD COLUMN landing_page TEXT",
    "ALTER TABLE leads ADD COLUMN referrer_host TEXT",
)


def give_references(db: sqlite3.Connection) -> None:
    """Leads saved before references existed get one now, with their submission as an event."""
    rows = db.execute("SELECT id, created_at FROM leads WHERE reference IS NULL").fetchall()
    for lead_id, created_at in rows:
        while True:
            try:
                db.execute(
                    "UPDATE leads SET reference = ? WHERE id = ?", (new_reference(), lead_id)
                )
                break
            except sqlite3.IntegrityError:
                continue
        db.execute(
            "INSERT INTO lead_events (lead_id, at, actor, kind) "
            "VALUES (?, ?, 'seller', 'submitted')",
            (lead_id, created_at),
        )


def give_photo_ids(db: sqlite3.Connection) -> None:
    """Photos saved before public ids existed get one (the staff photo route's only handle)."""
    rows = db.execute("SELECT id FROM lead_photos WHERE public_id IS NULL").fetchall()
    for (photo_id,) in rows:
        db.execute("UPDATE lead_photos SET public_id = ? WHERE id = ?", (new_photo_id(), photo_id))
