"""The staff area in Chromium: enrol from the CLI's link (TOTP computed here with pyotp, as an
authenticator app would), sign in with both factors, see the leads page, sign out."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    DESKTOP,
    MOBILE,
    add_account,
    axe_violations,
    enrol,
    open_page,
    sign_in,
)


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
