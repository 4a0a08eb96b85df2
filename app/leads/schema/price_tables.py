"""The migration step of the buy-price guide (app/prices/): the business's own buy range per
brand and reference, kept by staff, and the version every process's in-memory index reads to
know when to rebuild (app/leads/schema/ runs it)."""

from __future__ import annotations

PRICE_GUIDE = (
    # One entry per brand and reference: the range we pay for a watch in very good condition
    # with box and papers, whole dollars; each other condition grade's adjustment and a missing
    # box's or papers' in percent (NULL: no instant range for that grade); the model names and
    # variants it covers, '; '-separated; who set it and when. `sample` marks development's
    # sample entries, never shown in production.
    """CREATE TABLE price_guide (
        id INTEGER PRIMARY KEY,
        brand TEXT NOT NULL,
        reference TEXT NOT NULL,
        names TEXT NOT NULL DEFAULT '',
        low INTEGER NOT NULL CHECK (low > 0),
        high INTEGER NOT NULL CHECK (high >= low),
        excellent INTEGER,
        good INTEGER,
        fair INTEGER,
        needs_service INTEGER,
        no_box INTEGER NOT NULL DEFAULT 0,
        no_papers INTEGER NOT NULL DEFAULT 0,
        sample INTEGER NOT NULL DEFAULT 0,
        set_by TEXT NOT NULL,
        set_on TEXT NOT NULL,
        UNIQUE (brand, reference)
    )""",
    # Bumped by every change to the guide, in the same transaction: a process compares it with
    # the version its index was built from (one indexed read per lookup).
    "CREATE TABLE price_guide_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER)",
    "INSERT INTO price_guide_version VALUES (1, 0)",
    *(
        f"""CREATE TRIGGER price_guide_{event.lower()} AFTER {event} ON price_guide
            BEGIN UPDATE price_guide_version SET version = version + 1; END"""
        for event in ("INSERT", "UPDATE", "DELETE")
    ),
)

INSTANT_RANGES = (
    # The range the guide gave the seller when they sent the form (JSON: low, high, the line
    # and what it rests on, the entry, its reference and the day it was set), kept as shown:
    # the confirmation e-mail, the status page and staff repeat it even after the guide moves.
    "ALTER TABLE leads ADD COLUMN instant_range TEXT",
)

MARKET_PRICES = (
    # The optional market-data provider's last price per brand and reference (its letters and
    # digits, as matching compares references), or its last error: shown to staff beside the
    # guide, never to a seller (app/prices/market.py).
    """CREATE TABLE market_prices (
        brand TEXT NOT NULL,
        reference_key TEXT NOT NULL,
        price INTEGER,
        fetched_at TEXT,
        error TEXT,
        error_at TEXT,
        PRIMARY KEY (brand, reference_key)
    )""",
)

REFERENCE_KEYS = (
    # Each entry's reference as matching compares it (its letters and digits, upper case;
    # app/prices/guide.py's key()), kept on the row so that "the same reference typed another
    # way" is one indexed read, and the database refuses a second one. References hold only
    # letters, digits and the separators below (the entry form's rule), so this is exact.
    "ALTER TABLE price_guide ADD COLUMN reference_key TEXT",
    """UPDATE price_guide SET reference_key = upper(replace(replace(replace(replace(
        reference, ' ', ''), '-', ''), '/', ''), '.', ''))""",
    "CREATE UNIQUE INDEX price_guide_key ON price_guide(brand, reference_key)",
)

LIST_INDEXES = (
    # The staff list's sorts (app/prices/listing.py SORTS), each walked in order so a page of
    # 10,000 entries is read without sorting them all: by reference, by the day the range was
    # set (oldest or newest first; the stale filter reads the same index), by the low end.
    "CREATE INDEX price_guide_reference ON price_guide(reference_key, brand)",
    "CREATE INDEX price_guide_set_on ON price_guide(set_on, brand, reference)",
    "CREATE INDEX price_guide_low ON price_guide(low, brand, reference)",
)
