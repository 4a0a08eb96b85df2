"""The stolen-watch register asked by API (app/sale/purchase/register_api.py, register_asks.py,
worker/register_jobs.py), against a local fake register that fails on purpose: asked once per
serial however it is typed, its answers recorded as register checks by "register_api" with
their certificates, a flag holding the sale, and no failure ever taken for "clear"."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from app import queue
from app.leads.db import get_db, immediate_transaction, transaction
from app.leads.history import lead_events
from app.sale import lifecycle
from app.sale.purchase import checklist, files, record, register_api, register_asks
from app.sale.purchase.authentication import Refused
from app.shipping import returns
from tests.helpers import (
    FINDINGS,
    PAYMENT,
    business_today,
    put_purchase_on_record,
    save_sample_lead,
    wait_until,
)
from tests.sale.purchase.fake_register import (  # noqa: F401 (fixtures)
    register,
    register_server,
    register_settings,
)
from tests.sale.purchase.register_steps import (  # noqa: F401 (a fixture)
    SERIAL,
    answer_at_once,
    ask,
    authenticated,
    purchase,
    register_app,
)


def test_nothing_is_asked_while_the_register_has_no_url(app, register):
    lead_id = authenticated(app)
    assert ask(app, lead_id) is None
    assert register.requests == []
    with app.app_context():
        assert get_db().execute("SELECT count(*) FROM register_asks").fetchone()[0] == 0


def test_a_serial_typed_with_spaces_or_dashes_is_asked_once_normalised(register_app, register):
    lead_id = authenticated(register_app)
    first = ask(register_app, lead_id, "7z-41k9 q2")
    again = ask(register_app, lead_id, SERIAL)
    assert first is not None and again is None
    searches = register.searches()
    assert [s["body"] for s in searches] == [
        {"serial_number": SERIAL, "brand": "Rolex", "item": "watch"}
    ]
    assert searches[0]["auth"] == "Bearer reg-key-123"
    assert "Jordan" not in str(searches) and "@" not in str(searches)  # nothing of the seller


def test_a_clear_answer_is_a_register_check_by_the_api_with_its_certificate(register_app, register):
    lead_id = authenticated(register_app)
    ask(register_app, lead_id)
    record_now = purchase(register_app, lead_id)
    assert record_now["register_result"] == "clear"
    assert record_now["register_provider"] == "The Watch Register"
    assert record_now["register_reference"] == "REG-0001"
    assert record_now["register_checked_on"] == business_today().isoformat()
    assert record_now["register_serial"] == SERIAL
    with register_app.app_context():
        check = get_db().execute("SELECT * FROM register_checks WHERE lead_id = ?", (lead_id,))
        check = dict(check.fetchone())
        assert check["recorded_by"] == "register_api"
        assert check["provider_reference"] == "REG-0001"
        stored = files.read(files.file_of(lead_id, check["certificate"]))
        assert stored.startswith(b"%PDF-")
        kinds = [e["kind"] for e in lead_events(lead_id)]
        assert {"register_asked", "register_checked", "register_answered"} <= set(kinds)
        assert checklist.register_clear(record.get(lead_id))


def test_a_flagged_answer_holds_the_sale_and_alerts_staff_once(register_app, register, smtp_server):
    lead_id = authenticated(register_app)
    register.answer(SERIAL, "flagged")
    ask(register_app, lead_id)
    assert purchase(register_app, lead_id)["register_result"] == "flagged"
    with register_app.app_context():
        with pytest.raises(lifecycle.MissingDetails, match="a clear stolen-watch register check"):
            data = {"amount": 9500, "paid_on": business_today().isoformat()} | PAYMENT
            lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
        queue.run_now(queue.ASK_REGISTER, register_asks.get(1)["id"])  # a repeated job
    alerts = [m for m in smtp_server.messages if "FLAGGED" in m["Subject"]]
    assert len(alerts) == 1
    assert SERIAL not in alerts[0].get_body().get_content()
    assert alerts[0]["Reply-To"] is None  # a hurried reply never reaches the seller


def test_a_flag_on_a_serial_on_record_as_engraved_holds_the_sale(
    register_app, register, smtp_server
):
    lead_id = authenticated(register_app, "7Z41 K9Q2")  # as the caseback reads, with its space
    register.answer(SERIAL, "flagged")
    ask(register_app, lead_id, "7Z41 K9Q2")
    held = purchase(register_app, lead_id)  # a flag is of the serial asked, in its normal form
    assert (held["register_result"], held["register_serial"]) == ("flagged", SERIAL)
    with register_app.app_context():
        assert returns.held_for_checks(lead_id)
        with pytest.raises(lifecycle.MissingDetails, match="a clear stolen-watch register check"):
            data = {"amount": 9500, "paid_on": business_today().isoformat()} | PAYMENT
            lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
    assert sum("FLAGGED" in m["Subject"] for m in smtp_server.messages) == 1


def test_a_flag_after_a_clear_answer_holds_the_purchase(register_app, register):
    lead_id = authenticated(register_app)
    ask(register_app, lead_id)
    assert purchase(register_app, lead_id)["register_result"] == "clear"
    register.answer(SERIAL, "flagged")
    with register_app.app_context():  # the findings corrected, then back: a new question
        with transaction() as db:
            record.update(db, lead_id, {"serial_number": "OTHER1"})
        register_asks.ask_about(lead_id, "OTHER1", "serial_on_record")
        queue.wait_until_idle(10)
        with transaction() as db:
            record.update(db, lead_id, {"serial_number": SERIAL})
        with transaction() as db:  # the earlier answer is not asked again; a staff re-check is
            db.execute("UPDATE register_asks SET outcome = 'failed' WHERE serial_number = ?",
                       (SERIAL,))  # fmt: skip
        register_asks.ask_about(lead_id, SERIAL, "serial_on_record")
        queue.wait_until_idle(10)
    assert purchase(register_app, lead_id)["register_result"] == "flagged"


def test_an_unknown_answer_records_no_check_and_asks_staff_to_check_by_hand(
    register_app, register, smtp_server
):
    lead_id = authenticated(register_app)
    register.answer(SERIAL, "unknown")
    ask_id = ask(register_app, lead_id)
    with register_app.app_context():
        assert register_asks.get(ask_id)["outcome"] == "unknown"
        assert get_db().execute("SELECT count(*) FROM register_checks").fetchone()[0] == 0
    assert purchase(register_app, lead_id)["register_result"] is None
    assert any("check by hand" in m["Subject"] for m in smtp_server.messages)


def test_a_failed_try_is_retried_and_then_answered(register_app, register):
    lead_id = authenticated(register_app)
    register.plan("search", 500)
    ask_id = ask(register_app, lead_id)
    with register_app.app_context():
        queue.wait_until_idle(10)
        assert register_asks.get(ask_id)["attempts"] == 2
        assert register_asks.get(ask_id)["outcome"] == "clear"
    assert len(register.searches()) == 2


@pytest.mark.parametrize(
    ("action", "failure", "error"),
    [
        ("search", 500, "HTTP 500 from the register"),
        ("search", 401, "HTTP 401 from the register"),
        ("search", "slow", "no answer in time"),
        ("search", "garbage", "an answer that is not a search result"),
        ("search", "redirect", "a redirect (HTTP 302), not followed"),
        ("certificate", "not_pdf", "a certificate that is neither a PDF nor an image"),
        ("certificate", 503, "HTTP 503 from the register"),
    ],
)
def test_no_failure_is_ever_taken_for_clear(register_app, register, smtp_server, action, failure,
                                            error):  # fmt: skip
    lead_id = authenticated(register_app)
    register.plan(action, failure, failure)  # the first try and its one retry
    ask_id = ask(register_app, lead_id)
    with register_app.app_context():
        queue.wait_until_idle(10)
        asked = register_asks.get(ask_id)
        assert (asked["outcome"], asked["last_error"], asked["attempts"]) == ("failed", error, 2)
        assert get_db().execute("SELECT count(*) FROM register_checks").fetchone()[0] == 0
        assert not checklist.register_clear(record.get(lead_id))
    assert register.elsewhere.keys == []  # the key never followed a redirect
    assert sum("no answer, check by hand" in m["Subject"] for m in smtp_server.messages) == 1


def test_a_certificate_on_another_host_is_not_fetched(register_app, register):
    with register_app.app_context():
        register_app.config["REGISTER_API_URL"] = register.url.replace("127.0.0.1", "localhost")
        lead_id = authenticated(register_app)
        ask_id = register_asks.ask_about(lead_id, SERIAL, "serial_on_record")
        wait_until(lambda: register_asks.get(ask_id)["outcome"], timeout=20)
        assert register_asks.get(ask_id)["outcome"] == "failed"
        assert register_asks.get(ask_id)["last_error"] == (
            "a result without its certificate on the register's own host"
        )
    assert [r["method"] for r in register.requests] == ["POST", "POST"]


@pytest.mark.parametrize(
    "certificate_url",
    [
        "https://register.example.evil.net/certificates/REG-0001.pdf",
        "https://register.example@evil.net/certificates/REG-0001.pdf",
        "https://user@register.example/certificates/REG-0001.pdf",
        "https://register.example:8443/certificates/REG-0001.pdf",
        "http://register.example/certificates/REG-0001.pdf",
        "https://evil.net/register.example/certificates/REG-0001.pdf",
        "//register.example/certificates/REG-0001.pdf",
        "/certificates/REG-0001.pdf",
    ],
    ids=["lookalike", "userinfo-host", "user-at-host", "port", "http", "path", "no-scheme",
         "relative"],
)  # fmt: skip
def test_a_certificate_on_a_lookalike_of_the_registers_host_is_refused(app, certificate_url):
    app.config["REGISTER_API_URL"] = "https://register.example/api"
    answer = {"result": "flagged", "reference": "REG-0001", "certificate_url": certificate_url}
    with app.app_context():
        with pytest.raises(register_api.RegisterError, match="on the register's own host"):
            register_api.parsed(json.dumps(answer).encode())
        ours = "https://register.example/certificates/REG-0001.pdf"
        own = register_api.parsed(json.dumps(answer | {"certificate_url": ours}).encode())
        assert own.certificate_url == ours


def test_a_clear_check_too_old_to_pay_on_is_asked_again_and_the_payment_waits(
    register_app, register
):
    lead_id = authenticated(register_app)
    ask(register_app, lead_id)
    old = (business_today() - timedelta(days=31)).isoformat()
    with register_app.app_context():
        with transaction() as db:
            record.update(db, lead_id, {"register_checked_on": old})
        register_app.config["JOB_RETRY_INTERVALS"] = ()
        register.plan("search", "slow")  # the fresh answer is not in when staff press Bought
        data = {"amount": 9500, "paid_on": business_today().isoformat()} | PAYMENT
        with pytest.raises(lifecycle.MissingDetails, match="recent enough to pay on"):
            lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
        queue.wait_until_idle(10)
        with pytest.raises(lifecycle.MissingDetails, match="recent enough to pay on"):
            lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
        queue.wait_until_idle(10)  # the second press asked again; this time it is answered
        assert record.get(lead_id)["register_checked_on"] == business_today().isoformat()
        lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
    reasons = [s for s in register.searches()]
    assert len(reasons) == 3


def test_a_fresh_answer_in_at_once_still_makes_bought_wait_for_another_press(
    register_app, register, monkeypatch
):
    lead_id = authenticated(register_app)
    ask(register_app, lead_id)
    with register_app.app_context():
        with transaction() as db:
            record.update(db, lead_id, {"register_checked_on": days_ago(31)})
        answer_at_once(monkeypatch)
        data = {"amount": 9500, "paid_on": business_today().isoformat()} | PAYMENT
        with pytest.raises(lifecycle.MissingDetails, match="recent enough to pay on"):
            lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
        assert record.get(lead_id)["register_checked_on"] == business_today().isoformat()
        lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")  # the next press


@pytest.mark.parametrize(
    "reference",
    ["REG-0001\n", "REG-0001 <b>stolen</b>", "REG-0001\nREG-0002", "", "-REG-0001", "R" * 101],
    ids=["newline-after", "more-after", "second-line", "empty", "dash-first", "too-long"],
)
def test_an_answer_whose_reference_is_not_one_whole_reference_is_refused(app, reference):
    app.config["REGISTER_API_URL"] = "https://register.example/api"
    answer = {"result": "unknown", "reference": reference}
    with app.app_context():
        with pytest.raises(register_api.RegisterError, match="without the register's reference"):
            register_api.parsed(json.dumps(answer).encode())
        assert register_api.parsed(json.dumps(answer | {"reference": "R" * 100}).encode())


def test_a_question_is_closed_once_however_many_jobs_answer_it(register_app, register):
    lead_id = authenticated(register_app)
    with register_app.app_context():
        with transaction() as db:
            ask_id = register_asks.open_ask(db, lead_id, SERIAL, "serial_on_record")
        assert register_asks.end(ask_id, "unknown") is True
        assert register_asks.end(ask_id, "failed") is False  # a second job, a moment late
        assert register_asks.get(ask_id)["outcome"] == "unknown"
        answered = [e for e in lead_events(lead_id) if e["kind"] == "register_answered"]
    assert [event["data"]["outcome"] for event in answered] == ["unknown"]


def test_a_question_about_a_lead_erased_meanwhile_is_never_put(register_app, register):
    lead_id = authenticated(register_app)
    with register_app.app_context():
        with transaction() as db:
            ask_id = register_asks.open_ask(db, lead_id, SERIAL, "serial_on_record")
            db.execute("UPDATE leads SET erased_at = '2026-11-28T10:00:00+00:00'")
        assert register_asks.put_to_register(ask_id) == "not_recorded"
        assert register_asks.get(ask_id)["outcome"] == "not_recorded"
    assert register.requests == []


def test_each_payment_on_a_check_too_old_asks_again_whatever_was_answered_before(
    register_app, register
):
    lead_id = authenticated(register_app)
    ask(register_app, lead_id)
    for _ in range(2):  # a month apart, say: each payment needs its own recent answer
        with register_app.app_context():
            with transaction() as db:
                record.update(db, lead_id, {"register_checked_on": days_ago(31)})
            ask_id = register_asks.refresh_before_payment(lead_id)
            assert ask_id is not None
            wait_until(lambda ask_id=ask_id: register_asks.get(ask_id)["outcome"], timeout=20)
            assert register_asks.get(ask_id)["outcome"] == "clear"
    assert len(register.searches()) == 3


def test_the_age_a_check_may_be_paid_on_is_the_setting(make_app, register):
    app = make_app(**register_settings(register), REGISTER_CHECK_MAX_AGE_DAYS="14")
    lead_id = authenticated(app)
    ask(app, lead_id)
    data = {"amount": 9500, "paid_on": business_today().isoformat()} | PAYMENT
    with app.app_context():
        with transaction() as db:  # too old under the setting, recent under the default 30
            record.update(db, lead_id, {"register_checked_on": days_ago(15)})
        with pytest.raises(lifecycle.MissingDetails, match="recent enough to pay on"):
            lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
        queue.wait_until_idle(10)
        assert len(register.searches()) == 2
        with transaction() as db:  # exactly the setting's age still pays
            record.update(db, lead_id, {"register_checked_on": days_ago(14)})
        lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
    assert len(register.searches()) == 2


def days_ago(days: int) -> str:
    return (business_today() - timedelta(days=days)).isoformat()


def test_a_check_of_any_age_pays_while_staff_check_the_register_by_hand(app):
    with app.app_context():
        old = {"register_result": "clear", "register_checked_on": "2020-01-01"}
        assert not checklist.register_recent(old)
        assert checklist.missing(old, checklist.BEFORE_PURCHASE) == [
            words for item, words in checklist.BEFORE_PURCHASE if item != "register_recent"
        ][:4] + ["a clear stolen-watch register check"]


def quoted_and_accepted(app) -> int:
    """A lead whose seller accepted the quote: nobody has seen the watch yet."""
    lead_id = save_sample_lead(app)
    with app.app_context(), transaction() as db:
        db.execute("UPDATE leads SET state = 'accepted' WHERE id = ?", (lead_id,))
    return lead_id


def ask_for_sellers_serial(app, lead_id: int, serial: str) -> int:
    with app.app_context():
        ask_id = register_asks.ask_about(lead_id, serial, "sellers_serial")
        wait_until(lambda: register_asks.get(ask_id)["outcome"], timeout=20)
        return ask_id


def test_a_flag_on_the_serial_the_seller_gave_holds_the_sale_before_anyone_travels(
    register_app, register
):
    lead_id = quoted_and_accepted(register_app)
    register.answer(SERIAL, "flagged")
    ask_for_sellers_serial(register_app, lead_id, "7z41 k9q2")
    held = purchase(register_app, lead_id)
    assert (held["register_result"], held["register_serial"]) == ("flagged", SERIAL)
    assert held["authenticated_at"] is None
    # Later the findings read the same serial and the register says clear (say, the report was
    # withdrawn): that clear check waits for a second staff member, and the flag still holds.
    register.answer(SERIAL, "clear")
    with register_app.app_context():
        with transaction() as db:
            db.execute("UPDATE leads SET state = 'agreed' WHERE id = ?", (lead_id,))
        put_purchase_on_record(lead_id)
        with transaction() as db:
            record.update(db, lead_id, {
                "authenticated_at": f"{business_today()}T12:00:00+00:00",
                "register_result": "flagged", "register_serial": SERIAL,
            })  # fmt: skip
        ask_id = register_asks.ask_about(lead_id, SERIAL, "serial_on_record")
        wait_until(lambda: register_asks.get(ask_id)["outcome"], timeout=20)
        assert record.get(lead_id)["register_result"] == "flagged"
        data = {"amount": 9500, "paid_on": business_today().isoformat()} | PAYMENT
        with pytest.raises(lifecycle.MissingDetails, match="a clear stolen-watch register check"):
            lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
    assert len(register.searches()) == 2


def test_a_clear_answer_on_the_sellers_serial_is_no_check_and_the_findings_ask_again(
    register_app, register
):
    lead_id = quoted_and_accepted(register_app)
    ask_id = ask_for_sellers_serial(register_app, lead_id, SERIAL)
    with register_app.app_context():
        assert register_asks.get(ask_id)["outcome"] == "clear"
        assert get_db().execute("SELECT count(*) FROM register_checks").fetchone()[0] == 0
        assert register_asks.ask_about(lead_id, SERIAL, "sellers_serial") is None  # once
    assert not (purchase(register_app, lead_id) or {}).get("register_result")
    with register_app.app_context():  # at the appointment, the findings read the same serial
        with transaction() as db:
            db.execute("UPDATE leads SET state = 'agreed' WHERE id = ?", (lead_id,))
        put_purchase_on_record(lead_id)
        with transaction() as db:
            record.update(db, lead_id, {
                "authenticated_at": f"{business_today()}T12:00:00+00:00",
                "register_result": None, "register_serial": None,
            })  # fmt: skip
    ask(register_app, lead_id)
    assert purchase(register_app, lead_id)["register_result"] == "clear"
    assert len(register.searches()) == 2


def test_a_flag_on_a_serial_corrected_since_it_was_asked_still_holds_the_sale(
    register_app, register
):
    lead_id = authenticated(register_app, "7Z41K9Q3")  # a typo at the authentication
    register.answer("7Z41K9Q3", "flagged")
    with register_app.app_context():
        with immediate_transaction() as db:  # asked, its job not run yet
            ask_id = register_asks.open_ask(db, lead_id, "7Z41K9Q3", "serial_on_record")
        with transaction() as db:  # staff correct the findings before the answer comes
            record.update(db, lead_id, {"serial_number": SERIAL})
        assert register_asks.put_to_register(ask_id) == "flagged"
        held = record.get(lead_id)
        assert (held["register_result"], held["register_serial"]) == ("flagged", "7Z41K9Q3")
        check = get_db().execute("SELECT * FROM register_checks WHERE lead_id = ?", (lead_id,))
        assert [(c["result"], c["recorded_by"]) for c in check] == [("flagged", "register_api")]
        assert register_asks.get(ask_id)["check_id"] is not None
        data = {"amount": 9500, "paid_on": business_today().isoformat()} | PAYMENT
        with pytest.raises(lifecycle.MissingDetails, match="a clear stolen-watch register check"):
            lifecycle.transition(lead_id, "bought", "staff:1", data, "agreed")
    ask(register_app, lead_id)  # the corrected serial comes back clear: it waits for approval
    assert purchase(register_app, lead_id)["register_result"] == "flagged"


@pytest.mark.parametrize("corrected", ["7z41k9q2", "7Z41 K9Q2", "7z41-k9q2"])
def test_correcting_only_the_spacing_or_case_of_the_serial_keeps_its_clear_check(
    register_app, register, corrected
):
    lead_id = authenticated(register_app)
    ask(register_app, lead_id)
    with register_app.app_context():
        with transaction() as db:  # before the seller signs: the serial may still be corrected
            db.execute("UPDATE leads SET state = 'offered' WHERE id = ?", (lead_id,))
            record.update(db, lead_id, {"signed_at": None})
        findings = FINDINGS | {"serial_number": corrected, "condition_findings": "Very good"}
        register_asks.record_findings_and_ask(lead_id, "staff:1", findings)
        queue.wait_until_idle(10)
        assert record.get(lead_id)["serial_number"] == corrected
        assert checklist.register_clear(record.get(lead_id))
    assert len(register.searches()) == 1  # the same serial: not asked again


def test_after_signing_a_serial_retyped_in_another_spacing_stays_as_signed(register_app, register):
    lead_id = authenticated(register_app)
    ask(register_app, lead_id)
    with register_app.app_context():
        findings = FINDINGS | {"serial_number": "7z41 k9q2", "condition_findings": "Very good"}
        register_asks.record_findings_and_ask(lead_id, "staff:1", findings)
        kept = record.get(lead_id)
        assert (kept["serial_number"], kept["condition_findings"]) == (SERIAL, "Very good")
        assert checklist.missing(kept, checklist.BEFORE_PURCHASE) == []
        with pytest.raises(Refused, match="can no longer be changed"):
            register_asks.record_findings_and_ask(lead_id, "staff:1", FINDINGS | {
                "serial_number": "7Z41K9Q3", "condition_findings": "Very good"})  # fmt: skip
