"""What erasures used to leave in leads.db (app/leads/schema/ runs it): what no record needs is
dropped for every lead; what a lead keeps until its erasure is dropped here from the leads
erased before this step, as their erasure drops it from now on."""

from __future__ import annotations

# The leads erased before this step.
ERASED_LEADS = "SELECT id FROM leads WHERE erased_at IS NOT NULL"
# The purchase records erased at their end, before this step or by its trigger's update.
RECORD_ERASED = "SELECT lead_id FROM purchases WHERE record_erased_at IS NOT NULL"

ERASURE_LEFTOVERS = (
    # Where the provider keeps a bought label's image (the seller's name and address on it):
    # never read here, since the status page fetches the label by the shipment's id.
    "ALTER TABLE shipments DROP COLUMN label_url",
    # Every stored tracking event cut to what the webhook keeps from now on (its EVENT_FIELDS
    # and TRACKER_FIELDS, as they were when this step was written): no scan's place, no name
    # of who signed, no public tracking page.
    """UPDATE shipment_events SET body = json_set(
        (SELECT json_group_object(key, value) FROM json_each(shipment_events.body)
            WHERE key IN ('id', 'object', 'description', 'mode', 'created_at')),
        '$.result',
        json((SELECT json_group_object(key, value) FROM json_each(shipment_events.body, '$.result')
            WHERE key IN ('id', 'object', 'tracking_code', 'status', 'status_detail', 'carrier',
                'weight'))))""",
    # The ZIP code a confirmed return address's event carried (the timeline is rewritten only
    # for an erased lead, which these are).
    f"""UPDATE lead_events SET data = json_remove(data, '$.zip')
        WHERE kind = 'return_address_confirmed' AND json_type(data, '$.zip') IS NOT NULL
        AND lead_id IN ({ERASED_LEADS})""",
    # A claim's note, staff's own words, may name the seller, and claims are kept for ever:
    # its one change besides the settlement (and the day a parcel claimed lost turned up, set
    # once: step 41) is now to be blanked, by its lead's erasure.
    "DROP TRIGGER shipment_claims_settled_once",
    """CREATE TRIGGER shipment_claims_kept BEFORE UPDATE ON shipment_claims
        WHEN NEW.id IS NOT OLD.id OR NEW.shipment_id IS NOT OLD.shipment_id
            OR NEW.kind IS NOT OLD.kind OR NEW.insurer_reference IS NOT OLD.insurer_reference
            OR NEW.opened_by IS NOT OLD.opened_by OR NEW.opened_at IS NOT OLD.opened_at
            OR (OLD.state <> 'open' AND (NEW.state IS NOT OLD.state
                OR NEW.amount IS NOT OLD.amount OR NEW.settled_by IS NOT OLD.settled_by
                OR NEW.settled_at IS NOT OLD.settled_at))
            OR (OLD.delivered_at IS NOT NULL AND NEW.delivered_at IS NOT OLD.delivered_at)
            OR (NEW.note IS NOT OLD.note AND (NEW.note <> '' OR (SELECT erased_at FROM leads
                WHERE id = (SELECT lead_id FROM shipments WHERE id = OLD.shipment_id)) IS NULL))
        BEGIN SELECT RAISE(ABORT, 'a claim changes only by its settlement, once'); END""",
    f"""UPDATE shipment_claims SET note = '' WHERE note <> '' AND shipment_id IN
        (SELECT id FROM shipments WHERE lead_id IN ({ERASED_LEADS}))""",
    # The payout account's checks (each names it by its last 4 digits) of a closed lead erased,
    # or of a purchase record erased at its end.
    f"""DELETE FROM payout_checks WHERE lead_id IN ({ERASED_LEADS} AND state <> 'bought')
        OR lead_id IN ({RECORD_ERASED})""",
    # An exception's reason (staff's own words) and a holder's name approval's subject (a
    # digest of two names) are kept with the purchase record, and blanked with it at its end:
    # the one change the approvals' trigger allows an approval once given.
    "DROP TRIGGER approvals_kept",
    f"""CREATE TRIGGER approvals_kept BEFORE UPDATE ON approvals
        WHEN NEW.id IS NOT OLD.id OR NEW.lead_id IS NOT OLD.lead_id OR NEW.kind IS NOT OLD.kind
          OR NEW.requested_by IS NOT OLD.requested_by OR NEW.requested_at IS NOT OLD.requested_at
          OR NEW.deal IS NOT OLD.deal OR NEW.signing IS NOT OLD.signing
          OR (OLD.approved_by IS NOT NULL AND (NEW.approved_by IS NOT OLD.approved_by
            OR NEW.approved_at IS NOT OLD.approved_at))
          OR ((NEW.subject IS NOT OLD.subject OR NEW.reason IS NOT OLD.reason)
            AND (NEW.subject NOT IN ('', OLD.subject) OR NEW.reason NOT IN ('', OLD.reason)
              OR OLD.lead_id NOT IN ({RECORD_ERASED})))
        BEGIN SELECT RAISE(ABORT, 'an approval is given once and never changed'); END""",
    f"""UPDATE approvals SET reason = '', subject = CASE kind WHEN 'holder_name' THEN ''
        ELSE subject END WHERE lead_id IN ({RECORD_ERASED})""",
)
