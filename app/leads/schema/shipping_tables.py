"""The sale by mail's parcels (app/shipping/): one row per deal and direction, with the
provider's ids of its verified addresses (the addresses themselves stay with the provider) and
of its shipment, stored before anything is bought; and every webhook event the label provider
sent, stored once by its own id (the provider delivers at least once)."""

from __future__ import annotations

SHIPMENTS = (
    """CREATE TABLE shipments (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        leg TEXT NOT NULL CHECK (leg IN ('inbound', 'return')),
        deal_event_id INTEGER NOT NULL,
        state TEXT NOT NULL DEFAULT 'created',
        insured_value INTEGER NOT NULL,
        policy TEXT NOT NULL,
        from_address_id TEXT NOT NULL,
        to_address_id TEXT,
        provider_shipment_id TEXT UNIQUE,
        tracking_code TEXT UNIQUE,
        carrier TEXT,
        service TEXT,
        rate_cents INTEGER,
        label_url TEXT,
        label_weight_oz REAL,
        exception_status TEXT,
        created_at TEXT NOT NULL,
        bought_at TEXT,
        first_scan_at TEXT,
        delivered_at TEXT,
        updated_at TEXT NOT NULL,
        UNIQUE (lead_id, leg, deal_event_id)
    )""",
    "CREATE INDEX shipments_unfinished ON shipments(state) WHERE state NOT IN "
    "('delivered', 'received', 'voided', 'lost')",
    """CREATE TABLE shipment_events (
        id INTEGER PRIMARY KEY,
        provider_event_id TEXT NOT NULL UNIQUE,
        description TEXT NOT NULL,
        tracking_code TEXT,
        status TEXT,
        body TEXT NOT NULL,
        received_at TEXT NOT NULL,
        processed_at TEXT,
        outcome TEXT
    )""",
)

HANDOVER = (
    # How the seller wants to hand the watch over, asked by /sell only while the sale by mail is
    # offered (NULL before that, and for every lead while it is off: in person, as always), and
    # the ZIP code they gave with it, which decides whether a meeting is on offer at all.
    """ALTER TABLE leads ADD COLUMN handover TEXT
        CHECK (handover IS NULL OR handover IN ('in_person', 'mail'))""",
    "ALTER TABLE leads ADD COLUMN postal_code TEXT",
)

MAIL_PREPARATIONS = (
    # The seller's steps before the label of a sale by mail (app/shipping/preparation.py), one
    # row per lead and accepted quote: the return address as typed, and as the label provider
    # verified it (its id, the parcel's from_address_id, and the lines the seller is shown), or
    # the correction it suggested; when the ID photos (kept in purchase_files, as the paperwork
    # keeps them) and each shipping condition were given; who verified the ID, and the parcel.
    """CREATE TABLE mail_preparations (
        lead_id INTEGER PRIMARY KEY REFERENCES leads(id),
        deal_event_id INTEGER NOT NULL,
        entered TEXT,
        suggestion TEXT,
        address TEXT,
        address_id TEXT,
        address_at TEXT,
        id_given_at TEXT,
        conditions TEXT,
        conditions_at TEXT,
        id_verified_by TEXT,
        id_verified_at TEXT,
        shipment_id INTEGER REFERENCES shipments(id),
        updated_at TEXT NOT NULL
    )""",
    # A return address changed after the label was bought: it counts only once the seller
    # confirms it from the link e-mailed to the address on file (the token kept as a digest).
    """CREATE TABLE address_changes (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        shipment_id INTEGER NOT NULL REFERENCES shipments(id),
        address TEXT NOT NULL,
        address_id TEXT NOT NULL,
        asked_at TEXT NOT NULL,
        token_hash TEXT UNIQUE,
        expires_at TEXT,
        sent_at TEXT,
        answered_at TEXT,
        new_shipment_id INTEGER REFERENCES shipments(id)
    )""",
    "CREATE INDEX address_changes_lead ON address_changes(lead_id)",
)
