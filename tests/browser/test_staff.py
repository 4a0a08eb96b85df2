"""The staff area in Chromium: enrol from the CLI's link (TOTP computed here with pyotp, as an
authenticator app would), sign in with both factors, see the leads page, sign out."""

import re
import time

import pyotp
import pytest
from playwright.sync_api import expect

from tests.browser.helpers import DESKTOP, MOBILE, axe_violations, open_page

PASSWORD = "brass winding crown sapphire"


def add_account(live_server, email: str) -> str:
    result = live_server.app.test_cli_runner().invoke(
        args=["staff", "add", email, "--name", "Marta Ruiz"]
    )
    assert result.exit_code == 0, result.output
    link = result.output.strip().splitlines()[-1]
    return live_server.url + "/staff/enrol/" + link.rsplit("/", 1)[1]


def enrol(page, link: str) -> str:
    """Walk through enrolment; the TOTP secret, read from the page as a person would type it."""
    page.goto(link)
    page.get_by_label("New password").fill(PASSWORD)
    page.get_by_label("The same password again").fill(PASSWORD)
    page.get_by_role("button", name="Save password").click()
    expect(page.get_by_role("heading", name="Set up your sign-in code")).to_be_visible()
    expect(page.get_by_role("img", name="QR code for your authenticator app")).to_be_visible()
    secret = re.sub(r"\s", "", page.locator("figcaption p.font-mono").first.inner_text())
    page.get_by_label("Code from the app").fill(pyotp.TOTP(secret).now())
    page.get_by_role("button", name="Confirm code").click()
    expect(page.get_by_role("heading", name="Save your recovery codes")).to_be_visible()
    assert page.get_by_role("list", name="Recovery codes").locator("li").count() == 10
    return secret


def sign_in(page, live_server, email: str, secret: str) -> None:
    page.goto(live_server.url + "/staff/login")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Enter your code")).to_be_visible()
    # The enrolment used this step's code, and each code works once: the next step's code is
    # within the accepted window.
    page.get_by_label("Code").fill(pyotp.TOTP(secret).at(time.time() + 30))
    page.get_by_role("button", name="Sign in").click()


@pytest.mark.parametrize("java_script_enabled", [True, False], ids=["js", "no-js"])
def test_staff_member_enrols_signs_in_and_sees_the_leads_page(
    browser, live_server, java_script_enabled
):
    email = f"marta-{'js' if java_script_enabled else 'nojs'}@example.com"
    link = add_account(live_server, email)
    context, page = open_page(browser, live_server, DESKTOP, java_script_enabled)
    secret = enrol(page, link)
    sign_in(page, live_server, email, secret)
    expect(page).to_have_url(live_server.url + "/staff/leads")
    expect(page.get_by_role("heading", name="Leads", exact=True)).to_be_visible()
    violations = axe_violations(page) if java_script_enabled else []
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(live_server.url + "/staff/login")
    page.goto(live_server.url + "/staff/leads")
    expect(page).to_have_url(live_server.url + "/staff/login")
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
    assert not violations, "\n".join(violations)


@pytest.mark.parametrize("viewport", [MOBILE, DESKTOP], ids=["375px", "1280px"])
def test_sign_in_page_has_no_accessibility_violations(browser, live_server, viewport):
    context, page = open_page(browser, live_server, viewport)
    page.goto(live_server.url + "/staff/login")
    violations = axe_violations(page)
    context.close()
    assert not page.problems.lines, "\n".join(page.problems.lines)
    assert not violations, "\n".join(violations)
