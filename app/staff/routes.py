"""The staff area: its URLs under /staff, each served by a view of app/staff/views/ (sign-in,
enrolment and the account; the leads inbox; the purchase on record and the register; the Google
Ads file; the buy-price guide; the dashboard), and how its errors read. Every view not marked
`public` needs a full aal2 session (app/staff/auth.py): the blueprint's guard closes any view
that forgets its decorator."""

from __future__ import annotations

from flask import Blueprint
from flask_wtf.csrf import CSRFError

from app import errors
from app.staff.auth import guard_blueprint
from app.staff.pages import FORM_EXPIRED, form_expired
from app.staff.views import (
    account,
    conversions,
    inbox,
    insights,
    mail_label,
    parcel_arrivals,
    payouts,
    prices,
    purchase,
    shipments,
)

bp = Blueprint("staff", __name__, url_prefix="/staff")
bp.before_request(guard_blueprint)
errors.word(bp, CSRFError, FORM_EXPIRED, form_expired)

bp.get("")(account.home)
bp.route("/login", methods=["GET", "POST"])(account.login)
bp.route("/login/code", methods=["GET", "POST"])(account.login_code)
bp.post("/logout")(account.logout)
bp.route("/confirm", methods=["GET", "POST"])(account.confirm)
bp.get("/account")(account.account)
bp.post("/account/sessions/<int:session_id>/end")(account.end_session)
bp.route("/account/password", methods=["GET", "POST"])(account.change_password)
bp.route("/account/recovery-codes", methods=["GET", "POST"])(account.new_recovery_codes)
bp.route("/enrol/<token>", methods=["GET", "POST"])(account.enrol)
bp.get("/leads")(inbox.leads)
bp.get("/leads/<int:lead_id>")(inbox.lead)
bp.post("/leads/<int:lead_id>/<action_name>")(inbox.act)
bp.post("/leads/<int:lead_id>/links/revoke")(inbox.revoke_links)
bp.post("/leads/<int:lead_id>/ad-opt-out")(inbox.mark_opted_out)
bp.route("/leads/<int:lead_id>/erase", methods=["GET", "POST"])(inbox.erase)
bp.get("/leads/<int:lead_id>/photos/<photo_id>")(inbox.lead_photo)
bp.get("/leads/<int:lead_id>/photos/<photo_id>/thumb")(inbox.lead_photo_thumb)
bp.get("/export")(inbox.export_leads)
bp.post("/leads/<int:lead_id>/findings")(purchase.findings)
bp.post("/leads/<int:lead_id>/register-check")(purchase.register_check)
bp.post("/leads/<int:lead_id>/id-verified")(purchase.verify_id)
bp.post("/leads/<int:lead_id>/tell-hold")(purchase.tell_hold)
bp.post("/leads/<int:lead_id>/exceptions/payment")(purchase.payment_exception)
bp.post("/leads/<int:lead_id>/exceptions/register-flag")(purchase.clear_flag)
bp.post("/leads/<int:lead_id>/exceptions/account-holder")(purchase.holder_name)
bp.post("/leads/<int:lead_id>/payout-call-back")(purchase.payout_callback)
bp.post("/leads/<int:lead_id>/exceptions/<int:approval_id>/approve")(purchase.approve_exception)
bp.post("/leads/<int:lead_id>/payout")(payouts.ask_payout)
bp.post("/leads/<int:lead_id>/payouts/<int:payout_id>/approve")(payouts.approve_payout)
bp.get("/leads/<int:lead_id>/paperwork")(purchase.paperwork)
bp.get("/leads/<int:lead_id>/purchase-files/<public_id>")(purchase.purchase_file)
bp.get("/register")(purchase.register_page)
bp.get("/register.csv")(purchase.register_csv)
bp.get("/conversions/google-ads.csv")(conversions.google_ads)
bp.get("/prices")(prices.prices)
bp.route("/prices/new", methods=["GET", "POST"])(prices.new_entry)
bp.route("/prices/<int:entry_id>", methods=["GET", "POST"])(prices.edit_entry)
bp.post("/prices/<int:entry_id>/remove")(prices.delete_entry)
bp.get("/prices.csv")(prices.export_prices)
bp.post("/prices/import")(prices.import_prices)
bp.post("/leads/<int:lead_id>/mail-label")(mail_label.buy_label)
bp.get("/shipments")(shipments.shipments)
bp.get("/shipments/declarations.csv")(shipments.declarations_csv)
bp.get("/shipments/<int:shipment_id>")(shipments.parcel)
bp.post("/shipments/<int:shipment_id>/claim")(shipments.open_claim)
bp.post("/shipments/<int:shipment_id>/claim/settle")(shipments.settle_claim)
bp.get("/leads/<int:lead_id>/arrival")(parcel_arrivals.parcel_arrival)
bp.post("/leads/<int:lead_id>/arrival")(parcel_arrivals.record_arrival)
bp.post("/leads/<int:lead_id>/arrival/sign-off")(parcel_arrivals.sign_off_arrival)
bp.get("/insights")(insights.dashboard)
bp.get("/insights/<table>.csv")(insights.dashboard_table)
