"""The sale by mail's parcels (app/shipping/): one row per deal and direction, with the
provider's ids of its verified addresses (the addresses themselves stay with the provider) and
of its shipment, stored before anything is bought; and every webhook event the label provider
sent, stored once by its own id (the provider delivers at least once)."""

from __future__ import annotations

from app.leads.schema.replica_tables import FILE_COPIES

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

# The kinds a purchase file may be, as the arrival on record adds its photos and video to them
# (app/sale/purchase/files.py: sealed, replicated, rotated and erased as the others are).
FILE_KINDS = (
    "'id_front', 'id_back', 'register_certificate', 'bill_of_sale', 'receipt', "
    "'arrival_box', 'arrival_opening', 'arrival_serial', 'arrival_video'"
)

ARRIVALS = (
    # purchase_files again with the arrival's kinds allowed (SQLite changes a CHECK only by
    # making the table anew): its rows, index and replica triggers as they were.
    f"""CREATE TABLE purchase_files_with_arrival (
        id INTEGER PRIMARY KEY,
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        kind TEXT NOT NULL CHECK (kind IN ({FILE_KINDS})),
        public_id TEXT NOT NULL UNIQUE,
        file_name TEXT NOT NULL,
        media_type TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 1,
        sha256 TEXT NOT NULL,
        created_at TEXT NOT NULL,
        sealed INTEGER NOT NULL DEFAULT 0
    )""",
    """INSERT INTO purchase_files_with_arrival (id, lead_id, kind, public_id, file_name,
        media_type, version, sha256, created_at, sealed)
        SELECT id, lead_id, kind, public_id, file_name, media_type, version, sha256, created_at,
            sealed FROM purchase_files ORDER BY id""",
    "DROP TABLE purchase_files",  # its triggers go with it, and fire not (no rows are deleted)
    "ALTER TABLE purchase_files_with_arrival RENAME TO purchase_files",
    "CREATE INDEX purchase_files_lead ON purchase_files(lead_id, kind, version)",
    *(statement for statement in FILE_COPIES if "TRIGGER purchase_files" in statement),
    # An inbound parcel opened on record (app/shipping/arrival.py), once: the weight measured
    # against the label's, within the tolerance of the day, the seal, the serial typed, the
    # purchase files of its photos (and video). A mismatch (`mismatch`: what did not match) is
    # received only once a second staff member signs it off; the database refuses the one who
    # recorded it. Staff's words are on the timeline's events, where an erasure blanks them.
    """CREATE TABLE arrivals (
        id INTEGER PRIMARY KEY,
        shipment_id INTEGER NOT NULL UNIQUE REFERENCES shipments(id),
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        weight_oz REAL NOT NULL CHECK (weight_oz > 0),
        label_weight_oz REAL,
        tolerance_oz REAL NOT NULL,
        seal_intact INTEGER NOT NULL CHECK (seal_intact IN (0, 1)),
        serial TEXT NOT NULL,
        files TEXT NOT NULL,
        mismatch TEXT,
        recorded_by TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        signed_off_by TEXT,
        signed_off_at TEXT,
        CHECK (signed_off_by IS NULL OR (mismatch IS NOT NULL AND signed_off_by != recorded_by))
    )""",
    "CREATE INDEX arrivals_lead ON arrivals(lead_id)",
    # The seller's e-mails about their parcel (worker/parcel_mail.py): one per parcel and step.
    """CREATE TABLE parcel_notices (
        shipment_id INTEGER NOT NULL REFERENCES shipments(id),
        step TEXT NOT NULL CHECK (step IN ('in_transit', 'delivered')),
        sent_at TEXT NOT NULL,
        PRIMARY KEY (shipment_id, step)
    )""",
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

PICKUPS = (
    # A carrier pickup the seller booked for their parcel (app/shipping/pickups.py): one live
    # booking per parcel, its provider id stored before anything is bought, the day and the
    # window asked for, and the carrier's confirmation once booked (or why it failed).
    """CREATE TABLE pickups (
        id INTEGER PRIMARY KEY,
        shipment_id INTEGER NOT NULL REFERENCES shipments(id),
        lead_id INTEGER NOT NULL REFERENCES leads(id),
        day TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'asked'
            CHECK (state IN ('asked', 'scheduled', 'failed', 'cancelled')),
        provider_pickup_id TEXT UNIQUE,
        confirmation TEXT,
        failure TEXT,
        asked_at TEXT NOT NULL,
        scheduled_at TEXT
    )""",
    """CREATE UNIQUE INDEX pickups_one_live ON pickups(shipment_id)
        WHERE state IN ('asked', 'scheduled')""",
)

SELLER_WORDS = (
    # The serial number a seller may give on the status page once the quote is accepted, kept
    # whole for staff (blanked by an erasure); the timeline shows its last 4 characters only.
    "ALTER TABLE leads ADD COLUMN sellers_serial TEXT",
    # The seller told once per parcel that its label is ready on the status page.
    """CREATE TABLE label_notices (
        shipment_id INTEGER PRIMARY KEY REFERENCES shipments(id),
        sent_at TEXT NOT NULL
    )""",
)

CARRIER_WEIGHTS = (
    # The parcel's weight as the carrier measured it (its tracker's `weight`, in ounces, the
    # first one reported): what an arrival is weighed against when the carrier gave one, since
    # every label is bought for the same standard weight; and, on the arrival, which it was.
    "ALTER TABLE shipments ADD COLUMN carrier_weight_oz REAL",
    "ALTER TABLE arrivals ADD COLUMN carrier_weight_oz REAL",
)

FOUND_AFTER_CLAIM = (
    # A parcel claimed lost that the carrier then delivered (app/shipping/claims.py): when, on
    # its claim, for the insurer. The one change a settled claim still takes, and only once.
    "ALTER TABLE shipment_claims ADD COLUMN delivered_at TEXT",
    "DROP TRIGGER shipment_claims_settled_once",
    """CREATE TRIGGER shipment_claims_settled_once BEFORE UPDATE ON shipment_claims
        WHEN (OLD.state <> 'open' AND (NEW.state IS NOT OLD.state
                OR NEW.amount IS NOT OLD.amount OR NEW.settled_by IS NOT OLD.settled_by
                OR NEW.settled_at IS NOT OLD.settled_at OR NEW.note IS NOT OLD.note))
            OR NEW.opened_by <> OLD.opened_by OR NEW.opened_at <> OLD.opened_at
            OR NEW.insurer_reference <> OLD.insurer_reference OR NEW.kind <> OLD.kind
            OR NEW.shipment_id <> OLD.shipment_id
            OR (OLD.delivered_at IS NOT NULL AND NEW.delivered_at IS NOT OLD.delivered_at)
        BEGIN SELECT RAISE(ABORT, 'a settled claim is never changed'); END""",
)
