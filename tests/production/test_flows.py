"""Every seller and staff flow in headless Chromium over https://, behind nginx, on gunicorn in
production settings, with Redis, the rq worker and a TLS-only SMTP relay: with JavaScript on,
and again with it off: from the sell form through the final offer, the seller's paperwork and
the ID check to the bill of sale and receipt the worker renders. No action may be refused; every
cookie is a `__Host-` one, Secure, and sent back."""

from __future__ import annotations

import io
import re
from contextlib import closing
from pathlib import Path

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.browser.helpers import (
    DESKTOP,
    authenticate,
    do,
    enrol,
    expect_state,
    fill_paperwork,
    open_page,
    sign_in,
)
from tests.data import paperwork
from tests.data.paperwork import ACCOUNT, SECRETS, id_photo
from tests.data.photos import write_photos
from tests.data.prices import SUB_LINE
from tests.data.validation_cases import VALID
from tests.front import HttpsClient
from tests.helpers import business_today, wait_until
from tests.production.steps import (
    CONFIRMATION,
    ERASURE_PATH,
    IN_PERSON,
    body_text,
    event_kinds,
    lead_by_email,
    leads_db,
    link_in,
    mail_to,
    submit_lead,
)

SUCCESS = "Form submitted successfully!"
PAYOUT_PATH = re.compile(r"/status/payout/[A-Za-z0-9_-]{20,}")
LEGAL_NAME = paperwork.VALID["legal_name"]  # as the seller types it on the paperwork
MODES = pytest.mark.parametrize("java_script_enabled", [True, False], ids=["js", "no-js"])


@pytest.fixture(scope="module")
def photos(tmp_path_factory) -> list[Path]:
    return write_photos(tmp_path_factory.mktemp("production-photos"), 3, size=(1600, 1200))


@pytest.fixture(scope="module")
def id_photos(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("production-id")
    front, back = folder / "front.jpg", folder / "back.jpg"
    front.write_bytes(id_photo(1))
    back.write_bytes(id_photo(2))
    return front, back


def pdf_text(data: bytes) -> str:
    """Every page's text, read back as a PDF reader would."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


class CookieWatch:
    """The site's pages a tab asked for; afterwards, the cookies each request carried."""

    def __init__(self, page, origin: str):
        self.requests = []
        page.on("request", lambda r: self.record(r, origin))

    def record(self, request, origin: str) -> None:
        if request.url.startswith(origin) and request.is_navigation_request():
            self.requests.append(request)

    def cookies_sent(self) -> list[str]:
        """The Cookie header of every page request but the first (before any cookie was set)."""
        return [request.all_headers().get("cookie", "") for request in self.requests[1:]]


def assert_cookies_are_host_only_and_secure(context) -> None:
    cookies = context.cookies()
    assert cookies, "the site set no cookie"
    for cookie in cookies:
        assert cookie["name"].startswith("__Host-"), cookie["name"]
        assert cookie["secure"] and cookie["httpOnly"] and cookie["path"] == "/", cookie
        assert cookie["sameSite"] in ("Lax", "Strict"), cookie


def fill_sell_form(page, name: str, email: str, photos: list[Path]) -> None:
    values = VALID | {"fullName": name, "email": email}
    for field in ("fullName", "email", "phone", "watchModel", "watchYear", "additionalDetails"):
        page.fill(f"#field-{field}", values[field])
    page.select_option("#field-watchBrand", values["watchBrand"])
    page.select_option("#field-watchCondition", values["watchCondition"])
    page.check("#field-hasBox")
    page.fill("#field-postalCode", IN_PERSON["postalCode"])
    page.check("#field-handover")  # in person, the first choice
    page.set_input_files("#field-photos", [str(p) for p in photos])


def staff_signed_in(site, browser, email: str, java_script_enabled: bool):
    """A staff member enrolled from the link `flask staff add` prints, signed in with a TOTP
    code computed here as an authenticator app would."""
    link = site.flask("staff", "add", email, "--name", "Marta Ruiz").strip().splitlines()[-1]
    assert link.startswith(site.url + "/staff/enrol/")
    context, page = open_page(browser, site, DESKTOP, java_script_enabled)
    secret = enrol(page, link)
    sign_in(page, site, email, secret)
    expect(page).to_have_url(site.url + "/staff/leads")
    return context, page


def seller_notice(page) -> str:
    return page.locator("[data-notice]").inner_text()


@MODES
def test_seller_and_staff_take_a_lead_from_the_form_to_bought_and_the_papers(
    site, site_browser, photos, id_photos, java_script_enabled
):
    mode = "js" if java_script_enabled else "nojs"
    name, email = f"Dana Secure {mode.upper()}", f"dana.{mode}@example.com"
    seller_context, seller = open_page(site_browser, site, DESKTOP, java_script_enabled)
    seller_cookies = CookieWatch(seller, site.url)

    # The seller sends the form with two photos.
    seller.goto(site.url + "/sell")
    fill_sell_form(seller, name, email, photos[:2])
    seller.click("#sell-form button[type=submit]")
    expect(seller.get_by_text(SUCCESS)).to_be_visible(timeout=30_000)

    # ... reads the confirmation e-mail (sent over verified STARTTLS) and follows its link.
    path = link_in(mail_to(site, email, CONFIRMATION)[0])
    seller.goto(site.url + path)
    expect(seller.get_by_role("heading", level=1)).to_be_visible()

    # ... asks a question and adds a photo.
    seller.fill("#question", "Can you collect the watch in Hoboken?")
    seller.get_by_role("button", name="Send question").click()
    assert "your question is with our team" in seller_notice(seller)
    seller.locator("[data-island=AddPhotos]").scroll_into_view_if_needed()
    if java_script_enabled:
        expect(seller.locator("[data-island=AddPhotos]")).to_have_attribute("data-hydrated", "true")
    seller.set_input_files("#field-photos", [str(photos[2])])
    seller.get_by_role("button", name="Send photos").click()
    expect(seller.locator("[data-notice]")).to_contain_text("your new photos are with your enquiry")

    # Staff enrol, sign in, find the lead with its three photos and send a quote.
    staff_context, staff = staff_signed_in(site, site_browser, f"desk.{mode}@example.com",
                                           java_script_enabled)  # fmt: skip
    staff_cookies = CookieWatch(staff, site.url)
    staff.get_by_role("link", name=name).click()
    expect(staff.locator("#photos img")).to_have_count(3)
    expect(staff.locator("#timeline")).to_contain_text("Can you collect the watch in Hoboken?")
    as_staff = HttpsClient(site.front)  # with the tab's cookies, as its own requests send them
    as_staff.cookies = {cookie["name"]: cookie["value"] for cookie in staff_context.cookies()}
    photo = as_staff.get(staff.locator("#photos a").first.get_attribute("href"))
    assert photo.status == 200 and photo.getheader("Content-Type") == "image/jpeg"
    do(staff, "contacted", {"Note (optional)": "Called the seller."}, "Mark contacted")
    expect_state(staff, "the lead is now Contacted")
    do(staff, "quote", {"Amount, or low end of a range (USD)": "8200",
                        "Valid until": "2099-06-30"}, "Send quote to the seller")  # fmt: skip
    expect_state(staff, "the lead is now Quoted")

    # The seller accepts the quote from the status page.
    seller.goto(site.url + path)
    seller.get_by_role("button", name="Accept the quote").click()
    assert "you have accepted our preliminary quote" in seller_notice(seller)

    # Staff book the appointment; the seller downloads it as a calendar file.
    staff.reload()
    expect(staff.locator("#timeline")).to_contain_text("Seller accepted the quote")
    booking = {"Date": "2099-07-02", "Time": "11:00", "Place": "88 Greenwich Ave, New York"}
    do(staff, "appointment", booking, "Book and e-mail")
    expect_state(staff, "the lead is now Appointment")
    seller.goto(site.url + path)
    with seller.expect_download() as download:
        seller.get_by_role("link", name=re.compile("calendar", re.I)).click()
    calendar = Path(download.value.path()).read_text()
    assert "BEGIN:VEVENT" in calendar and "88 Greenwich Ave" in calendar
    assert email not in calendar and name not in calendar

    # At authentication staff record the findings and a clear register check, then the final
    # offer; the seller accepts it on the status page and signs the paperwork with their ID.
    authenticate(staff)
    do(staff, "offer", {"Final offer (USD)": "8100", "Valid until": "2099-07-09"},
       "Record and e-mail the offer")  # fmt: skip
    expect_state(staff, "the lead is now Final offer")
    seller.goto(site.url + path)
    seller.get_by_role("button", name="Accept the offer").click()
    assert "you have accepted our final offer" in seller_notice(seller)
    seller.get_by_role("link", name="Complete the sale paperwork").click()
    fill_paperwork(seller, id_photos)
    seller.get_by_role("button", name="Sign and send").click()
    if not java_script_enabled:  # the declaration the page showed did not bear the name yet
        expect(seller.locator("[data-read-declaration]")).to_be_visible()
        expect(seller.locator("[data-declaration]")).to_contain_text(
            "I, Jordan A. Avery, am selling"
        )
        seller.get_by_role("button", name="Sign and send").click()  # nothing typed again
    expect(seller.locator("[data-paperwork-signed]")).to_contain_text("ending 5566")

    # ... and confirms the account we pay from the e-mail the signing sent to the address on file.
    confirming = mail_to(site, email, "Confirm the account we pay")[0]
    seller.goto(site.url + link_in(confirming, PAYOUT_PATH))
    expect(seller.locator("[data-account-last4]")).to_have_text("5566")
    seller.get_by_role("button", name="Yes, pay into this account").click()
    expect(seller.locator("[data-notice]")).to_contain_text("the account is confirmed")

    # Staff check the ID on the paperwork page (full numbers, ID photos) and record the payment.
    staff.reload()
    staff.get_by_role("link", name="View full paperwork").click()
    expect(staff.get_by_role("img", name="Front of the seller's ID")).to_have_js_property(
        "complete", True
    )
    assert ACCOUNT in staff.content()
    staff.get_by_label("I have compared the ID photos and details with the seller").check()
    staff.get_by_role("button", name="Record: ID verified").click()
    expect_state(staff, "ID verified")

    # Paying another amount than the accepted offer takes a second staff member: one asks, the
    # other approves from their own account; then the first records the payment.
    lead_page = f"{site.url}/staff/leads/{lead_by_email(site, email)['id']}"
    staff.goto(lead_page)
    staff.get_by_text("Ask to pay another amount than the accepted offer").click()
    staff.locator("[name=payment_exception-amount]").fill("8050")
    staff.locator("[name=payment_exception-reason]").fill("A link of the bracelet is missing.")
    staff.get_by_role("button", name="Ask for approval").click()
    expect(staff.get_by_text("Waiting for another staff member to approve it")).to_be_visible()
    approver_context, approver = staff_signed_in(
        site, site_browser, f"second.{mode}@example.com", java_script_enabled
    )
    approver.goto(lead_page)
    expect(
        approver.get_by_text("Pay $8,050 instead of the accepted offer of $8,100")
    ).to_be_visible()
    approver.get_by_role("button", name="Approve this exception").click()
    expect(approver.get_by_text("Exception approved: recorded")).to_be_visible()
    approver_context.close()
    staff.goto(lead_page)
    do(staff, "bought", {"Amount paid (USD)": "8050", "Bank's confirmation number": "ACH-77120"},
       "Mark bought and e-mail receipt")  # fmt: skip
    expect_state(staff, "the lead is now Bought")
    assert lead_by_email(site, email)["state"] == "bought"

    # The worker renders the bill of sale and the receipt: attached to the "paid" e-mail, and
    # downloaded from the status page, the same files; their text says what was sold.
    paid = mail_to(site, email, "Payment sent")[0]
    attached = {part.get_filename(): part.get_content() for part in paid.iter_attachments()}
    assert len(attached) == 2 and all(name.endswith(".pdf") for name in attached)
    seller.goto(site.url + path)
    downloads = {}
    for title in ("Bill of sale", "Receipt"):
        with seller.expect_download() as download:
            seller.get_by_role("link", name=f"{title} (PDF)").click()
        downloads[title] = Path(download.value.path()).read_bytes()
    assert set(downloads.values()) == set(attached.values())
    bill, receipt = pdf_text(downloads["Bill of sale"]), pdf_text(downloads["Receipt"])
    for text in (LEGAL_NAME, "$8,050", "for $8,100", "81234567", "Seller's declaration",
                 "ending 5566"):  # fmt: skip
        assert text in " ".join(bill.split()), text
    for text in ("$8,050", "ACH-77120", "ACH bank transfer"):
        assert text in receipt, text
    for secret in SECRETS:
        assert secret not in bill and secret not in receipt and secret not in body_text(paid)

    staff.goto(site.url + "/staff/leads")
    export_link = staff.get_by_role("link", name="Export CSV").get_attribute("href")
    export = as_staff.get(export_link)
    assert export.status == 200 and "attachment" in export.getheader("Content-Disposition")
    assert email in export.body.decode()

    # Asked by phone, staff erase the seller's details; the purchase record and papers stay.
    lead = lead_by_email(site, email)
    staff.goto(f"{site.url}/staff/leads/{lead['id']}")
    staff.get_by_role("link", name="Erase personal data").click()
    staff.get_by_label("Type the lead's reference to confirm").fill(lead["reference"])
    staff.get_by_role("button", name="Erase for good").click()
    expect_state(staff, "The purchase record, bill of sale and receipt are kept until")
    assert lead_by_email(site, email) is None and site.front.request("GET", path).status == 404
    assert event_kinds(site, lead["id"])[-2:] == ["payout_details_erased", "erased"]
    with leads_db(site) as db:
        kept = db.execute("SELECT * FROM purchases WHERE lead_id = ?", (lead["id"],)).fetchone()
    assert kept["legal_name"] == LEGAL_NAME and kept["account_number_enc"] is None

    for context, page, watch in ((seller_context, seller, seller_cookies),
                                 (staff_context, staff, staff_cookies)):  # fmt: skip
        assert_cookies_are_host_only_and_secure(context)
        sent = watch.cookies_sent()
        assert sent and all("__Host-session=" in cookie for cookie in sent), sent
        context.close()
        assert not page.problems.lines, "\n".join(page.problems.lines)


@MODES
def test_seller_recovers_a_lost_link_then_withdraws_with_erasure(
    site, site_browser, java_script_enabled
):
    mode = "js" if java_script_enabled else "nojs"
    email = f"nora.{mode}@example.com"
    first_path = submit_lead(site, email, fullName=f"Nora Secure {mode.upper()}")
    context, page = open_page(site_browser, site, DESKTOP, java_script_enabled)

    # The lost-link form mails a new link; the old one stops working once it is sent.
    page.goto(site.url + "/status")
    page.get_by_label("E-mail address").fill(email)
    page.get_by_role("button", name=re.compile("link", re.I)).click()
    expect(page.locator("body")).to_contain_text("we have e-mailed it a new link")
    new_path = link_in(mail_to(site, email, "Your link to follow")[0])
    assert new_path != first_path
    # The job revokes the old link just after it hands the new one to the mail server.
    wait_until(lambda: site.front.request("GET", first_path).status == 404, timeout=10)

    # Withdrawing with erasure waits for the link e-mailed to the seller's address.
    page.goto(site.url + new_path)
    page.get_by_text("Withdraw your watch").click()
    page.get_by_label(re.compile("Yes, withdraw my")).check()
    page.get_by_label(re.compile("Also delete my details")).check()
    page.get_by_role("button", name=re.compile("Withdraw", re.I)).click()
    expect(page.locator("[data-notice]")).to_contain_text("e-mail")
    assert lead_by_email(site, email)["full_name"] == f"Nora Secure {mode.upper()}"
    erasure_mail = mail_to(site, email, "Confirm: delete")[0]
    page.goto(site.url + link_in(erasure_mail, ERASURE_PATH))
    page.get_by_role("button", name=re.compile("Delete", re.I)).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your details are being deleted")

    last = mail_to(site, email, "We are deleting")[0]
    assert new_path not in body_text(last)

    def erased():
        return site.front.request("GET", new_path).status == 404

    wait_until(erased, timeout=30)
    assert lead_by_email(site, email) is None
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)


@MODES
def test_a_seller_sees_the_guides_range_over_https(site, site_browser, photos, java_script_enabled):
    mode = "js" if java_script_enabled else "nojs"
    email = f"rhea.{mode}@example.com"
    with closing(leads_db(site)) as db, db:  # staff's entry, set today (production: no samples)
        db.execute(
            "INSERT OR IGNORE INTO price_guide (brand, reference, names, low, high, excellent, "
            "good, fair, no_box, no_papers, set_by, set_on) "
            "VALUES ('Rolex', '126610LN', 'Submariner Date', 9500, 10800, 5, -10, -25, -5, -8, "
            "'staff:1', ?)",
            (business_today().isoformat(),),
        )
    context, page = open_page(site_browser, site, DESKTOP, java_script_enabled)
    page.goto(site.url + "/sell")
    fill_sell_form(page, f"Rhea Range {mode.upper()}", email, photos[:1])
    page.fill("#field-watchModel", "Submariner 126610 LN")
    page.check("#field-hasPapers")
    if java_script_enabled:
        expect(page.locator("[data-instant-range]")).to_contain_text(SUB_LINE)
    page.click("#sell-form button[type=submit]")
    if java_script_enabled:  # the toast: the reference, then the range
        toast = page.get_by_text(re.compile(r"Your reference: USWB-\w+\. Typically \$9,500"))
        expect(toast).to_be_visible(timeout=30_000)
    else:
        page.wait_for_url("**/sell/thanks")
        expect(page.locator("[data-instant-range]")).to_contain_text(SUB_LINE)
    assert "126610LN" in lead_by_email(site, email)["instant_range"]
    context.close()
