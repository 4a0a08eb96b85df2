"""The sale by mail's page: there, linked from the header and the footer and in the sitemap only
while MAILIN_ENABLED is on; its limit is the policy's setting, its FAQ the structured data's."""

from __future__ import annotations

import json
import re


def structured_data(html: str) -> list[dict]:
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    return [json.loads(block) for block in blocks]


def test_without_the_sale_by_mail_there_is_no_page_and_no_link_to_it(client):
    assert client.get("/sell-by-mail").status_code == 404
    assert "/sell-by-mail" not in client.get("/").get_data(as_text=True)
    assert "/sell-by-mail" not in client.get("/sitemap.xml").get_data(as_text=True)


def test_with_it_the_page_says_the_policys_limit_and_is_linked_everywhere(make_app):
    app = make_app(MAILIN_ENABLED="1", MAILIN_MAX_VALUE="30000", MAILIN_LABEL_VOID_DAYS="10")
    client = app.test_client()
    page = client.get("/sell-by-mail")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "up to $30,000 per parcel" in html and "after 10 days" in html
    assert "{mailin" not in html
    assert html.count('href="/sell-by-mail"') >= 2  # the header's services and the footer
    assert 'href="/sell-by-mail"' in client.get("/sell-watch-chicago").get_data(as_text=True)
    assert "/sell-by-mail</loc>" in client.get("/sitemap.xml").get_data(as_text=True)
    [faq] = [block for block in structured_data(html) if block["@type"] == "FAQPage"]
    questions = [item["name"] for item in faq["mainEntity"]]
    assert "My watch is worth more than $30,000. Can I still sell it?" in questions
    assert all(question in html for question in questions)  # the visible FAQ's own words


def test_the_page_names_no_carrier_and_promises_no_unbacked_figure(make_app):
    html = (
        make_app(MAILIN_ENABLED="1", MAILIN_MAX_VALUE="25000")
        .test_client()
        .get("/sell-by-mail")
        .get_data(as_text=True)
    )
    text = re.sub(r"<[^>]+>", " ", html)
    for carrier in ("UPS", "FedEx", "USPS", "EasyPost"):
        assert carrier not in text
    amounts = set(re.findall(r"\$[\d,]+", text))
    assert amounts == {"$25,000"}, amounts


def test_home_and_terms_say_nationwide_only_while_the_sale_by_mail_is_on(make_app, client):
    assert "nationwide" not in client.get("/").get_data(as_text=True)
    assert "Selling by Mail" not in client.get("/terms").get_data(as_text=True)
    on = make_app(MAILIN_ENABLED="1", MAILIN_MAX_VALUE="25000").test_client()
    assert "We buy nationwide: by insured mail from anywhere in the 50 states and DC" in (
        on.get("/").get_data(as_text=True)
    )
    terms = on.get("/terms").get_data(as_text=True)
    assert "Selling by Mail" in terms and "we hold it as the law requires" in terms


def test_the_privacy_policy_says_who_gets_a_mail_sellers_address_only_while_it_is_on(
    make_app, client
):
    assert "If You Sell by Mail" not in client.get("/privacy").get_data(as_text=True)
    on = make_app(MAILIN_ENABLED="1", MAILIN_MAX_VALUE="25000").test_client()
    policy = on.get("/privacy").get_data(as_text=True)
    assert "If You Sell by Mail" in policy
    assert "our shipping label provider and to the carrier" in policy
    assert "does not delete those records" in policy


def test_the_page_and_the_terms_promise_photos_of_the_opening_and_a_video_only_when_made(make_app):
    client = make_app(MAILIN_ENABLED="1", MAILIN_MAX_VALUE="25000").test_client()
    page = client.get("/sell-by-mail").get_data(as_text=True)
    terms = client.get("/terms").get_data(as_text=True)
    for html in (page, terms):
        assert "and film the opening" not in html and "on camera" not in html.lower()
    assert "photograph the opening with the serial number in frame" in page
    assert "when we also film the opening" in page
    assert "a video of the opening when we make one" in terms


def test_the_packing_rules_come_with_pictures_each_captioned(make_app):
    html = (
        make_app(MAILIN_ENABLED="1", MAILIN_MAX_VALUE="25000")
        .test_client()
        .get("/sell-by-mail")
        .get_data(as_text=True)
    )
    pictures = html.split("data-packing-pictures", 1)[1].split("</ol>", 1)[0]
    assert pictures.count('<svg viewBox="0 0 160 110"') == 3
    for number in (1, 2, 3):  # each drawing named by its caption for a screen reader
        assert f'aria-labelledby="pack-{number}"' in pictures
        assert f'<figcaption id="pack-{number}"' in pictures
    assert html.index("data-packing-pictures") < html.index("Wrap the watch in a soft cloth")
