"""The sale by mail's parcels for staff: by tab, each opening its page and its lead from there,
the insurer's monthly declaration as an audited download; signed-in staff only, and only while
the business sells by mail."""

from __future__ import annotations

import csv
import io

from app.leads import audit
from app.leads.db import transaction
from tests.helpers import lead_work_done
from tests.shipping.fake_easypost import FakeEasyPost
from tests.shipping.steps import bought_label, deliver, mailin_settings, tracking_event


def selling_by_mail(app, fake: FakeEasyPost) -> None:
    app.config.update(mailin_settings(fake) | {"MAILIN_ENABLED": True, "MAILIN_MAX_VALUE": 25000,
                                               "EASYPOST_TIMEOUT": 1})  # fmt: skip
    app.extensions.pop("easypost", None)


def test_staff_see_each_parcel_under_its_tab(app, signed_in):
    fake = FakeEasyPost()
    try:
        selling_by_mail(app, fake)
        waiting, arrived = bought_label(app), bought_label(app)
        deliver(app.test_client(), tracking_event(arrived["tracking_code"], "delivered"))
        lead_work_done(app)
        on_the_way = signed_in.get("/staff/shipments").get_data(as_text=True)
        to_open = signed_in.get("/staff/shipments?tab=to-open").get_data(as_text=True)
        parcel_page = signed_in.get(f"/staff/shipments/{arrived['id']}").get_data(as_text=True)
    finally:
        fake.stop()
    assert waiting["tracking_code"] in on_the_way and arrived["tracking_code"] not in on_the_way
    assert arrived["tracking_code"] in to_open and waiting["tracking_code"] not in to_open
    assert f'href="/staff/shipments/{arrived["id"]}"' in to_open
    assert f'href="/staff/leads/{arrived["lead_id"]}"' in parcel_page
    assert 'href="/staff/shipments?tab=on-the-way" aria-current="page"' in on_the_way
    assert "HV-PARCEL-2026-0417" in on_the_way and "$25,000" in on_the_way


def test_staff_read_a_parcels_days_as_every_page_writes_dates_on_the_businesss_own_day(
    app, signed_in
):
    fake = FakeEasyPost()
    try:
        selling_by_mail(app, fake)
        parcel = bought_label(app)
        with app.app_context(), transaction() as db:  # 10:30 pm in New York, the next day in UTC
            db.execute("UPDATE shipments SET bought_at = '2026-11-25T03:30:00+00:00', "
                       "first_scan_at = '2026-11-26T15:00:00+00:00'")  # fmt: skip
        pages = [signed_in.get(path).get_data(as_text=True)
                 for path in ("/staff/shipments", f"/staff/shipments/{parcel['id']}")]  # fmt: skip
    finally:
        fake.stop()
    for page in pages:
        assert "24 November 2026" in page and "2026-11-2" not in page
    assert "26 November 2026" in pages[1]


def test_the_declaration_downloads_and_is_audited(app, signed_in):
    fake = FakeEasyPost()
    try:
        selling_by_mail(app, fake)
        parcel = bought_label(app)
        deliver(app.test_client(), tracking_event(parcel["tracking_code"], "in_transit"))
        lead_work_done(app)
        month = parcel["bought_at"][:7]
        answer = signed_in.get(f"/staff/shipments/declarations.csv?month={month}")
    finally:
        fake.stop()
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    assert f'filename="shipping-declaration-{month}.csv"' in answer.headers["Content-Disposition"]
    [row] = list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))
    assert row["tracking_code"] == parcel["tracking_code"]
    with app.app_context():
        [entry] = [e for e in audit.entries() if e["action"] == "shipments_declared"]
    assert entry["data"] == {"month": month, "count": 1}
    assert signed_in.get("/staff/shipments/declarations.csv?month=11-2026").status_code == 400


def test_the_declaration_needs_both_factors_again_recently(app, signed_in, staff):
    app.config["MAILIN_ENABLED"] = True
    staff.backdate_sessions("verified_at", 6)  # STAFF_REAUTH_MINUTES is 5
    answer = signed_in.get("/staff/shipments/declarations.csv?month=2026-11")
    assert answer.status_code == 303 and answer.headers["Location"] == "/staff/confirm"
    assert answer.mimetype != "text/csv"
    with app.app_context():
        assert not [e for e in audit.entries() if e["action"] == "shipments_declared"]


def test_nobody_signed_out_sees_the_parcels(app, client):
    app.config["MAILIN_ENABLED"] = True
    for path in ("/staff/shipments", "/staff/shipments/declarations.csv?month=2026-11"):
        answer = client.get(path)
        assert answer.status_code == 303 and "/staff/login" in answer.headers["Location"]


def test_without_the_sale_by_mail_there_is_no_shipments_page(app, signed_in):
    assert signed_in.get("/staff/shipments").status_code == 404
    assert "/staff/shipments" not in signed_in.get("/staff/leads").get_data(as_text=True)
