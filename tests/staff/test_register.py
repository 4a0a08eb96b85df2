"""The transaction register: one row per purchase paid in a period with what police
reporting asks for, the same from /staff/register and `flask purchases register`, each export
audited."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from datetime import date, timedelta

from cryptography.fernet import Fernet

from app.leads import store
from app.leads.db import transaction
from app.leads.display import business_zone, stored_time
from app.sale.purchase import register
from tests.data.paperwork import (
    ACCOUNT,
    BIRTH_DATE,
    FINDINGS,
    ID_NUMBER,
    ROUTING,
    SERIAL,
    VALID,
)
from tests.data.staff_purchase import buy, ready_to_buy
from tests.helpers import business_today

# The business's calendar, as the register's default period and the hold read it.
TODAY = business_today()
HEADER = [
    "Purchased at",
    "Reference",
    "Seller's legal name",
    "Street address",
    "City",
    "State",
    "ZIP code",
    "Date of birth",
    "ID type",
    "ID number",
    "ID issuer",
    "ID expiry",
    "Brand",
    "Model",
    "Model reference",
    "Serial number",
    "Case marks",
    "Movement marks",
    "Price paid (USD)",
    "Payment method",
    "Paid on",
    "Staff member",
    "Register checked",
    "Register checked on",
    "Register result",
    "Register reference",
    "Hold ends on",
]


def bought(app, paid_on: date, actor: str = "staff:1") -> int:
    """A lead taken through the whole purchase and bought, paid on `paid_on`."""
    lead_id = ready_to_buy(app)
    buy(app, lead_id, actor=actor, paid_on=paid_on.isoformat(), amount=7400)
    return lead_id


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def audit(app) -> list[tuple[str, int | None, dict]]:
    with app.app_context(), transaction() as db:
        rows = db.execute("SELECT action, staff_id, data FROM audit ORDER BY id").fetchall()
    return [(row["action"], row["staff_id"], json.loads(row["data"] or "{}")) for row in rows]


def test_each_purchase_is_one_row_with_every_column_police_reporting_asks_for(app, staff):
    staff.add("ana@example.com", "Ana Lima")
    lead_id = bought(app, TODAY, actor="staff:1")
    with app.app_context():
        with transaction() as db:  # the seller chose Tudor on /sell; staff read Rolex on it
            db.execute("UPDATE leads SET watch_brand = 'Tudor' WHERE id = ?", (lead_id,))
        text = register.csv_text(register.purchases_paid(TODAY, TODAY))
        lead = store.get_lead(lead_id)
        with transaction() as db:
            (bought_at,) = db.execute(
                "SELECT bought_at FROM lead_progress WHERE lead_id = ?", (lead_id,)
            ).fetchone()
        local = stored_time(bought_at).astimezone(business_zone())
    header, row = rows_of(text)
    assert header == HEADER
    values = dict(zip(header, row, strict=True))
    assert values == {
        "Purchased at": f"{local:%Y-%m-%d %H:%M %Z}",
        "Reference": lead["reference"],
        "Seller's legal name": VALID["legal_name"],
        "Street address": "41 Elm Street, Apt 3",
        "City": "Brooklyn",
        "State": "NY",
        "ZIP code": "11201",
        "Date of birth": BIRTH_DATE,
        "ID type": "Driver's license",
        "ID number": ID_NUMBER,
        "ID issuer": "New York",
        "ID expiry": VALID["id_expires_on"],
        "Brand": "Rolex",
        "Model": "Submariner",
        "Model reference": FINDINGS["model_reference"],
        "Serial number": SERIAL,
        "Case marks": FINDINGS["case_marks"],
        "Movement marks": FINDINGS["movement_marks"],
        "Price paid (USD)": "7400",
        "Payment method": "Wire transfer",
        "Paid on": TODAY.isoformat(),
        "Staff member": "Ana Lima",
        "Register checked": "Stolen Watch Register",
        "Register checked on": "2026-11-20",
        "Register result": "clear",
        "Register reference": "",  # recorded by hand: the register's reference comes by API
        "Hold ends on": (TODAY + timedelta(days=15)).isoformat(),
    }
    assert ROUTING not in text and ACCOUNT not in text  # bank details are not the register's


def test_the_period_includes_both_of_its_days_and_nothing_else(app):
    days = [TODAY - timedelta(days=n) for n in (0, 3, 4, 9)]
    leads = [bought(app, day) for day in days]
    with app.app_context():
        found = register.purchases_paid(days[2], days[1])
        references = {lead_id: store.get_lead(lead_id)["reference"] for lead_id in leads}
    assert [row["reference"] for row in found] == [references[leads[2]], references[leads[1]]]


def test_the_register_page_shows_the_last_30_days_and_links_the_download(app, signed_in):
    recent, old = bought(app, TODAY), bought(app, TODAY - timedelta(days=45))
    html = signed_in.get("/staff/register").get_data(as_text=True)
    after = business_today()
    with app.app_context():
        shown = store.get_lead(recent)["reference"]
        hidden = store.get_lead(old)["reference"]
    assert shown in html and hidden not in html
    assert re.search(r">1 purchase</span> paid from", html)
    last = date.fromisoformat(re.search(r'name="date_to"[^>]*value="([\d-]+)"', html)[1])
    assert last in {TODAY, after}  # the business's today, even when the run crosses midnight
    assert f'value="{(last - timedelta(days=29)).isoformat()}"' in html
    assert 'href="/staff/register.csv?date_from=' in html
    assert ID_NUMBER not in html and BIRTH_DATE not in html  # the page lists, the file tells
    assert '<a href="/staff/register"' in html  # in the staff navigation
    assert [action for action, _, _ in audit(app)].count("register_viewed") == 1


def test_the_download_is_the_periods_csv_and_is_audited(app, signed_in):
    bought(app, TODAY - timedelta(days=2))
    first, last = TODAY - timedelta(days=7), TODAY
    path = f"/staff/register.csv?date_from={first.isoformat()}&date_to={last.isoformat()}"
    response = signed_in.get(path)
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Cache-Control"] == "no-store"
    name = f"transaction-register-{first.isoformat()}-to-{last.isoformat()}.csv"
    assert response.headers["Content-Disposition"] == f'attachment; filename="{name}"'
    rows = rows_of(response.get_data(as_text=True))
    assert rows[0] == HEADER and len(rows) == 2 and rows[1][7] == BIRTH_DATE
    exported = [(who, data) for action, who, data in audit(app) if action == "register_exported"]
    assert exported == [(1, {"from": first.isoformat(), "to": last.isoformat(), "rows": 1})]


def test_a_period_that_ends_before_it_starts_is_refused(app, signed_in):
    bought(app, TODAY)
    query = "date_from=2026-11-10&date_to=2026-11-01"
    page = signed_in.get(f"/staff/register?{query}")
    assert page.status_code == 400 and "The last day is before the first." in page.text
    assert signed_in.get(f"/staff/register.csv?{query}").status_code == 400
    assert signed_in.get("/staff/register.csv?date_from=soon&date_to=2026-11-01").status_code == 400
    assert "register_exported" not in [action for action, _, _ in audit(app)]


def test_the_command_writes_the_same_register_and_is_audited(app, runner, tmp_path):
    bought(app, TODAY)
    period = ["--from", TODAY.isoformat(), "--to", TODAY.isoformat()]
    printed = runner.invoke(args=["purchases", "register", *period])
    assert printed.exit_code == 0, printed.output
    with app.app_context():
        expected = register.csv_text(register.purchases_paid(TODAY, TODAY))
    assert printed.stdout_bytes == expected.encode() and rows_of(expected)[1][9] == ID_NUMBER
    output = tmp_path / "register.csv"
    written = runner.invoke(args=["purchases", "register", *period, "--output", str(output)])
    assert written.exit_code == 0 and written.output == ""
    assert output.read_bytes() == expected.encode()
    assert os.stat(output).st_mode & 0o777 == 0o600  # it holds ID numbers
    exported = [(who, data) for action, who, data in audit(app) if action == "register_exported"]
    facts = {"from": TODAY.isoformat(), "to": TODAY.isoformat(), "rows": 1, "via": "cli"}
    assert exported == [(None, facts), (None, facts)]


def test_the_command_needs_a_valid_period(app, runner):
    missing = runner.invoke(args=["purchases", "register", "--from", "2026-11-01"])
    assert missing.exit_code == 2 and "--to" in missing.output
    backwards = runner.invoke(
        args=["purchases", "register", "--from", "2026-11-10", "--to", "2026-11-01"]
    )
    assert backwards.exit_code == 2 and "--to is before --from." in backwards.output
    assert "register_exported" not in [action for action, _, _ in audit(app)]


def test_a_purchase_no_key_opens_is_named_and_the_rest_exported(app, signed_in, runner):
    kept, broken = bought(app, TODAY), bought(app, TODAY)
    stranger = Fernet(Fernet.generate_key()).encrypt(b"1961-07-14").decode()  # another key's
    with app.app_context():
        with transaction() as db:
            db.execute(
                "UPDATE purchases SET birth_date_enc = ? WHERE lead_id = ?", (stranger, broken)
            )
        references = {lead: store.get_lead(lead)["reference"] for lead in (kept, broken)}
    page = signed_in.get("/staff/register")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    left_out = "Left out, because a value of theirs opens with none of the configured keys"
    assert f"{left_out}: {references[broken]}." in html
    assert "1 purchase</span> paid" in html and references[kept] in html
    download = signed_in.get(f"/staff/register.csv?date_from={TODAY}&date_to={TODAY}")
    assert download.status_code == 200
    assert [row[1] for row in rows_of(download.get_data(as_text=True))[1:]] == [references[kept]]
    result = runner.invoke(args=["purchases", "register", "--from", str(TODAY), "--to", str(TODAY)])
    assert result.exit_code == 1 and references[broken] in result.output
    assert references[kept] in result.output
    exported = [data for action, _, data in audit(app) if action == "register_exported"]
    assert exported[-1]["unreadable"] == [references[broken]]
