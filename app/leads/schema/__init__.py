"""The leads database's tables and their migrations, numbered by SQLite's `PRAGMA user_version`.

The only place any table of leads.db is created or changed. `migrate()` runs once when the app
starts (app/leads/db.py; the CLI and the worker start the app too): a current database costs one
PRAGMA read; an older one is brought up to date under `BEGIN IMMEDIATE` (one writer at a time,
version re-read inside), so two processes starting together never apply a step twice. A fresh
file runs the same steps as an old one, so there is one way a database comes to have its shape.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from app.leads.schema.conversion_tables import CONVERSIONS
from app.leads.schema.erasure_leftovers import ERASURE_LEFTOVERS
from app.leads.schema.health_tables import HEALTH
from app.leads.schema.lead_tables import (
    AD_OPT_OUT,
    BASE_TABLES,
    CLICK_IDS,
    ERASURE_REQUESTS,
    LIFECYCLE_TABLES,
    LINK_EXPIRY,
    LINK_REQUESTS,
    PHOTO_IDS,
    SELLER_CONFIRMATION,
    STAFF_ALERTS,
    STATUS_LINKS,
    give_photo_ids,
    give_references,
)
from app.leads.schema.mail_tables import EMAIL_CLAIMS
from app.leads.schema.money_tables import (
    AUTHENTICATED_BRAND,
    MONEY_CHECKS,
    ONE_DEAL,
    PAYOUT_CHECKS,
    REGISTER_ASKS,
    REGISTER_TRIES,
)
from app.leads.schema.payout_tables import PAYOUTS
from app.leads.schema.price_tables import (
    INSTANT_RANGES,
    LIST_INDEXES,
    MARKET_PRICES,
    PRICE_GUIDE,
    REFERENCE_KEYS,
)
from app.leads.schema.progress_tables import DASHBOARD_AND_SEARCH
from app.leads.schema.purchase_tables import (
    PAPERWORK_DRAFTS,
    PAYMENT_ALERTS,
    PURCHASES,
    SEALED_FILES,
)
from app.leads.schema.replica_tables import FILE_COPIES
from app.leads.schema.shipping_tables import (
    ARRIVALS,
    CARRIER_WEIGHTS,
    FOUND_AFTER_CLAIM,
    HANDOVER,
    MAIL_PREPARATIONS,
    PICKUPS,
    RETURNS_AND_CLAIMS,
    SELLER_WORDS,
    SHIPMENTS,
)
from app.leads.schema.staff_tables import STAFF_TABLES, chain_audit_log
from app.leads.schema.steps import run

MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    run(BASE_TABLES),  # 1: the sell form's leads and photos
    run(LIFECYCLE_TABLES),  # 2: states, references, the timeline
    give_references,  # 3: references and submitted events for leads older than step 2
    run(PHOTO_IDS),  # 4: unguessable photo ids for the staff photo route
    give_photo_ids,  # 5: those ids for photos older than step 4
    run(SELLER_CONFIRMATION),  # 6: the seller's confirmation e-mail as a piece of lead work
    run(STAFF_ALERTS),  # 7: staff e-mailed about what sellers do on their status page
    run(STATUS_LINKS),  # 8: a status link in every e-mail to the seller, each its own token
    run(STAFF_TABLES),  # 9: staff, sessions, throttling and the audit log, made here only
    run(LINK_REQUESTS),  # 10: lost-link requests queued by id, not by address
    run(LINK_EXPIRY),  # 11: each status link its own expiry, and an order to revoke by
    chain_audit_log,  # 12: each audit entry chained to the one before by its hash
    run(ERASURE_REQUESTS),  # 13: erasure confirmed from the seller's mailbox, not a link alone
    run(AD_OPT_OUT),  # 14: the seller's ad opt-out (GPC or the privacy choices page)
    run(CLICK_IDS),  # 15: click ids, landing page and referrer host, captured like UTM tags
    run(DASHBOARD_AND_SEARCH),  # 16: how far each lead got; the inbox's search index; indexes
    run(CONVERSIONS),  # 17: each ad platform's outcome per lead and event (Lead, Purchase)
    run(PURCHASES),  # 18: the purchase on record, its private files, daily claims, `agreed`
    run(MONEY_CHECKS),  # 19: approvals of exceptions; register checks as a kept history
    run(PAYOUT_CHECKS),  # 20: the payout account confirmed from the seller's mailbox
    run(SEALED_FILES),  # 21: which purchase files are sealed to their lead and kind
    run(PAYMENT_ALERTS),  # 22: staff alerted once a day per signed sale unpaid at the day's end
    run(PAPERWORK_DRAFTS),  # 23: a refused paperwork's secrets and ID photos, kept sealed
    run(PRICE_GUIDE),  # 24: the buy-price guide staff keep, and its version
    run(INSTANT_RANGES),  # 25: the range the guide gave a seller with the form, as shown
    run(MARKET_PRICES),  # 26: the market-data provider's last price per reference, for staff
    run(REFERENCE_KEYS),  # 27: each guide entry's reference as matching compares it, unique
    run(FILE_COPIES),  # 28: each private file's copy in the off-site replica, owed or made
    run(LIST_INDEXES),  # 29: the staff guide list's sorts, each an index walked in order
    run(ONE_DEAL),  # 30: approvals, payout links and register checks bound to one deal each
    run(SHIPMENTS),  # 31: the sale by mail's parcels and the label provider's webhook events
    run(HANDOVER),  # 32: in person or by insured mail, and the seller's ZIP code, from /sell
    run(REGISTER_ASKS),  # 33: the stolen-watch register asked by API, and its references
    run(RETURNS_AND_CLAIMS),  # 34: a watch held from its return; claims under the parcel policy
    run(ARRIVALS),  # 35: a parcel opened on record, its files; the seller told of the parcel
    run(MAIL_PREPARATIONS),  # 36: the seller's steps before a mail label; address changes
    run(PICKUPS),  # 37: a carrier pickup the seller booked for their parcel
    run(SELLER_WORDS),  # 38: the serial number a seller gives; the label-ready e-mail, once
    run(CARRIER_WEIGHTS),  # 39: the parcel's weight as the carrier measured it
    run(EMAIL_CLAIMS),  # 40: each e-mail promised once claimed before it is sent
    run(FOUND_AFTER_CLAIM),  # 41: a parcel claimed lost, then delivered: when, on its claim
    run(ERASURE_LEFTOVERS),  # 42: what erasures used to leave behind, gone from erased leads
    run(HEALTH),  # 43: owed work as first seen owed; each fault staff are told of, once
    run(REGISTER_TRIES),  # 44: a register question's try claimed, so a lost one is asked again
    run(AUTHENTICATED_BRAND),  # 45: the brand the findings read, which the register is asked
    run(PAYOUTS),  # 46: the payout sent through the bank's API, two people; the bank's events
)
VERSION = len(MIGRATIONS)


def version(db: sqlite3.Connection) -> int:
    """The number of migration steps this database has had."""
    return db.execute("PRAGMA user_version").fetchone()[0]


def migrate(db: sqlite3.Connection) -> None:
    """Apply the steps this database has not had yet, all in one transaction."""
    if version(db) >= VERSION:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        for step in MIGRATIONS[version(db) :]:
            step(db)
        db.execute(f"PRAGMA user_version = {VERSION}")
        db.commit()
    except BaseException:
        db.rollback()
        raise
