"""The stolen-watch register asked by API in the production shape: staff record the findings
through nginx, and the real rq worker asks the register's fake (tests/sale/purchase/
fake_register.py) over TLS with the throwaway CA's certificate, trusted through SSL_CERT_FILE.
A clear answer becomes the purchase's check by "register_api" with the register's reference and
its certificate stored (staff open it through nginx); a flagged one holds the sale and brings
staff the FLAGGED e-mail through the TLS relay, naming no serial number. The register's key
goes with every question and never into a process's log."""

from __future__ import annotations

from contextlib import closing

from playwright.sync_api import expect

from tests.browser.helpers import DESKTOP, do, expect_state, open_page
from tests.front import HttpsClient
from tests.helpers import wait_until
from tests.production.conftest import REGISTER_KEY
from tests.production.steps import lead_by_email, leads_db, mail_to, submit_lead
from tests.production.test_flows import staff_signed_in

FLAGGED = "Stolen-watch register: FLAGGED, the sale is on hold"
SERIALS = {"clear": "RG4410CL", "flagged": "RG4410FL"}  # as the register is asked them


def purchase(site, lead_id: int) -> dict | None:
    """The lead's purchase row as the live leads.db holds it (None before there is one)."""
    with closing(leads_db(site)) as db:
        row = db.execute("SELECT * FROM purchases WHERE lead_id = ?", (lead_id,)).fetchone()
        return dict(row) if row else None


def checked(site, lead_id: int) -> dict:
    """The purchase row once a register check by API stands on it, waited for."""
    try:
        return wait_until(lambda: (row := purchase(site, lead_id))
                          and row["register_recorded_by"] == "register_api" and row,
                          timeout=60)  # fmt: skip
    except AssertionError:
        raise AssertionError(f"no check by API for lead {lead_id}\n{site.logs()}") from None


def findings_recorded(site, browser, staff, who: str, serial: str) -> dict:
    """A lead sent through the front, quoted, accepted by its seller and booked by staff, its
    findings (naming `serial`) then posted on the lead's page; the lead's row."""
    name, email = f"Avery Register {who.title()}", f"avery.register.{who}@example.com"
    path = submit_lead(site, email, fullName=name)
    staff.goto(site.url + "/staff/leads")
    staff.get_by_role("link", name=name).click()
    lead_page = staff.url
    do(staff, "quote", {"Amount, or low end of a range (USD)": "8200",
                        "Valid until": "2099-06-30"}, "Send quote to the seller")  # fmt: skip
    expect_state(staff, "the lead is now Quoted")
    context, seller = open_page(browser, site, DESKTOP)
    seller.goto(site.url + path)
    seller.get_by_role("button", name="Accept the quote").click()
    expect(seller.locator("[data-notice]")).to_contain_text("accepted our preliminary quote")
    context.close()
    staff.goto(lead_page)
    booking = {"Date": "2099-07-02", "Time": "11:00", "Place": "88 Greenwich Ave, New York"}
    do(staff, "appointment", booking, "Book and e-mail")
    expect_state(staff, "the lead is now Appointment")
    findings = {"Brand": "Rolex", "Model reference number": "126610LN", "Serial number": serial,
                "Condition findings": "Bezel insert faded; dial and hands original."}  # fmt: skip
    do(staff, "findings", findings, "Save findings")
    expect_state(staff, "Findings recorded.")
    return dict(lead_by_email(site, email))


def test_the_worker_asks_the_register_over_tls_clear_is_recorded_and_flagged_holds(
    site, site_browser
):
    register = site.register
    register.answer(SERIALS["flagged"], "flagged")
    staff_context, staff = staff_signed_in(site, site_browser, "desk.register@example.com", True)
    clear = findings_recorded(site, site_browser, staff, "clear", SERIALS["clear"])
    flagged = findings_recorded(site, site_browser, staff, "flagged", SERIALS["flagged"])

    # The clear one: the check by API, with the register's own reference and certificate.
    kept = checked(site, clear["id"])
    [asked] = [r for r in list(register.searches())
               if r["body"]["serial_number"] == SERIALS["clear"]]  # fmt: skip
    assert asked["answer"]["certificate_url"].startswith("https://127.0.0.1:")
    assert kept["register_result"] == "clear"
    assert kept["register_reference"] == asked["answer"]["reference"]
    assert kept["register_provider"] == "The Watch Register"
    with closing(leads_db(site)) as db:
        stored = db.execute("SELECT * FROM purchase_files WHERE public_id = ?",
                            (kept["register_certificate"],)).fetchone()  # fmt: skip
    assert stored is not None and stored["kind"] == "register_certificate"
    staff.goto(f"{site.url}/staff/leads/{clear['id']}")
    as_staff = HttpsClient(site.front)
    as_staff.cookies = {cookie["name"]: cookie["value"] for cookie in staff_context.cookies()}
    link = staff.get_by_role("link", name="Open the certificate").first.get_attribute("href")
    certificate = as_staff.get(link)
    assert certificate.status == 200 and certificate.body.startswith(b"%PDF")

    # The flagged one: held, and staff told by e-mail without the serial number.
    assert checked(site, flagged["id"])["register_result"] == "flagged"
    [alert] = mail_to(site, site.env["STAFF_EMAIL"], f"{flagged['reference']}: {FLAGGED}")
    assert SERIALS["flagged"] not in alert.as_string()

    # Every question and certificate went with the key, over TLS; no log holds it.
    searches = [r for r in list(register.searches())
                if r["body"]["serial_number"] in SERIALS.values()]  # fmt: skip
    certificates = {f"/api/certificates/{r['answer']['reference']}.pdf" for r in searches}
    ours = searches + [r for r in list(register.requests) if r["path"] in certificates]
    assert len(ours) == 4, ours  # two searches, two certificates
    assert {r["auth"] for r in ours} == {f"Bearer {REGISTER_KEY}"}
    assert not [log.name for log in site.folder.glob("*.log") if REGISTER_KEY in log.read_text()]
    staff_context.close()
    assert not staff.problems.lines, "\n".join(staff.problems.lines)
