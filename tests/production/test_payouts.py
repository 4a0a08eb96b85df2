"""The payout by bank API in the production shape, on a stack of its own with PAYOUT_PROVIDER
set: nginx with TLS in front of gunicorn in production settings, Redis, the real rq worker and
the TLS-only SMTP relay, and the bank's fake (tests/payouts/fake_increase.py) over TLS with the
test CA's certificate, trusted by the worker through SSL_CERT_FILE. A deal waiting for nothing
but its payment is put in the live leads.db (the steps before it are test_flows.py's); then two
staff members in Chromium ask for and approve its payout through nginx, the worker creates the
transfer needing approval and releases it once approved, the bank's signed events come back
through nginx to /webhooks/increase, and the worker reads the transfer back and marks the lead
bought: the seller's status page and their "paid" e-mail say "by instant transfer at" its time.
A forged event is refused at the webhook; the reconciler finds nothing more to do; the bank's key
and the seller's account number are in no process's log and no e-mail."""

from __future__ import annotations

from contextlib import closing

import pytest
from playwright.sync_api import expect

from app import create_app
from tests.front import HttpsClient
from tests.helpers import give_token, wait_until
from tests.payouts.steps import ACCOUNT, deal_to_pay
from tests.production.conftest import BANK_KEY, BANK_SECRET, browser_for, production_site
from tests.production.steps import body_text, leads_db, mail_to
from tests.production.test_flows import staff_signed_in

SELLER = "morgan.payout@example.com"


@pytest.fixture(scope="module")
def paying_site(tmp_path_factory):
    """The production shape with payouts sent through the bank's API, its events delivered
    through nginx."""
    folder = tmp_path_factory.mktemp("payouts-production")
    with production_site(folder, PAYOUT_PROVIDER="increase") as site:

        def send(body: bytes, headers: dict) -> int:
            return site.front.request("POST", "/webhooks/increase", headers, body).status

        site.bank.deliver_to(send, BANK_SECRET)
        yield site


@pytest.fixture(scope="module")
def paying_browser(paying_site, playwright):
    """Chromium that resolves the stack's name to loopback and trusts its certificate."""
    browser = browser_for(paying_site, playwright)
    yield browser
    browser.close()


def deal_in_the_live_database(site) -> tuple[int, str]:
    """A deal whose purchase record lacks nothing but the payment, written to the live
    leads.db (sealed with the stack's own key, as the site seals it); its id and a status
    link's path."""
    env = site.env
    app = create_app({"ENV_NAME": "testing", "LEADS_DB": env["LEADS_DB"],
                      "CONTENT_DB": env["CONTENT_DB"],
                      "PURCHASE_DATA_KEY": env["PURCHASE_DATA_KEY"]})  # fmt: skip
    lead_id = deal_to_pay(app, 9500, email=SELLER, full_name="Morgan Payout")
    return lead_id, f"/status/{give_token(app, lead_id)}"


def states(site, lead_id: int) -> tuple[str, str | None]:
    with closing(leads_db(site)) as db:
        lead = db.execute("SELECT state FROM leads WHERE id = ?", (lead_id,)).fetchone()
        payout = db.execute("SELECT state FROM payouts WHERE lead_id = ?", (lead_id,)).fetchone()
        return lead["state"], payout["state"] if payout else None


def test_two_staff_members_pay_a_seller_through_the_bank_behind_nginx(paying_site, paying_browser):
    site, bank = paying_site, paying_site.bank
    lead_id, status_path = deal_in_the_live_database(site)
    lead_page = f"{site.url}/staff/leads/{lead_id}"
    asker_context, asker = staff_signed_in(site, paying_browser, "ana.payout@example.com", True)
    approver_context, approver = staff_signed_in(
        site, paying_browser, "ben.payout@example.com", False
    )

    asker.goto(lead_page)
    expect(asker.locator("[data-payout-ask]")).to_contain_text(
        "Pay $9,500.00 to the account ending 5566 by instant transfer (RTP)"
    )
    asker.get_by_role("button", name="Ask for this payout").click()
    expect(asker.get_by_text("Waiting for another staff member to approve it")).to_be_visible()
    wait_until(lambda: bank.made() == 1, timeout=60)  # by the worker, over TLS
    assert states(site, lead_id) == ("agreed", "asked") and bank.approved() == 0

    approver.goto(lead_page)  # without JavaScript: a plain form
    approver.get_by_role("button", name="Approve: the bank sends it").click()
    expect(approver.get_by_text("Payout approved and recorded with your name")).to_be_visible()
    try:
        wait_until(lambda: states(site, lead_id) == ("bought", "paid"), timeout=90)
    except AssertionError:
        raise AssertionError(f"{states(site, lead_id)}\n{site.logs()}") from None
    assert bank.made() == 1 and bank.approved() == 1
    wait_until(lambda: len(bank.deliveries) >= 3, timeout=30)
    assert {status for _, status in bank.deliveries} == {200}

    seller_page = HttpsClient(site.front).request("GET", status_path).body.decode()
    assert "by instant transfer at" in seller_page and ACCOUNT not in seller_page
    [paid] = mail_to(site, SELLER, "Payment sent", timeout=90)
    assert "by instant transfer at" in body_text(paid)

    forged_body, forged_headers = bank.signed(bank.events[-1], "whsec-not-the-banks")
    forged = site.front.request("POST", "/webhooks/increase", forged_headers, forged_body)
    assert forged.status == 401
    reconciled = site.flask("payouts", "reconcile")  # exits 0: nothing the bank failed
    assert "#1: stays paid; the lead is bought" in reconciled

    logs = site.logs() + "".join(path.read_text() for path in site.folder.glob("*.log"))
    mails = "".join(message.as_string() for message in site.mail.messages)
    for secret in (BANK_KEY, ACCOUNT):
        assert secret not in logs and secret not in mails, secret
    asker_context.close()
    approver_context.close()
