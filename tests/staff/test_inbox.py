"""The leads inbox behind staff sign-in: list, lead page, actions as plain forms, photos, export."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest

from app.leads import search, storage, store
from app.leads.db import transaction
from app.rendering.dates import display_date
from app.sale import lifecycle
from app.sale.purchase import record
from tests.data.paperwork import FINDINGS, give_token, post_paperwork
from tests.data.photos import photo_bytes
from tests.data.staff_purchase import check_register, post_step
from tests.helpers import business_today, buy_lead, put_purchase_on_record

EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>'
ESCAPED = "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"
SELLER_FIELDS = ("full_name", "email", "phone", "watch_model", "additional_details")


def page(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def form_token(html: str) -> str:
    """A CSRF token from the lead page (every form's token is valid for the session)."""
    return re.search(r'csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def act(client, lead_id: int, action: str, fields: dict, expected: str | None = None):
    """Submit one action's form as the browser would, with the state the page showed."""
    html = page(client, f"/staff/leads/{lead_id}")
    shown = expected or re.search(
        rf'name="{action}-expected_state" type="hidden" value="(\w+)"', html
    )
    data = {f"{action}-{name}": value for name, value in fields.items()}
    data[f"{action}-csrf_token"] = form_token(html)
    if shown is not None:
        data[f"{action}-expected_state"] = shown if isinstance(shown, str) else shown.group(1)
    return client.post(f"/staff/leads/{lead_id}/{action}", data=data)


def fetch(client, path: str):
    """GET a file answer, read whole and closed (send_file streams from an open file)."""
    response = client.get(path)
    response.get_data()
    response.close()
    return response


def age_the_sign_in(app) -> None:
    """Make the session's last verification older than the re-authentication window."""
    with app.app_context(), transaction() as db:
        db.execute("UPDATE staff_sessions SET verified_at = '2000-01-01T00:00:00+00:00'")


def state_of(app, lead_id: int) -> str:
    with app.app_context():
        return store.get_lead(lead_id)["state"]


def audit_actions(app) -> list[str]:
    with app.app_context(), transaction() as db:
        return [row["action"] for row in db.execute("SELECT action FROM audit ORDER BY id")]


def test_inbox_needs_both_factors(app, add_lead):
    lead_id = add_lead()
    client = app.test_client()
    for path in ("/staff/leads", f"/staff/leads/{lead_id}", "/staff/export"):
        response = client.get(path)
        assert response.status_code == 303 and response.headers["Location"] == "/staff/login"
    response = client.post(f"/staff/leads/{lead_id}/contacted", data={})
    assert response.status_code in (303, 400)
    assert state_of(app, lead_id) == "new"


def test_list_shows_tabs_with_counts_newest_first_and_flags_late_replies(app, signed_in, add_lead):
    old = add_lead(full_name="Old Seller")
    new = add_lead(full_name="New Seller")
    with app.app_context():
        with transaction() as db:
            db.execute(
                "UPDATE leads SET created_at = '2020-01-01T00:00:00+00:00' WHERE id = ?", (old,)
            )
        lifecycle.transition(new, "contacted", "staff:1", {}, "new")
    html = page(signed_in, "/staff/leads")
    assert html.index("New Seller") < html.index("Old Seller")
    assert re.search(r"All <span[^>]*>2</span>", html)
    assert re.search(r"New <span[^>]*>1</span>", html)
    assert re.search(r"Contacted <span[^>]*>1</span>", html)
    assert html.count("Reply overdue") == 1  # the old one, still new; the other was contacted
    contacted = page(signed_in, "/staff/leads?state=contacted")
    assert "New Seller" in contacted and "Old Seller" not in contacted


def test_list_flags_a_lead_whose_seller_wrote_since_staff_last_acted(app, signed_in, add_lead):
    asked = add_lead(full_name="Asking Seller")
    add_lead(full_name="Quiet Seller")
    with app.app_context():
        lifecycle.transition(asked, "contacted", "staff:1", {}, "new")
        lifecycle.ask_question(asked, "Can you come to Brooklyn?")
    html = page(signed_in, "/staff/leads")
    assert html.count(">Seller wrote</span>") == 1
    assert html.index("Quiet Seller") < html.index("Asking Seller") < html.index("Seller wrote")
    lead = page(signed_in, f"/staff/leads/{asked}")
    assert "Seller asked a question" in lead and "Can you come to Brooklyn?" in lead
    with app.app_context():
        lifecycle.add_note(asked, "staff:1", "Called back: Saturday works.")
    assert "Seller wrote" not in page(signed_in, "/staff/leads")


def row_of(html: str, name: str) -> str:
    """The list row (its <li>) of the lead whose seller is `name`."""
    return next(row for row in html.split("<li>") if name in row)


def test_payment_due_flags_and_lists_a_lead_signed_and_checked_and_no_other(
    app, signed_in, add_lead
):
    due = add_lead(full_name="Checked Seller")
    unchecked = add_lead(full_name="Unchecked Seller")
    paid = add_lead(full_name="Paid Seller")
    add_lead(full_name="New Seller")
    with app.app_context():
        for lead_id in (due, unchecked):
            put_purchase_on_record(lead_id, signed_on=business_today())
        with transaction() as db:  # signed, but staff have not checked the ID yet
            record.update(db, unchecked, {"id_verified_at": None, "id_verified_by": None})
    buy_lead(app, paid)
    html = page(signed_in, "/staff/leads")
    assert html.count(">Payment due</span>") == 1
    assert ">Payment due</span>" in row_of(html, "Checked Seller")
    for other in ("Unchecked Seller", "Paid Seller", "New Seller"):
        assert "Payment due" not in row_of(html, other)
    agreed = page(signed_in, "/staff/leads?state=agreed")
    assert agreed.count(">Payment due</span>") == 1 and "Unchecked Seller" in agreed
    assert re.search(r"Offer accepted <span[^>]*>2</span>", html)
    assert re.search(r"Payment due <span[^>]*>1</span>", html)  # the tab, after Offer accepted
    assert html.index("Offer accepted <span") < html.index("Payment due <span")
    tab = page(signed_in, "/staff/leads?state=payment_due")
    assert "Checked Seller" in tab and "Unchecked Seller" not in tab and "Paid Seller" not in tab
    assert "1 lead payment due" in tab
    assert "No leads match" in page(signed_in, "/staff/leads?state=payment_due&brand=Omega")
    exported = signed_in.get("/staff/export?state=payment_due")  # just signed in: no re-auth
    names = [row["full_name"] for row in csv.DictReader(io.StringIO(exported.get_data(True)))]
    assert names == ["Checked Seller"]


def test_search_filters_and_pagination(app, signed_in, add_lead):
    for number in range(27):
        add_lead(full_name=f"Seller {number:02d}", watch_brand="Omega" if number % 2 else "Rolex")
    add_lead(full_name="Zed Phone", phone="+1 (646) 555-0142", utm_source="facebook")
    first = page(signed_in, "/staff/leads")
    assert "Page 1 of 2" in first and "Zed Phone" in first and "Seller 00" not in first
    second = page(signed_in, "/staff/leads?page=2")
    assert "Seller 00" in second and "Zed Phone" not in second
    assert "Seller 00" in page(signed_in, "/staff/leads?page=999")  # past the end: last page
    assert "Zed Phone" in page(signed_in, "/staff/leads?q=646-555-0142")
    assert "Zed Phone" in page(signed_in, "/staff/leads?source=facebook")
    omega = page(signed_in, "/staff/leads?brand=Omega")
    assert "Seller 01" in omega and "Seller 02" not in omega
    with app.app_context():
        reference = search.find_leads({"text": "Zed"})[0]["reference"]
    found = page(signed_in, f"/staff/leads?q={reference.lower()}")
    assert "Zed Phone" in found and "Seller 01" not in found
    bad = page(signed_in, "/staff/leads?from=yesterday&page=-3&state=sold")
    assert "is not a date (YYYY-MM-DD); it was ignored." in bad


@pytest.mark.parametrize("number", ["²", "٣", "1e3", " 2"])
def test_a_page_number_in_other_digits_shows_the_first_page(signed_in, add_lead, number):
    add_lead(full_name="Only Seller")
    assert "Only Seller" in page(signed_in, f"/staff/leads?page={number}")


def test_every_seller_field_is_shown_as_text(app, signed_in, add_lead):
    lead_id = add_lead(**{field: EVIL for field in SELLER_FIELDS}, utm_campaign=EVIL)
    for html in (page(signed_in, "/staff/leads"), page(signed_in, f"/staff/leads/{lead_id}")):
        assert "<script>alert" not in html and "<img src=x" not in html
    lead_page = page(signed_in, f"/staff/leads/{lead_id}")
    assert lead_page.count(ESCAPED) >= len(SELLER_FIELDS) + 1


def test_lead_page_shows_every_field_and_its_timeline(app, signed_in, add_lead):
    lead_id = add_lead(utm_source="google", utm_campaign="spring-rolex", watch_year=2019)
    html = page(signed_in, f"/staff/leads/{lead_id}")
    for text in (
        "Grace Hopper",
        "grace@example.com",
        "2125550100",
        "Submariner 126610LN",
        "2019",
        "Excellent - Like new",
        "spring-rolex",
        "Submitted on the website",
    ):
        assert text in html
    assert "lead_viewed" in audit_actions(app)


def test_working_a_lead_from_new_to_bought_with_plain_forms(app, signed_in, add_lead):
    lead_id = add_lead()
    before_offer = [
        ("note", {"note": "Asked for the serial number"}, "new"),
        ("contacted", {"note": "Called, left a message"}, "contacted"),
        (
            "quote",
            {
                "amount_low": "$8,000",
                "amount_high": "9,500",
                "valid_until": "2099-01-31",
                "message": "Strong market for this reference",
            },
            "quoted",
        ),
        ("answer", {"answer": "accept"}, "accepted"),
        (
            "appointment",
            {
                "date": "2099-02-03",
                "time": "14:30",
                "mode": "office",
                "place": "350 Fifth Avenue, New York",
            },
            "appointment",
        ),
    ]
    offer = {
        "amount": "9100",
        "valid_until": "2099-02-10",
        "differences-0-what": "Bracelet stretched",
        "differences-0-why": "It needs two new links before resale.",
    }
    after_findings = [
        ("offer", offer, "offered"),
        ("answer_offer", {"answer": "accept"}, "agreed"),
    ]
    paid_on, hold = business_today().isoformat(), timedelta(app.config["PURCHASE_HOLD_DAYS"])
    paid = {"amount": "9100", "method": "wire", "paid_on": paid_on, "confirmation": "W-77"}
    for action, fields, state in before_offer:
        moved_to(app, signed_in, lead_id, action, fields, state)
    assert post_step(signed_in, lead_id, "findings", FINDINGS).status_code == 303
    assert check_register(signed_in, lead_id).status_code == 303
    for action, fields, state in after_findings:
        moved_to(app, signed_in, lead_id, action, fields, state)
    assert post_paperwork(app.test_client(), give_token(app, lead_id)).status_code == 303
    verified = post_step(signed_in, lead_id, "verify_id", {"compared": "y"})
    assert verified.status_code == 303
    called = {"phone_called": "(212) 555-0100", "confirmed": "y"}
    assert post_step(signed_in, lead_id, "payout_callback", called).status_code == 303
    moved_to(app, signed_in, lead_id, "bought", paid, "bought")
    html = page(signed_in, f"/staff/leads/{lead_id}")
    for text in (
        "Asked for the serial number",
        "Preliminary quote sent",
        "$8,000 to $9,500",
        "Seller accepted the quote (by phone)",
        "Appointment booked",
        "2:30 pm EST",
        "Authentication findings recorded",
        "Stolen-watch register checked: clear",
        "Final offer recorded",
        "Differs: Bracelet stretched",
        "Seller accepted the final offer (by phone)",
        "Seller signed the sale paperwork",
        "Seller&#39;s ID verified against the paperwork",
        "Bought",
        display_date(paid_on),
        f"On hold until {display_date((business_today() + hold).isoformat())}",
        "the sale is complete",
    ):
        assert text in html, text
    actions = audit_actions(app)
    assert actions.count("lead_state_changed") == 7 and "lead_note_added" in actions
    assert actions.count("seller_email_queued") == 5  # quote, appointment, offer, paperwork, paid
    assert {"authentication_recorded", "register_checked", "id_verified"} <= set(actions)


def moved_to(app, client, lead_id: int, action: str, fields: dict, state: str) -> None:
    """Submit an action's form and check the lead moved to `state`."""
    response = act(client, lead_id, action, fields)
    assert response.status_code == 303, (action, response.get_data(as_text=True)[:2000])
    assert response.headers["Location"] == f"/staff/leads/{lead_id}"
    assert state_of(app, lead_id) == state, action


def test_a_stale_form_gets_a_clear_message_and_changes_nothing(app, signed_in, add_lead):
    lead_id = add_lead()
    assert act(signed_in, lead_id, "contacted", {}).status_code == 303
    response = act(signed_in, lead_id, "close", {"reason": "not_a_fit"}, expected="new")
    assert response.status_code == 303
    html = page(signed_in, f"/staff/leads/{lead_id}")
    assert "This lead is now Contacted, not New: someone changed it" in html
    assert state_of(app, lead_id) == "contacted"
    assert "lead_change_refused" in audit_actions(app)


def test_an_illegal_transition_is_refused(app, signed_in, add_lead):
    lead_id = add_lead()
    paid = {"amount": "9100", "paid_on": "2020-01-01", "method": "ach", "confirmation": "A-1"}
    response = act(signed_in, lead_id, "bought", paid, expected="new")
    assert response.status_code == 303
    assert "A lead that is New cannot move to Bought." in page(signed_in, f"/staff/leads/{lead_id}")
    assert state_of(app, lead_id) == "new"
    assert act(signed_in, lead_id, "nonsense", {}, expected="new").status_code == 404


def test_invalid_form_is_shown_again_with_its_errors(app, signed_in, add_lead):
    lead_id = add_lead()
    response = act(
        signed_in,
        lead_id,
        "quote",
        {"amount_low": "9000", "amount_high": "100", "valid_until": "2000-01-01"},
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "The high end must be at least the low end." in html and "This date has passed." in html
    assert state_of(app, lead_id) == "new"


def test_missing_csrf_token_is_refused(app, signed_in, add_lead):
    lead_id = add_lead()
    response = signed_in.post(
        f"/staff/leads/{lead_id}/contacted", data={"contacted-expected_state": "new"}
    )
    assert response.status_code in (400, 303)
    assert state_of(app, lead_id) == "new"


def stored_photos(app, lead_id: int) -> list[dict]:
    """Give a lead two processed photos, as the photo worker leaves them."""
    with app.app_context():
        storage.photos_dir().mkdir(parents=True, exist_ok=True)
        for position in (1, 2):
            photo = store.lead_photos(lead_id)[position - 1]
            name = f"lead{lead_id}-{position}"
            (storage.photos_dir() / f"{name}.jpg").write_bytes(photo_bytes(size=(80, 60)))
            (storage.photos_dir() / f"{name}-thumb.webp").write_bytes(b"RIFF....WEBP")
            store.record_photo(
                photo["id"],
                image_name=f"{name}.jpg",
                thumb_name=f"{name}-thumb.webp",
                width=80,
                height=60,
            )
        return store.lead_photos(lead_id)


def add_lead_with_photos(app, add_lead) -> tuple[int, list[dict]]:
    uploads = [{"original_name": f"IMG_{n}.jpg", "upload_name": f"u{n}"} for n in (1, 2)]
    with app.app_context():
        lead_id = store.save_lead(
            {
                "full_name": "Photo Seller",
                "email": "p@example.com",
                "phone": "2125550100",
                "watch_brand": "Omega",
                "watch_condition": "Good",
                "has_box": 0,
                "has_papers": 0,
                "additional_details": "",
                "source": "USA Website",
                "meta_event_id": f"photo-{add_lead()}",
            },
            uploads,
        )[0]
    return lead_id, stored_photos(app, lead_id)


def test_photos_are_served_privately_with_their_type(app, signed_in, add_lead):
    lead_id, photos = add_lead_with_photos(app, add_lead)
    html = page(signed_in, f"/staff/leads/{lead_id}")
    full = f"/staff/leads/{lead_id}/photos/{photos[0]['public_id']}"
    assert f'href="{full}"' in html and f'src="{full}/thumb"' in html
    assert "lead" + str(lead_id) + "-1.jpg" not in html  # stored names never reach the page
    response = fetch(signed_in, full)
    assert response.status_code == 200 and response.data[:3] == b"\xff\xd8\xff"
    assert response.mimetype == "image/jpeg"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Cache-Control"] == "private, no-store"
    policies = response.headers.getlist("Content-Security-Policy")
    assert any(policy.startswith("sandbox") for policy in policies)
    thumb = fetch(signed_in, full + "/thumb")
    assert thumb.status_code == 200 and thumb.mimetype == "image/webp"
    assert "lead_photo_viewed" in audit_actions(app)


def test_a_photo_of_another_lead_is_not_found(app, signed_in, add_lead):
    first, _ = add_lead_with_photos(app, add_lead)
    second, theirs = add_lead_with_photos(app, add_lead)
    for path in (
        f"/staff/leads/{first}/photos/{theirs[0]['public_id']}",
        f"/staff/leads/{first}/photos/{theirs[0]['public_id']}/thumb",
        f"/staff/leads/{first}/photos/{theirs[0]['id']}",
        f"/staff/leads/{first}/photos/..%2F..%2Fleads.db",
    ):
        response = signed_in.get(path)
        assert response.status_code == 404, path
        assert b"\xff\xd8\xff" not in response.data
    assert (
        app.test_client().get(f"/staff/leads/{second}/photos/{theirs[0]['public_id']}").status_code
        == 303
    )


def test_export_needs_both_factors_again_and_follows_the_filter(
    app, staff, account, signed_in, add_lead
):
    add_lead(full_name="Omega Owner", watch_brand="Omega")
    add_lead(full_name="=cmd|' /C calc'!A0", watch_brand="Rolex")
    age_the_sign_in(app)
    response = signed_in.get("/staff/export?brand=Rolex")
    assert response.status_code == 303 and response.headers["Location"] == "/staff/confirm"
    staff.clock.advance()
    confirm = staff.post(
        signed_in,
        "/staff/confirm",
        {"password": account.password, "code": account.code(staff.clock())},
    )
    assert confirm.headers["Location"] == "/staff/export?brand=Rolex"
    exported = signed_in.get("/staff/export?brand=Rolex")
    assert exported.status_code == 200 and exported.mimetype == "text/csv"
    assert "attachment" in exported.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(exported.get_data(as_text=True))))
    assert [row["full_name"] for row in rows] == ["'=cmd|' /C calc'!A0"]
    assert "leads_exported" in audit_actions(app)


def test_erasing_a_closed_lead_needs_reauthentication_and_the_reference(
    app, staff, account, signed_in, add_lead
):
    lead_id, _ = add_lead_with_photos(app, add_lead)
    age_the_sign_in(app)
    assert signed_in.get(f"/staff/leads/{lead_id}/erase").status_code == 303
    staff.clock.advance()
    staff.post(
        signed_in,
        "/staff/confirm",
        {"password": account.password, "code": account.code(staff.clock())},
    )
    not_yet = signed_in.get(f"/staff/leads/{lead_id}/erase")  # still new: refused
    assert not_yet.headers["Location"] == f"/staff/leads/{lead_id}"
    refusal = "Only a closed or bought lead can be erased"
    assert refusal in page(signed_in, f"/staff/leads/{lead_id}")
    act(signed_in, lead_id, "close", {"reason": "withdrawn"})
    html = page(signed_in, f"/staff/leads/{lead_id}/erase")
    token = form_token(html)
    wrong = signed_in.post(
        f"/staff/leads/{lead_id}/erase",
        data={"erase-csrf_token": token, "erase-reference": "USWB-222222"},
    )
    assert wrong.status_code == 400 and state_of(app, lead_id) == "closed"
    with app.app_context():
        reference = store.get_lead(lead_id)["reference"]
    done = signed_in.post(
        f"/staff/leads/{lead_id}/erase",
        data={"erase-csrf_token": token, "erase-reference": reference.lower()},
    )
    assert done.status_code == 303
    html = page(signed_in, f"/staff/leads/{lead_id}")
    assert "Personal data erased; 2 photos removed." in html and "Photo Seller" not in html
    with app.app_context():
        assert store.get_lead(lead_id)["erased_at"] and store.lead_photos(lead_id) == []
        assert list(storage.photos_dir().glob(f"lead{lead_id}-*")) == []
    assert "lead_erased" in audit_actions(app)


def test_staff_pages_are_not_cached_or_indexed(app, signed_in, add_lead):
    lead_id = add_lead()
    for path in ("/staff/leads", f"/staff/leads/{lead_id}"):
        response = signed_in.get(path)
        assert response.headers["Cache-Control"] == "no-store"
        assert "noindex" in response.headers["X-Robots-Tag"]
        assert '<meta name="robots" content="noindex, nofollow">' in response.get_data(as_text=True)
    robots = app.test_client().get("/robots.txt").get_data(as_text=True)
    assert "Disallow: /staff" in robots
    assert "/staff" not in app.test_client().get("/sitemap.xml").get_data(as_text=True)
