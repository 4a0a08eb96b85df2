"""Staff are e-mailed, over a real SMTP server on loopback, when the transaction register leaves
out a purchase no configured key opens: once per lead and day however often the register is
read, with what to do, and never with the seller's numbers."""

from __future__ import annotations

from app.leads import history
from app.leads.db import transaction
from app.sale.purchase import record, register
from tests.data.paperwork import ACCOUNT, BIRTH_DATE
from tests.helpers import business_today, fill_purchase_record, lead_work_done, save_sample_lead
from worker.record_alerts import ALERTED, TITLE

STAFF = "buyers@watches.example"


def test_a_purchase_left_out_of_the_register_alerts_staff_once_a_day(
    make_app, mail_settings, smtp_server
):
    app = make_app(**mail_settings, STAFF_EMAIL=STAFF)
    kept, broken = save_sample_lead(app), save_sample_lead(app)
    today = business_today()
    with app.app_context():
        for lead_id in (kept, broken):
            fill_purchase_record(lead_id)
        with transaction() as db:
            db.execute("UPDATE purchases SET paid_on = ?", (today.isoformat(),))
            moved = record.get(kept)["account_number_enc"]
            db.execute("UPDATE purchases SET birth_date_enc = ? WHERE lead_id = ?", (moved, broken))
        for _ in range(2):  # the register read twice the same day
            shown = register.register_of(today, today)
    lead_work_done(app)

    assert len(shown.rows) == 1 and len(shown.unreadable) == 1
    [alert] = [m for m in smtp_server.messages if m["To"] == STAFF]
    assert TITLE in alert["Subject"] and shown.unreadable[0] in alert["Subject"]
    body = alert.get_content()
    assert "flask purchases check-keys" in body and f"/staff/leads/{broken}" in body
    assert ACCOUNT not in body and BIRTH_DATE not in body
    with app.app_context():
        kinds = [event["kind"] for event in history.lead_events(broken)]
    assert kinds.count(ALERTED) == 1
