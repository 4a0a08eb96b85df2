"""The migration step behind the staff dashboard (/staff/insights) and a quick inbox at 100,000
leads: a summary row per lead of how far it got, kept current by triggers on the timeline; a
full-text index for the inbox's search, kept current by triggers on the leads; and the indexes
the dashboard's and the inbox's filters use (app/leads/schema/ runs it)."""

from __future__ import annotations

# How far along the lifecycle each state is; a lead's furthest step is the largest it reached.
STEP_OF_STATE = (
    "CASE json_extract(NEW.data, '$.to') WHEN 'contacted' THEN 1 WHEN 'quoted' THEN 2 "
    "WHEN 'accepted' THEN 3 WHEN 'appointment' THEN 4 WHEN 'offered' THEN 5 "
    "WHEN 'bought' THEN 6 ELSE 0 END"
)
STAFF_ACTOR = "NEW.actor NOT IN ('seller', 'system')"  # as the inbox's "seller waiting" reads it

LEAD_PROGRESS = (
    # One row per lead that staff have acted on or that changed state: the furthest step it ever
    # reached (0 new .. 6 bought; a reopened or closed lead keeps it), the first staff action
    # (the reply the site promises within 24 hours) and the purchase. Written by the triggers
    # below inside the transaction that appends the event, so it is never behind the timeline,
    # whichever code appends it; the dashboard reads it instead of parsing every event's JSON.
    """CREATE TABLE lead_progress (
        lead_id INTEGER PRIMARY KEY REFERENCES leads(id),
        furthest INTEGER NOT NULL DEFAULT 0,
        first_reply_at TEXT,
        bought_at TEXT,
        bought_amount INTEGER,
        paid_on TEXT
    )""",
    f"""CREATE TRIGGER lead_progress_first_reply AFTER INSERT ON lead_events
        WHEN {STAFF_ACTOR}
        BEGIN
            INSERT OR IGNORE INTO lead_progress (lead_id) VALUES (NEW.lead_id);
            UPDATE lead_progress SET first_reply_at = NEW.at
                WHERE lead_id = NEW.lead_id AND first_reply_at IS NULL;
        END""",
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
    # Leads older than this step: the same facts from their timeline.
    f"""INSERT INTO lead_progress (lead_id, first_reply_at)
        SELECT lead_id, min(CASE WHEN {STAFF_ACTOR.replace("NEW.", "")} THEN at END)
        FROM lead_events
        WHERE actor NOT IN ('seller', 'system') OR kind = 'state_changed'
        GROUP BY lead_id""",
    f"""UPDATE lead_progress SET furthest = coalesce((
        SELECT max({STEP_OF_STATE.replace("NEW.", "")}) FROM lead_events
        WHERE lead_events.lead_id = lead_progress.lead_id AND kind = 'state_changed'), 0)""",
    """UPDATE lead_progress SET (bought_at, bought_amount, paid_on) = (
        SELECT at, json_extract(data, '$.amount'), json_extract(data, '$.paid_on')
        FROM lead_events WHERE lead_events.lead_id = lead_progress.lead_id
        AND kind = 'state_changed' AND json_extract(data, '$.to') = 'bought'
        ORDER BY id DESC LIMIT 1)""",
    # The dashboard's periods and the inbox's dates are ranges of created_at; the inbox's brand
    # and campaign filters (alone or together) count their leads per state from these indexes
    # alone, without reading a lead.
    "CREATE INDEX leads_created ON leads(created_at)",
    "CREATE INDEX leads_brand ON leads(watch_brand, utm_source, state)",
    "CREATE INDEX leads_source ON leads(utm_source, state)",
)


def phone_digits(row: str) -> str:
    """SQL for the digits of a phone number as the inbox searches them (app/leads/search.py)."""
    digits = f"{row}.phone"
    for mark in (" ", "(", ")", "-", ".", "+"):
        digits = f"replace({digits}, '{mark}', '')"
    return digits


SEARCH_COLUMNS = "full_name, email, watch_model, phone_digits"


def search_values(row: str) -> str:
    """SQL for a lead's values in the search index, from NEW or OLD in a trigger."""
    return f"{row}.full_name, {row}.email, {row}.watch_model, {phone_digits(row)}"


INBOX_SEARCH = (
    # The inbox's search (a name, an e-mail, a model or phone digits, anywhere in them) at any
    # number of leads: a trigram index matches any run of three or more characters, where LIKE
    # '%...%' reads every lead twice per page. Contentless (the text stays in leads only). Only
    # erasure changes these columns once a lead is saved: its trigger removes the old values and
    # then merges the index ('optimize', a fraction of a second at 100,000 leads), so no page of
    # it keeps the erased lead's trigrams, and secure_delete zeroes the pages it frees.
    f"""CREATE VIRTUAL TABLE leads_search USING fts5(
        {SEARCH_COLUMNS}, content='', tokenize='trigram')""",
    f"""CREATE TRIGGER leads_search_insert AFTER INSERT ON leads
        BEGIN
            INSERT INTO leads_search (rowid, {SEARCH_COLUMNS})
                VALUES (NEW.id, {search_values("NEW")});
        END""",
    f"""CREATE TRIGGER leads_search_update
        AFTER UPDATE OF full_name, email, watch_model, phone ON leads
        BEGIN
            INSERT INTO leads_search (leads_search, rowid, {SEARCH_COLUMNS})
                VALUES ('delete', OLD.id, {search_values("OLD")});
            INSERT INTO leads_search (rowid, {SEARCH_COLUMNS})
                VALUES (NEW.id, {search_values("NEW")});
            INSERT INTO leads_search (leads_search) VALUES ('optimize');
        END""",
    f"""INSERT INTO leads_search (rowid, {SEARCH_COLUMNS})
        SELECT id, {search_values("leads")} FROM leads""",
)
DASHBOARD_AND_SEARCH = LEAD_PROGRESS + INBOX_SEARCH
