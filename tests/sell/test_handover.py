"""/sell while the sale by mail is offered: the seller's ZIP code and how they hand the watch
over (in person only within reach of a city we cover), checked alike by the server and the
island, stored on the lead, and said back to a seller who chose the mail. With the setting off,
the form is as it always was."""

import re

import pytest
from werkzeug.datastructures import MultiDict

from app.leads import search, store
from app.sale import erasure, lifecycle
from app.sell import reach
from app.sell.forms import MailinSellForm, SellForm
from tests.data.validation_cases import VALID
from tests.helpers import JSON, island_messages, island_props, page_html, photo, post, sample_lead
from worker.seller_mail import confirmation_letter

BOISE, NEW_YORK, CAMBRIDGE_MA, SAN_JUAN_PR, ARMY_POST = "83702", "10001", "02139", "00901", "09012"
FAR = (
    "Your ZIP code is more than 50 miles from the cities where we meet sellers, so we buy your "
    "watch by insured mail. Please choose insured mail"
)
UNKNOWN = "We could not find this ZIP code. Please check it"
OUTSIDE = "We can only buy from sellers in the 50 states and DC"
SHAPE = "Please enter your 5-digit ZIP code"
CHOOSE = "Please choose how to hand the watch over"
MAIL_CHOSEN = "You chose to sell by insured mail: nothing is shipped until you have accepted"
# (field, value, expected message or None), with the other field valid; the browser runs the
# rules it is given, the server all of them.
BROWSER_CASES = [
    ("postalCode", "", SHAPE),
    ("postalCode", "8370", SHAPE),
    ("postalCode", "837021", SHAPE),
    ("postalCode", "8370a", SHAPE),
    ("postalCode", "83702-1234", SHAPE),
    ("postalCode", " 83702 ", None),
    ("postalCode", BOISE, None),
    ("handover", "", CHOOSE),
    ("handover", "courier", CHOOSE),
    ("handover", "mail", None),
]
SERVER_ONLY_CASES = [
    ({"postalCode": "00000", "handover": "mail"}, {"postalCode": UNKNOWN}),
    ({"postalCode": "99999", "handover": "in_person"}, {"postalCode": UNKNOWN}),
    ({"postalCode": SAN_JUAN_PR, "handover": "mail"}, {"postalCode": OUTSIDE}),
    ({"postalCode": ARMY_POST, "handover": "mail"}, {"postalCode": OUTSIDE}),
    ({"postalCode": BOISE, "handover": "in_person"}, {"handover": FAR}),
    ({"postalCode": "68102", "handover": "in_person"}, {"handover": FAR}),  # Omaha
    ({"postalCode": NEW_YORK, "handover": "in_person"}, {}),
    ({"postalCode": CAMBRIDGE_MA, "handover": "in_person"}, {}),
    ({"postalCode": NEW_YORK, "handover": "mail"}, {}),  # the mail is offered everywhere
]
MAIL = {"postalCode": BOISE, "handover": "mail"}


@pytest.fixture
def mailin(app):
    """The app with the sale by mail offered (put back after the test by `app`)."""
    app.config["MAILIN_ENABLED"] = True
    return app


def validate(app, form_class, values: dict):
    with app.test_request_context(method="POST"):
        form = form_class(formdata=MultiDict(values), meta={"csrf": False})
        form.validate()
        return form


@pytest.mark.parametrize(("name", "value", "message"), BROWSER_CASES)
def test_server_gives_each_rule_its_message(mailin, name, value, message):
    values = VALID | MAIL | {name: value}
    assert validate(mailin, MailinSellForm, values).first_errors().get(name) == message


@pytest.mark.parametrize(("values", "errors"), SERVER_ONLY_CASES)
def test_zip_codes_the_server_alone_can_judge(mailin, values, errors):
    assert validate(mailin, MailinSellForm, VALID | values).first_errors() == errors


def test_reach_is_50_miles_from_the_nearest_city_centre(mailin):
    with mailin.app_context():
        assert reach.nearest_city(CAMBRIDGE_MA)[0] == "Boston"
        city, miles = reach.nearest_city(BOISE)
        assert miles > 250 and not reach.can_meet(BOISE)
        # Trenton, NJ: about 30 miles from Philadelphia's centre, 55 from New York's
        assert reach.nearest_city("08608")[0] == "Philadelphia" and reach.can_meet("08608")
        assert reach.miles_between((40.7128, -74.0060), (42.3601, -71.0589)) == pytest.approx(
            190, abs=2
        )


def test_island_checks_the_same_rules_as_the_server(mailin):
    """components/shared/validation.js in Node, on the form's own rules: the same messages."""
    with mailin.test_request_context():
        rules = MailinSellForm(meta={"csrf": False}).rules()
    assert [rule["kind"] for rule in rules["postalCode"]["rules"]] == ["pattern"]
    assert [rule["kind"] for rule in rules["handover"]["rules"]] == ["choice"]
    assert island_messages(rules, BROWSER_CASES) == [message for _, _, message in BROWSER_CASES]


def test_with_the_setting_off_the_form_is_as_before(client, app):
    assert app.config["MAILIN_ENABLED"] is False
    html = page_html(client)
    props = island_props(html)
    assert set(props) == {
        "action", "fields", "brands", "conditions", "photos", "messages", "values", "errors",
        "formError", "photosDropped", "range", "rangeUrl",
    }  # fmt: skip
    assert set(props["fields"]) == {*SellForm.RULE_FIELDS, "hasBox", "hasPapers", "photos"}
    assert "mailChosen" not in props["messages"] and "handover" not in props["values"]
    for word in ('name="handover"', 'name="postalCode"', "ZIP", "insured mail", "sell-by-mail"):
        assert word not in html.split("<main", 1)[1].split("</main>", 1)[0], word
    assert re.search(r">3</span>.*?3\. </span>Upload Photos</h2>", html, re.S)
    assert "or use insured collection within 50 miles of the cities we cover" in html
    # posted anyway, the values are not asked for, so nothing of them is kept
    assert post(client, MAIL | {"handover": "in_person"}, [photo()]).status_code == 303
    with app.app_context():
        [lead] = search.list_leads()
    assert lead["handover"] is None and lead["postal_code"] is None


def test_with_the_setting_on_the_page_asks_for_the_zip_code_and_the_handover(client, mailin):
    html = page_html(client).replace("<!-- -->", "")
    assert re.search(r">3</span>.*?3\. </span>Handing Over Your Watch</h2>", html, re.S)
    assert re.search(r">4</span>.*?4\. </span>Upload Photos</h2>", html, re.S)
    assert re.search(r">ZIP Code<span[^>]*>\*</span>", html)
    assert re.search(r'<input[^>]*id="field-postalCode"[^>]*autoComplete="postal-code"', html)
    radios = re.findall(r'<input[^>]*type="radio"[^>]*name="handover"[^>]*value="(\w+)"', html)
    assert radios == ["in_person", "mail"]
    assert "At an appointment within 50 miles of one of the cities we cover." in html
    assert "From anywhere in the 50 states and DC, with a prepaid label we send you." in html
    assert 'href="/sell-by-mail"' in html
    assert "or send the watch by insured mail and we authenticate it on arrival" in html
    props = island_props(html)
    assert [choice["value"] for choice in props["handovers"]] == ["in_person", "mail"]
    assert props["messages"]["mailChosen"].startswith(MAIL_CHOSEN)


def test_a_mail_lead_is_stored_and_told_on_the_thank_you_page(client, mailin):
    response = post(client, {"postalCode": " 83702 ", "handover": "mail"}, [photo()])
    assert response.status_code == 303
    page = client.get("/sell/thanks").get_data(as_text=True).replace("&#39;", "'")
    assert MAIL_CHOSEN in page and 'href="/sell-by-mail"' in page
    with mailin.app_context():
        [lead] = search.list_leads()
    assert (lead["handover"], lead["postal_code"]) == ("mail", BOISE)


def test_an_in_person_lead_is_stored_and_its_pages_read_as_before(client, mailin):
    assert post(client, {"postalCode": NEW_YORK, "handover": "in_person"}).status_code == 303
    page = client.get("/sell/thanks").get_data(as_text=True)
    assert "insured mail" not in page and "data-handover" not in page
    with mailin.app_context():
        [lead] = search.list_leads()
        letter = confirmation_letter(lead, 0)
    assert (lead["handover"], lead["postal_code"]) == ("in_person", NEW_YORK)
    assert not any("insured mail" in paragraph for paragraph in letter.paragraphs)


def test_the_confirmation_e_mail_of_a_mail_lead_says_so_once(client, mailin):
    assert post(client, MAIL, headers=JSON).get_json()["success"] is True
    with mailin.app_context():
        [lead] = search.list_leads()
        letter = confirmation_letter(lead, 0)
    assert [p for p in letter.paragraphs if p.startswith(MAIL_CHOSEN)] == [letter.paragraphs[1]]


def test_a_far_zip_code_cannot_choose_in_person_on_either_path(client, mailin):
    body = post(client, {"postalCode": BOISE, "handover": "in_person"}, headers=JSON).get_json()
    assert body["success"] is False and body["errors"] == {"handover": FAR}
    response = post(client, {"postalCode": BOISE, "handover": "in_person"}, [photo()])
    assert response.status_code == 422
    html = response.get_data(as_text=True).replace("<!-- -->", "")
    assert 'id="field-handover-error"' in html and FAR in html
    chosen = re.search(r'<input[^>]*type="radio"[^>]*value="in_person"[^>]*>', html).group(0)
    assert 'checked=""' in chosen  # their choice kept, the error beside it
    assert 'value="83702"' in html and 'value="Jane Doe"' in html
    with mailin.app_context():
        assert search.list_leads() == []


def test_an_unknown_zip_code_is_refused_with_its_message(client, mailin):
    response = post(client, {"postalCode": "00000", "handover": "mail"})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert UNKNOWN in html and re.search(r'id="field-postalCode"[^>]*aria-invalid="true"', html)
    body = post(client, {"postalCode": "", "handover": ""}, headers=JSON).get_json()
    assert body["errors"] == {"postalCode": SHAPE, "handover": CHOOSE}


def test_erasure_blanks_the_zip_code_and_keeps_the_handover(app):
    record = sample_lead(handover="mail", postal_code=BOISE)
    with app.app_context():
        lead_id, _created = store.save_lead(record, [])
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "seller_declined"}, "new")
        erasure.erase(lead_id, "staff:1")
        lead = store.get_lead(lead_id)
    assert (lead["handover"], lead["postal_code"]) == ("mail", None)


@pytest.mark.parametrize("offered", [True, False])
def test_the_zip_codes_load_as_the_app_is_made_only_while_mail_is_offered(
    make_app, monkeypatch, offered
):
    asked = []
    monkeypatch.setattr(reach.zipcodes, "matching", lambda zip_code: asked.append(zip_code))
    make_app(MAILIN_ENABLED=offered)
    assert asked == (["10001"] if offered else [])
