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
