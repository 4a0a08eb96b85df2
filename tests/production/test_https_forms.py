"""Forms over HTTPS behind nginx, posted as browsers post them: the status pages send
`Referrer-Policy: no-referrer`, so their posts carry no Referer. Each one is accepted with its
CSRF token, and refused without it, from another site, or with a stranger's token."""

from __future__ import annotations

import pytest

from app.status import messages
from tests.front import HttpsClient
from tests.production.steps import event_kinds, lead_by_email, leads_db, submit_lead

OUT_OF_DATE = messages.OUT_OF_DATE.encode()


def link_request_count(site) -> int:
    with leads_db(site) as db:
        return db.execute("SELECT count(*) FROM status_link_requests").fetchone()[0]


def test_status_forms_posted_without_a_referer_are_accepted_over_https(site):
    email = "no.referer@example.com"
    path = submit_lead(site, email)
    seller = HttpsClient(site.front)
    token = seller.form_token(path)
    lead = lead_by_email(site, email)

    asked = seller.post(path + "/question", {"csrf_token": token, "question": "Box included?"})
    assert asked.status == 303, asked.body[:300]
    assert "question" in event_kinds(site, lead["id"])

    requests_before = link_request_count(site)
    lost = HttpsClient(site.front)
    lost_token = lost.form_token("/status")
    answer = lost.post("/status", {"csrf_token": lost_token, "email": email})
    assert answer.status == 303, answer.body[:300]
    assert link_request_count(site) == requests_before + 1

    withdrawn = seller.post(path + "/withdraw", {"csrf_token": token, "confirm": "yes"})
    assert withdrawn.status == 303, withdrawn.body[:300]
    assert lead_by_email(site, email)["state"] == "closed"


@pytest.mark.parametrize(
    "form",
    [
        {"question": "Is this refused?"},
        {"confirm": "yes"},
    ],
    ids=["question", "withdraw"],
)
@pytest.mark.parametrize("token", ["missing", "a stranger's"])
def test_status_forms_refuse_a_post_without_the_sessions_csrf_token(site, form, token):
    email = f"refused.{next(iter(form))}.{token[0]}@example.com"
    path = submit_lead(site, email)
    seller = HttpsClient(site.front)
    seller.get(path)
    stranger = HttpsClient(site.front)
    sent = dict(form)
    if token != "missing":
        sent["csrf_token"] = stranger.form_token(path)
    action = "/question" if "question" in form else "/withdraw"
    kinds_before = event_kinds(site, lead_by_email(site, email)["id"])

    refused = seller.post(path + action, sent)

    assert refused.status == 303 and refused.getheader("Location") == path
    assert OUT_OF_DATE in seller.get(path).body
    assert event_kinds(site, lead_by_email(site, email)["id"]) == kinds_before
    assert lead_by_email(site, email)["state"] == "new"


def test_lost_link_form_refuses_a_post_without_its_csrf_token(site):
    requests_before = link_request_count(site)
    client = HttpsClient(site.front)
    client.get("/status")

    refused = client.post("/status", {"email": "no.token@example.com"})

    assert refused.status == 303 and refused.getheader("Location") == "/status"
    assert OUT_OF_DATE in client.get("/status").body
    assert link_request_count(site) == requests_before


def test_a_post_from_another_site_is_refused_even_with_a_valid_token(site):
    email = "cross.site@example.com"
    path = submit_lead(site, email)
    seller = HttpsClient(site.front)
    token = seller.form_token(path)

    refused = seller.post(
        path + "/question",
        {"csrf_token": token, "question": "Sent from evil.example"},
        {"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
    )

    assert refused.status == 403
    assert "question" not in event_kinds(site, lead_by_email(site, email)["id"])
