"""The whole sale by mail in the production shape: a seller in Boise sends /sell by mail through
nginx over TLS; staff quote; the seller accepts and gives the return address (checked by the
label provider's fake, itself over TLS), the ID's photos and the conditions; staff verify the
ID and the real rq worker buys the label from the fake; the seller downloads the 4x6 PDF
through nginx; signed webhooks through nginx move the parcel in transit then delivered, each
bringing the seller an e-mail through the TLS relay (the first with the carrier's measured
weight); staff open it on record, weighed against that weight, and make the final offer. One
seller accepts it; another declines, and the worker buys the free return's label, tracked to
delivered with the seller's two e-mails about it. Each label is bought once; no tracking number
is in any e-mail or log."""

from __future__ import annotations

import io
import time
from contextlib import closing

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.browser.helpers import DESKTOP, authenticate, do, expect_state, open_page
from tests.browser.mail_pages import gives_the_three_parts, photo, records_the_arrival
from tests.data.validation_cases import VALID
from tests.front import HttpsClient
from tests.helpers import wait_until
from tests.production.conftest import WEBHOOK_SECRET
from tests.production.steps import STATUS_PATH, body_text, lead_by_email, leads_db, link_in, mail_to
from tests.production.test_flows import staff_signed_in
from tests.shipping.steps import signed, tracking_event

MAIL_CHOSEN = "You chose to sell by insured mail"
WATCH = f"{VALID['watchBrand']} {VALID['watchModel']}"  # as the seller's e-mails name it


def parcel(site, lead_id: int, leg: str = "inbound") -> dict | None:
    """The lead's parcel of `leg` as the live leads.db holds it (None before it is opened)."""
    with closing(leads_db(site)) as db:
        row = db.execute("SELECT * FROM shipments WHERE lead_id = ? AND leg = ? ORDER BY id",
                         (lead_id, leg)).fetchone()  # fmt: skip
        return dict(row) if row else None


def labels_bought(site, shipment_id: str) -> int:
    """How many times the fake sold a label for this provider shipment."""
    return sum(1 for request in list(site.easypost.requests)
               if request["action"] == "buy" and f"/{shipment_id}/" in request["path"]
               and request.get("answered") == 200)  # fmt: skip


def webhook(site, tracking_code: str, status: str, weight: float | None = None) -> None:
    """One tracking event, signed as the provider signs it, posted through nginx (with the
    parcel's `weight` as the carrier measured it, if given)."""
    event = tracking_event(tracking_code, status, mode="production")
    event["result"]["weight"] = weight
    body, headers = signed(event, WEBHOOK_SECRET)
    answer = site.front.request("POST", "/webhooks/easypost", headers=headers, body=body)
    assert (answer.status, answer.body) == (200, b"Stored.\n")


def parcel_reaches(site, lead_id: int, state: str, leg: str = "inbound") -> dict:
    return wait_until(lambda: (row := parcel(site, lead_id, leg)) and row["state"] == state
                      and row, timeout=60)  # fmt: skip


def letter_to(site, email: str, subject: str):
    """The e-mail to `email` with exactly this subject, waited for; else every subject sent to
    them and the processes' logs, to say why."""
    try:
        return wait_until(lambda: [m for m in list(site.mail.messages)
                                   if email in m["To"] and m["Subject"] == subject])[0]  # fmt: skip
    except AssertionError:
        sent = [m["Subject"] for m in list(site.mail.messages) if email in m["To"]]
        raise AssertionError(f"no {subject!r} among {sent}\n{site.logs()}") from None


def sells_by_mail(site, browser, name: str, email: str):
    """The seller sends /sell from a Boise ZIP code by mail; their tab and status page's path."""
    context, seller = open_page(browser, site, DESKTOP)
    seller.goto(site.url + "/sell")
    values = VALID | {"fullName": name, "email": email}
    for field in ("fullName", "email", "phone", "watchModel", "watchYear", "additionalDetails"):
        seller.fill(f"#field-{field}", values[field])
    seller.select_option("#field-watchBrand", values["watchBrand"])
    seller.select_option("#field-watchCondition", values["watchCondition"])
    seller.fill("#field-postalCode", "83702")
    seller.get_by_label("By insured mail").check()
    seller.set_input_files("#field-photos", [photo("dial.jpg", 1)])
    seller.click("#sell-form button[type=submit]")
    expect(seller.get_by_role("status").filter(has_text=MAIL_CHOSEN)).to_be_visible(timeout=30_000)
    confirmation = mail_to(site, email, f"We have your {WATCH}: what happens next")[0]
    return context, seller, link_in(confirmation)


def opens_it_on_record(staff) -> None:
    """Staff weigh the parcel (near what the carrier measured, 29 oz, and 2.4 oz off the
    label's standard 32 oz), find the seal intact and photograph it all."""
    staff.get_by_text("The parcel by mail: its arrival on record").click()
    expect(staff.get_by_text("The carrier measured it at 29 oz")).to_be_visible()
    records_the_arrival(staff, "29.6", "81234567")


def to_the_final_offer(site, browser, tmp_path, who: str) -> dict:
    """One seller's road by mail from /sell to the final offer on their status page; what the
    later steps need (pages, lead, parcel, e-mail address)."""
    name, email = f"Jordan Avery {who.title()}", f"jordan.{who}@example.com"
    seller_context, seller, path = sells_by_mail(site, browser, name, email)
    lead = lead_by_email(site, email)
    assert (lead["handover"], lead["postal_code"]) == ("mail", "83702")

    staff_context, staff = staff_signed_in(site, browser, f"desk.mail.{who}@example.com", True)
    staff.get_by_role("link", name=name).click()
    expect(staff.get_by_text("By insured mail").first).to_be_visible()
    lead_page = staff.url
    do(staff, "quote", {"Amount, or low end of a range (USD)": "8200",
                        "Valid until": "2099-06-30"}, "Send quote to the seller")  # fmt: skip
    expect_state(staff, "the lead is now Quoted")

    seller.goto(site.url + path)
    seller.get_by_role("button", name="Accept the quote").click()
    expect(seller.locator("[data-mail]")).to_be_visible()
    gives_the_three_parts(seller, tmp_path)

    # Staff verify the ID: the real worker buys the label from the fake, over TLS.
    staff.goto(lead_page)
    expect(staff.locator("#mail")).to_contain_text("All ticked")
    staff.locator("[data-buy-label]").click()
    inbound = parcel_reaches(site, lead["id"], "label_ready")
    assert inbound["insured_value"] == 8200 and inbound["tracking_code"]
    staff.goto(lead_page)
    expect(staff.locator("[data-mail-shipment]")).to_contain_text(inbound["tracking_code"])

    # The seller downloads the 4x6 label through nginx; the page follows the parcel.
    seller.goto(site.url + path)
    expect(seller.locator("[data-label]")).to_have_count(2)
    expect(seller.locator("[data-parcel-step=current]")).to_contain_text("Label ready")
    download = HttpsClient(site.front).get(
        seller.locator("[data-label='4x6']").get_attribute("href")
    )
    assert download.status == 200 and download.getheader("Content-Type") == "application/pdf"
    assert "no-store" in download.getheader("Cache-Control")
    [page] = PdfReader(io.BytesIO(download.body)).pages
    assert (float(page.mediabox.width), float(page.mediabox.height)) == (288, 432)

    # In transit, then delivered: signed webhooks through nginx, each an e-mail to the seller.
    webhook(site, inbound["tracking_code"], "in_transit", weight=29.0)
    on_its_way = mail_to(site, email, f"Your {WATCH} is on its way to us")[0]
    seller.reload()
    expect(seller.locator("[data-parcel-step=current]")).to_contain_text("On its way to us")
    expect(seller.locator("[data-label]")).to_have_count(0)  # only until the first scan
    webhook(site, inbound["tracking_code"], "delivered")
    parcel_reaches(site, lead["id"], "delivered")
    delivered = letter_to(site, email, f"We have your {WATCH} ({lead['reference']})")
    seller.reload()
    expect(seller.locator("[data-parcel-step=current]")).to_contain_text("Delivered to us")
    for letter in (on_its_way, delivered):
        assert STATUS_PATH.search(body_text(letter)), "each letter links the status page"
        assert inbound["tracking_code"] not in letter.as_string()

    # Staff open it on record; then authentication and the final offer.
    staff.goto(lead_page)
    opens_it_on_record(staff)
    parcel_reaches(site, lead["id"], "received")  # weighed against the carrier's 29 oz: a match
    assert parcel(site, lead["id"])["carrier_weight_oz"] == 29.0
    staff.goto(lead_page)
    authenticate(staff)
    do(staff, "offer", {"Final offer (USD)": "8100", "Valid until": "2099-07-09"},
       "Record and e-mail the offer")  # fmt: skip
    expect_state(staff, "the lead is now Final offer")
    seller.goto(site.url + path)
    expect(seller.locator("[data-parcel-step=current]")).to_have_count(0)
    expect(seller.locator("[data-final-offer] [data-offer-amount]")).to_have_text("$8,100")
    return {"seller": seller, "staff": staff, "lead": lead, "inbound": inbound, "email": email,
            "contexts": (seller_context, staff_context), "path": path}  # fmt: skip


def nothing_leaked(site, *tracking_codes: str) -> None:
    """No tracking number in any e-mail the site sent or in any process's log."""
    for code in tracking_codes:
        assert not [m["Subject"] for m in list(site.mail.messages) if code in m.as_string()]
        assert not [log.name for log in site.folder.glob("*.log") if code in log.read_text()]


@pytest.fixture
def timed(request):
    started = time.monotonic()
    yield
    print(f"\n{request.node.name}: {time.monotonic() - started:.1f} s")


def test_a_seller_in_boise_sells_by_mail_to_the_final_offer_and_accepts(
    site, site_browser, tmp_path, timed
):
    road = to_the_final_offer(site, site_browser, tmp_path, "accepts")
    road["seller"].get_by_role("button", name="Accept the offer").click()
    expect(road["seller"].locator("[data-notice]")).to_contain_text(
        "you have accepted our final offer"
    )
    inbound = parcel(site, road["lead"]["id"])
    assert labels_bought(site, inbound["provider_shipment_id"]) == 1
    assert parcel(site, road["lead"]["id"], "return") is None
    nothing_leaked(site, inbound["tracking_code"])
    for context in road["contexts"]:
        context.close()
    for page in (road["seller"], road["staff"]):
        assert not page.problems.lines, "\n".join(page.problems.lines)


def test_a_seller_who_declines_gets_the_watch_back_on_a_label_the_worker_bought(
    site, site_browser, tmp_path, timed
):
    road = to_the_final_offer(site, site_browser, tmp_path, "declines")
    seller, lead_id = road["seller"], road["lead"]["id"]
    seller.get_by_role("button", name="Decline").click()
    back = parcel_reaches(site, lead_id, "label_ready", leg="return")
    assert back["insured_value"] == 8200 and back["tracking_code"]
    seller.goto(site.url + road["path"])
    expect(seller.locator("[data-return]")).to_contain_text("We are preparing your watch's return")

    webhook(site, back["tracking_code"], "in_transit")  # its number shown once it travels
    parcel_reaches(site, lead_id, "in_transit", leg="return")
    seller.reload()
    expect(seller.locator("[data-return]")).to_contain_text(back["tracking_code"])
    webhook(site, back["tracking_code"], "delivered")
    parcel_reaches(site, lead_id, "delivered", leg="return")
    seller.reload()
    expect(seller.locator("[data-return]")).to_contain_text("Delivered")
    staff = road["staff"]
    staff.goto(f"{site.url}/staff/leads/{lead_id}")
    expect(staff.locator("#timeline")).to_contain_text("returned to the seller, delivered")
    staff.goto(f"{site.url}/staff/shipments?tab=returns")
    expect(staff.get_by_text(road["lead"]["reference"])).to_have_count(0)  # delivered: left it

    inbound = parcel(site, lead_id)
    for row in (inbound, back):
        assert labels_bought(site, row["provider_shipment_id"]) == 1
    assert back["provider_shipment_id"] != inbound["provider_shipment_id"]
    # The return's two e-mails, sent by the real worker, once each beside the inbound's.
    reference = road["lead"]["reference"]
    for subject in (f"Your {WATCH} is on its way back to you", f"Your {WATCH} is back with you"):
        letter_to(site, road["email"], f"{subject} ({reference})")
    to_seller = [m["Subject"] for m in list(site.mail.messages) if road["email"] in m["To"]]
    for step in ("on its way to us", "on its way back to you", "is back with you"):
        assert len([s for s in to_seller if step in s]) == 1, to_seller
    nothing_leaked(site, inbound["tracking_code"], back["tracking_code"])
    for context in road["contexts"]:
        context.close()
