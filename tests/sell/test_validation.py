"""The sell form implements SPEC §5 exactly, and hands the island the same rules as props."""

import re

import pytest
from werkzeug.datastructures import MultiDict

from app.catalog import BRANDS, CONDITIONS
from app.sell.forms import SellForm
from tests.data.validation_cases import CASES, VALID
from tests.helpers import island_messages


def validate(app, values: dict) -> SellForm:
    with app.test_request_context(method="POST"):
        form = SellForm(formdata=MultiDict(values), meta={"csrf": False})
        form.validate()
        return form


@pytest.mark.parametrize(("name", "value", "message"), CASES)
def test_server_gives_the_spec_message_for_each_rule(app, name, value, message):
    form = validate(app, VALID | {name: value})
    assert form.first_errors().get(name) == message


def test_valid_submission_has_no_errors(app):
    assert validate(app, VALID).first_errors() == {}


def test_names_are_trimmed_and_nfc_normalised(app):
    form = validate(app, VALID | {"fullName": "  Jose\u0301  "})
    assert form.fullName.data == "José"


def test_choices_are_the_spec_lists_in_order():
    assert len(BRANDS) == 17 and BRANDS[0] == "Rolex" and BRANDS[-1] == "Other"
    assert BRANDS[13:16] == ["F.P. Journe", "TAG Heuer", "Chopard"]
    assert CONDITIONS == [
        "Excellent - Like new",
        "Very Good - Minor wear",
        "Good - Moderate wear",
        "Fair - Significant wear",
        "Needs Service/Repair",
    ]


def test_island_rules_are_generated_from_the_form(app):
    with app.test_request_context():
        rules = SellForm(meta={"csrf": False}).rules()
    assert rules["fullName"]["required"] is True
    assert rules["watchModel"]["required"] is False
    messages = [rule["message"] for rule in rules["phone"]["rules"]]
    assert messages == [
        "Phone number must be at least 8 digits",
        "Phone number must be less than 20 characters",
        "Please enter a valid phone number",
    ]


def test_client_validator_agrees_with_server_on_every_case(app):
    """Runs components/shared/validation.js in Node on the form's own rules."""
    with app.test_request_context():
        rules = SellForm(meta={"csrf": False}).rules()
    assert island_messages(rules, CASES) == [message for _, _, message in CASES]


def test_name_pattern_given_to_the_island_is_unicode_letters_and_marks(app):
    with app.test_request_context():
        rules = SellForm(meta={"csrf": False}).rules()
    pattern = next(r for r in rules["fullName"]["rules"] if r["kind"] == "pattern")
    assert pattern["value"] == "^[\\p{L}\\p{M} '’\\-]+$"
    assert not re.search(r"\\d", pattern["value"])
