"""The sale by mail's staff step: "ID verified — buy the label" on the lead's page, once the
seller's three parts are in. Both factors again recently, audited either way; it opens the
parcel for the quote's high end and the job buys one label however often it is pressed or
retried; after the job's last try staff are e-mailed."""

from __future__ import annotations

import re

import pytest

from app.leads import audit, history
from app.leads.db import get_db, transaction
from app.sale.purchase import record
from tests.data.paperwork import id_photo
from tests.helpers import form_token, lead_work_done, wait_until
from tests.shipping.fake_easypost import FakeEasyPost
from tests.shipping.steps import mailin_settings
from tests.status.mail_steps import all_given, mail_deal, post_address, post_id


@pytest.fixture
def easypost():
    fake = FakeEasyPost()
    yield fake
    fake.stop()


@pytest.fixture
def selling_by_mail(app, easypost, mail_settings):
    """The module's app selling by mail through the fake, e-mailing staff."""
    app.config.update(
        mailin_settings(easypost)
        | mail_settings
        | {
            "MAILIN_ENABLED": True,
            "MAILIN_MAX_VALUE": 25000,
            "EASYPOST_TIMEOUT": 1,
            "SMTP_USE_TLS": False,
            "SMTP_PORT": int(mail_settings["SMTP_PORT"]),
            "STAFF_EMAIL": "desk@watches.example",
        }
    )
    app.extensions.pop("easypost", None)
    return app


BUTTON_FIELDS = re.compile(r'<input[^>]*name="(buy_label-[\w-]+)"[^>]*value="([^"]*)"')


def shown(client, lead_id: int) -> dict:
    """The button's form as the lead's page shows it now (its CSRF token and what staff see);
    without the button, the page's CSRF token alone."""
    page = client.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    return dict(BUTTON_FIELDS.findall(page)) or {"buy_label-csrf_token": form_token(page)}


def press(client, lead_id: int, form: dict | None = None):
    """The button, as the lead's page shows it now (or as it showed `form` earlier)."""
    data = form or shown(client, lead_id)
    return client.post(f"/staff/leads/{lead_id}/mail-label", data=data)


def refused_for_a_change(app, client, lead_id: int, easypost) -> None:
    """The press was refused, in words, nothing opened or bought, and audited."""
    page = client.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert "The seller changed their return address or ID photos after this page was shown" in (
        page.replace("&#39;", "'")
    )
    assert shipments(app) == [] and easypost.bought() == 0
    assert "mail_label_refused" in actions(app)


def shipments(app) -> list[dict]:
    with app.app_context():
        return [dict(row) for row in get_db().execute("SELECT * FROM shipments ORDER BY id")]


def actions(app) -> list[str]:
    with app.app_context():
        return [entry["action"] for entry in audit.entries()]


def test_the_panel_offers_the_button_once_the_three_parts_are_in(selling_by_mail, signed_in):
    lead_id, token = mail_deal(selling_by_mail)
    post_address(selling_by_mail.test_client(), token)
    page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert "Sale by mail" in page and "12 MAIN ST, BOISE, ID 83702" in page
    assert "data-buy-label" not in page and "$9,500 (the quote&#39;s high end)" in page
    all_given(selling_by_mail, token)
    page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert "ID verified — buy the label" in page and page.count("data-id-photo") == 2


def test_three_presses_open_one_parcel_and_buy_one_label(
    selling_by_mail, signed_in, easypost, smtp_server
):
    lead_id, token = mail_deal(selling_by_mail)
    all_given(selling_by_mail, token)
    form = shown(signed_in, lead_id)
    for _ in range(3):  # a double click and more: the same form each time
        assert press(signed_in, lead_id, form).status_code == 303
    lead_work_done(selling_by_mail)
    [parcel] = shipments(selling_by_mail)
    assert parcel["state"] == "label_ready" and parcel["insured_value"] == 9500
    assert parcel["from_address_id"].startswith("adr_") and parcel["lead_id"] == lead_id
    assert easypost.bought() == 1
    assert actions(selling_by_mail).count("mail_label_asked") == 3
    with selling_by_mail.app_context():
        events = history.lead_events(lead_id)
    [verified] = [e for e in events if e["kind"] == "identity_verified_for_label"]
    assert verified["actor"].startswith("staff:")
    assert verified["data"] == {"shipment": parcel["id"]}
    page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert parcel["tracking_code"] in page and "data-buy-label" not in page
    assert not [m for m in smtp_server.messages if parcel["tracking_code"] in m.as_string()]


def test_refused_until_the_seller_has_given_everything(selling_by_mail, signed_in, easypost):
    lead_id, token = mail_deal(selling_by_mail)
    post_address(selling_by_mail.test_client(), token)
    assert "data-buy-label" not in signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    stale = {
        "buy_label-address_id": "adr_0001",
        "buy_label-id_photos": "f7Qa b2Xk",
    }  # posted anyway
    assert press(signed_in, lead_id, shown(signed_in, lead_id) | stale).status_code == 303
    page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert "The seller has not given: id, conditions. Nothing was changed." in page
    assert shipments(selling_by_mail) == [] and easypost.bought() == 0
    assert "mail_label_refused" in actions(selling_by_mail)


def test_it_needs_both_factors_again_recently(selling_by_mail, signed_in, staff, easypost):
    lead_id, token = mail_deal(selling_by_mail)
    all_given(selling_by_mail, token)
    page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    staff.backdate_sessions("verified_at", 30)
    answer = signed_in.post(
        f"/staff/leads/{lead_id}/mail-label", data={"buy_label-csrf_token": form_token(page)}
    )
    assert answer.headers["Location"] == "/staff/confirm"
    assert shipments(selling_by_mail) == []


def test_a_watch_whose_register_check_stands_flagged_gets_no_label(
    selling_by_mail, signed_in, easypost
):
    lead_id, token = mail_deal(selling_by_mail)
    all_given(selling_by_mail, token)
    with selling_by_mail.app_context(), transaction() as db:  # the serial the seller gave
        record.update(db, lead_id, {"register_result": "flagged", "register_serial": "7Z41K9Q2"})
    assert press(signed_in, lead_id).status_code == 303
    page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert "stands FLAGGED: the sale is on hold and no label is bought" in page
    assert shipments(selling_by_mail) == [] and easypost.bought() == 0
    assert "mail_label_refused" in actions(selling_by_mail)


def test_a_watch_above_the_limit_gets_no_parcel(selling_by_mail, signed_in):
    lead_id, token = mail_deal(selling_by_mail)
    all_given(selling_by_mail, token)
    selling_by_mail.config["MAILIN_MAX_VALUE"] = 9000  # the limit lowered since
    press(signed_in, lead_id)
    assert shipments(selling_by_mail) == []


def test_the_setting_off_is_not_found(selling_by_mail, signed_in):
    lead_id, token = mail_deal(selling_by_mail)
    all_given(selling_by_mail, token)
    page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    selling_by_mail.config["MAILIN_ENABLED"] = False
    answer = signed_in.post(
        f"/staff/leads/{lead_id}/mail-label", data={"buy_label-csrf_token": form_token(page)}
    )
    assert answer.status_code == 404 and shipments(selling_by_mail) == []
    assert "Sale by mail" not in signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)


def test_a_job_that_keeps_failing_alerts_staff_after_its_last_try_and_a_press_buys_one(
    selling_by_mail, signed_in, easypost, smtp_server
):
    selling_by_mail.config["JOB_RETRY_INTERVALS"] = (0.2, 0.2)
    lead_id, token = mail_deal(selling_by_mail)
    all_given(selling_by_mail, token)
    easypost.plan("buy", 500, 500, 500)
    form = shown(signed_in, lead_id)
    press(signed_in, lead_id, form)
    wait_until(
        lambda: [m for m in smtp_server.messages if "could not be bought" in m["Subject"]],
        timeout=20,
    )
    [alert] = [m for m in smtp_server.messages if "could not be bought" in m["Subject"]]
    assert alert["To"] == "desk@watches.example"
    assert "something went wrong" in alert.get_body(("plain",)).get_content()
    assert [r["action"] for r in easypost.requests].count("buy") == 3
    assert [r["action"] for r in easypost.requests].count("create") == 1  # one shipment kept
    press(signed_in, lead_id, form)  # the form still open in the browser, pressed again
    lead_work_done(selling_by_mail)
    assert easypost.bought() == 1 and shipments(selling_by_mail)[0]["state"] == "label_ready"


def test_a_new_id_photo_after_the_page_was_shown_refuses_the_check(
    selling_by_mail, signed_in, easypost
):
    lead_id, token = mail_deal(selling_by_mail)
    all_given(selling_by_mail, token)
    seen = shown(signed_in, lead_id)
    assert seen["buy_label-id_photos"] and seen["buy_label-address_id"].startswith("adr_")
    # Someone holding the link swaps the ID while staff look at the first one.
    swapped = post_id(selling_by_mail.test_client(), token, front=id_photo(7), back=id_photo(8))
    assert swapped.status_code == 303
    assert press(signed_in, lead_id, seen).status_code == 303
    refused_for_a_change(selling_by_mail, signed_in, lead_id, easypost)
    assert press(signed_in, lead_id).status_code == 303  # the page again: the new photos seen
    lead_work_done(selling_by_mail)
    assert len(shipments(selling_by_mail)) == 1 and easypost.bought() == 1


def test_a_new_return_address_after_the_page_was_shown_refuses_the_check(
    selling_by_mail, signed_in, easypost
):
    lead_id, token = mail_deal(selling_by_mail)
    all_given(selling_by_mail, token)
    seen = shown(signed_in, lead_id)
    moved = {"street1": "77 Harbor Way", "city": "Reno", "state": "NV", "zip": "89501"}
    assert post_address(selling_by_mail.test_client(), token, moved).status_code == 303
    assert press(signed_in, lead_id, seen).status_code == 303
    refused_for_a_change(selling_by_mail, signed_in, lead_id, easypost)


def test_a_press_that_names_nothing_seen_changes_nothing(selling_by_mail, signed_in, easypost):
    lead_id, token = mail_deal(selling_by_mail)
    all_given(selling_by_mail, token)
    bare = {"buy_label-csrf_token": shown(signed_in, lead_id)["buy_label-csrf_token"]}
    assert press(signed_in, lead_id, bare).status_code == 303
    page = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    assert "That form was out of date; nothing was changed." in page
    assert shipments(selling_by_mail) == [] and easypost.bought() == 0
