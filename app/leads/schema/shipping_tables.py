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

RETURNS_AND_CLAIMS = (
    # A watch we must not send back (its stolen-watch register check stands flagged when the deal
    # ends without a purchase): the inbound parcel says since when it is held, and no return
    # parcel opens for it.
    "ALTER TABLE shipments ADD COLUMN return_held_at TEXT",
    # A claim under the policy for a parcel lost or damaged: opened by one staff member with the
    # insurer's claim reference, settled (paid, with the amount, or refused) by another; the
    # database refuses a settlement by the one who opened it, a second claim for one parcel, a
    # settled claim changed again, and any claim deleted.
    """CREATE TABLE shipment_claims (
        id INTEGER PRIMARY KEY,
        shipment_id INTEGER NOT NULL UNIQUE REFERENCES shipments(id),
        kind TEXT NOT NULL CHECK (kind IN ('lost', 'damaged')),
        state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'paid', 'refused')),
        insurer_reference TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        opened_by TEXT NOT NULL,
        opened_at TEXT NOT NULL,
        amount INTEGER CHECK (amount IS NULL OR amount > 0),
        settled_by TEXT,
        settled_at TEXT,
        CHECK (settled_by IS NULL OR settled_by <> opened_by),
        CHECK ((state = 'open') = (settled_by IS NULL)),
        CHECK ((state = 'paid') = (amount IS NOT NULL))
    )""",
    """CREATE TRIGGER shipment_claims_settled_once BEFORE UPDATE ON shipment_claims
        WHEN OLD.state <> 'open' OR NEW.opened_by <> OLD.opened_by
            OR NEW.insurer_reference <> OLD.insurer_reference OR NEW.kind <> OLD.kind
        BEGIN SELECT RAISE(ABORT, 'a settled claim is never changed'); END""",
    """CREATE TRIGGER shipment_claims_no_delete BEFORE DELETE ON shipment_claims
        BEGIN SELECT RAISE(ABORT, 'claims are never deleted'); END""",
)
