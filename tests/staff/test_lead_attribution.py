"""The lead page's "Campaign and technical data" card shows where the lead came from."""

from __future__ import annotations

import re

FBC = "fb.1.1741064767890.IwAR2F4-dbP0l7Mn1IawQQGCINEz7PYXQvwjNwB_qa2ofrHyiLjcbCRxTDMgk"
ATTRIBUTION = {
    "Landing page": ("landing_page", "/sell-watch-boston"),
    "Referred by": ("referrer_host", "www.google.com"),
    "fbc": ("fbc", FBC),
    "fbp": ("fbp", "fb.1.1596403881668.1116446470"),
    "gclid": ("gclid", "Cj0KCQiA5fetBhC9ARIsAP1UMgE_staff-gclid"),
    "gbraid": ("gbraid", "0AAAAADwvxR_staff-gbraid"),
    "wbraid": ("wbraid", "CjgKEAjw_staff-wbraid"),
    "Google click at": ("google_click_at", "2025-03-04T05:06:07+00:00"),
}


def test_campaign_card_shows_click_ids_landing_page_and_referrer(signed_in, add_lead):
    lead_id = add_lead(**dict(ATTRIBUTION.values()))
    html = signed_in.get(f"/staff/leads/{lead_id}").get_data(as_text=True)
    card = re.search(r'<section id="campaign".*?</section>', html, re.S).group(0)
    for label, (_column, value) in ATTRIBUTION.items():
        assert re.search(rf"<dt[^>]*>{label}</dt>\s*<dd[^>]*>{re.escape(value)}</dd>", card), label
