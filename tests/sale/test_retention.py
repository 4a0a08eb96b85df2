"""The daily retention run: claimed once a day however many processes share leads.db,
started by the first request to claim the day, and applying each rule at its boundary (bank
details PAYOUT_DETAILS_DAYS after payment, leads without activity for LEAD_RETENTION_MONTHS,
purchase records past retain_until), each in the audit log and on the lead's timeline, with the
files gone from disk; `flask purchases retention` and `flask purchases rotate-key`."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta

import pytest

from app import queue, redis_guard
from app.extensions import rq
from app.leads import audit, history, store
from app.leads.db import get_db, transaction
from app.sale import erasure, lifecycle, retention
from app.sale.purchase import crypto, files, payout, record
from tests.helpers import (
    backdate_activity,
    business_today,
    buy_lead,
    lead_work_done,
    put_purchase_on_record,
    save_sample_lead,
)
from worker import jobs

ROUTING = "021000021"
ACCOUNT = "000123456789"  # as tests/helpers.py fill_purchase_record stores it


def run_retention(app) -> str:
    with app.app_context():
        return jobs.apply_retention()


def bought(app, paid_days_ago: int = 0) -> int:
    """A lead bought `paid_days_ago` days ago (the real transition) with its bank details and
    every job it queued run."""
    lead_id = save_sample_lead(app)
    buy_lead(app, lead_id, paid_days_ago=paid_days_ago)
    lead_work_done(app)
    with app.app_context(), transaction() as db:
        payout = {
            "routing_number_enc": record.sealed(lead_id, "routing_number_enc", ROUTING),
            "account_holder": "Jordan Avery",
        }
        record.update(db, lead_id, payout)
    return lead_id


def event_kinds(app, lead_id: int) -> list[str]:
    with app.app_context():
        return [event["kind"] for event in history.lead_events(lead_id)]


def audited(app, lead_id: int) -> list[dict]:
    with app.app_context():
        return audit.entries(lead_id=lead_id)


def add_id_photos(app, lead_id: int) -> list[dict]:
    """The ID's photos stored for the lead, as the paperwork stores them."""
    with app.app_context(), transaction() as db:
        return [
            files.add_file(db, lead_id, kind, f"{kind} of lead {lead_id}".encode(), "image/jpeg")
            for kind in files.ID_PHOTOS
        ]


def documents_of(app, lead_id: int) -> list[dict]:
    """The bill of sale and the receipt the documents job made when the lead was bought."""
    with app.app_context():
        rows = files.files_of(lead_id, files.DOCUMENTS)
    assert [row["kind"] for row in rows] == ["bill_of_sale", "receipt"]
    return rows


def on_disk(app, rows: list[dict]) -> list[bool]:
    with app.app_context():
        return [(files.files_dir() / row["file_name"]).exists() for row in rows]


# Once a day, whichever process asks first.


def test_of_two_apps_on_one_leads_db_exactly_one_claims_each_day(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    first, second = make_app(LEADS_DB=path), make_app(LEADS_DB=path)
    claims: list[bool] = []
    start = threading.Barrier(8)

    def claim(app):
        with app.app_context():
            start.wait()
            claims.append(retention.claim_today(retention.RETENTION))

    threads = [threading.Thread(target=claim, args=(app,)) for app in (first, second) * 4]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(claims) == [False] * 7 + [True]
    with first.app_context():
        assert not retention.claim_today(retention.RETENTION)
        assert retention.claim_today("another daily job")  # each name has its own day
    yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    with second.app_context(), transaction() as db:
        db.execute("UPDATE daily_runs SET ran_on = ?", (yesterday,))
    with second.app_context():
        assert retention.claim_today(retention.RETENTION)  # a new day
    with first.app_context():
        assert not retention.claim_today(retention.RETENTION)


def daily_check(app) -> retention.DailyCheck:
    [check] = [f for f in app.before_request_funcs[None] if isinstance(f, retention.DailyCheck)]
    return check


def queued_jobs(app) -> list[tuple[str, tuple]]:
    """The jobs waiting in the app's Redis queue, as (name, ids)."""
    with app.app_context():
        waiting = rq.queue
        return [(job.func_name, job.args) for job in waiting.get_jobs()]


def test_the_first_request_of_the_day_queues_the_run_and_no_other_process_does(
    make_app, tmp_path, monkeypatch, redis_server
):
    path = str(tmp_path / "leads.db")
    settings = {"LEADS_DB": path, "TESTING": False, "REDIS_URL": redis_server.url}
    first, second = (make_app(**settings) for _ in range(2))
    claims = []
    claim_today = retention.claim_today
    monkeypatch.setattr(
        retention, "claim_today", lambda name: claims.append(name) or claim_today(name)
    )
    for app in (first, first, second, second):
        assert app.test_client().get("/status").status_code == 200
    assert queued_jobs(first) == [(queue.APPLY_RETENTION, ())]
    assert len(claims) == 2  # one check per process until CHECK_EVERY_SECONDS have passed
    yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    with second.app_context(), transaction() as db:
        db.execute("UPDATE daily_runs SET ran_on = ?", (yesterday,))
    daily_check(second).next_check = 0  # as if CHECK_EVERY_SECONDS had passed
    second.test_client().get("/status")
    assert queued_jobs(first) == [(queue.APPLY_RETENTION, ())] * 2


def test_a_run_the_queue_refused_is_claimed_again_at_the_next_check(
    make_app, tmp_path, redis_server, monkeypatch
):
    monkeypatch.setattr(redis_guard, "REDIS_REST_SECONDS", 0)  # the next check is 10 min on
    app = make_app(LEADS_DB=str(tmp_path / "leads.db"), TESTING=False, REDIS_URL=redis_server.url)
    redis_server.stop()  # Redis down at the first check
    app.test_client().get("/status")
    with app.app_context():
        assert get_db().execute("SELECT * FROM daily_runs").fetchall() == []
    redis_server.start()  # and back at the second
    daily_check(app).next_check = 0
    app.test_client().get("/status")
    with app.app_context():
        assert not retention.claim_today(retention.RETENTION)  # claimed, and queued this time
    assert queued_jobs(app) == [(queue.APPLY_RETENTION, ())]


def test_test_apps_check_nothing_and_the_site_runs_the_job_in_process_without_redis(
    app, make_app, tmp_path
):
    assert not [f for f in app.before_request_funcs[None] if isinstance(f, retention.DailyCheck)]
    live = make_app(LEADS_DB=str(tmp_path / "leads.db"), TESTING=False)
    lead_id = bought(live, paid_days_ago=live.config["PAYOUT_DETAILS_DAYS"])
    assert live.test_client().get("/status").status_code == 200
    lead_work_done(live)
    with live.app_context():
        assert record.get(lead_id)["account_number_enc"] is None
    assert [entry["action"] for entry in audited(live, lead_id)] == ["payout_details_erased"]


# Each rule at its boundary: one day before, nothing; on the day, done.


@pytest.mark.parametrize("days_before", [1, 0])
def test_bank_details_go_payout_details_days_after_payment_and_the_record_stays(app, days_before):
    days = app.config["PAYOUT_DETAILS_DAYS"]
    assert days == 30
    lead_id = bought(app, paid_days_ago=days - days_before)
    run_retention(app)
    with app.app_context():
        purchase = record.get(lead_id)
    kept = {key: purchase[key] for key in ("account_number_last4", "account_holder", "legal_name")}
    assert kept == {
        "account_number_last4": "6789",
        "account_holder": "Jordan Avery",
        "legal_name": "Jordan A. Avery",
    }
    assert purchase["record_erased_at"] is None and purchase["paid_amount"] == 9500
    if days_before:
        with app.app_context():
            assert record.opened(purchase, "routing_number_enc") == ROUTING
            assert record.opened(purchase, "account_number_enc") == ACCOUNT
        assert purchase["payout_erased_at"] is None
        assert "payout_details_erased" not in event_kinds(app, lead_id)
        assert audited(app, lead_id) == []
        return
    assert purchase["routing_number_enc"] is None and purchase["account_number_enc"] is None
    assert purchase["payout_erased_at"]
    assert event_kinds(app, lead_id).count("payout_details_erased") == 1
    [entry] = audited(app, lead_id)
    assert entry["action"] == "payout_details_erased" and entry["staff_id"] is None
    assert entry["data"] == {"paid_on": purchase["paid_on"], "after_days": 30}
    run_retention(app)  # nothing is done twice
    assert len(audited(app, lead_id)) == 1


@pytest.mark.parametrize("margin_days", [1, -1])
def test_an_open_lead_without_activity_for_the_retention_months_is_closed_then_erased(
    mail_app, smtp_server, margin_days
):
    lead_id = save_sample_lead(mail_app)
    backdate_activity(mail_app, lead_id, timedelta(days=margin_days))
    summary = run_retention(mail_app)
    lead_work_done(mail_app)
    with mail_app.app_context():
        lead = store.get_lead(lead_id)
        events = history.lead_events(lead_id)
    if margin_days > 0:
        assert summary == "erased: bank details 0, leads 0, purchase records 0, paperwork drafts 0"
        assert lead["state"] == "new" and lead["erased_at"] is None
        assert audited(mail_app, lead_id) == []
        return
    assert summary == "erased: bank details 0, leads 1, purchase records 0, paperwork drafts 0"
    assert lead["state"] == "closed" and lead["erased_at"]
    assert lead["email"] == lead["full_name"] == lead["phone"] == ""
    closing = [event for event in events if event["kind"] == "state_changed"]
    assert [(e["actor"], e["data"]) for e in closing] == [
        ("system", {"from": "new", "to": "closed", "reason": "no_response"})
    ]
    assert [event["kind"] for event in events][-1] == "erased"
    [entry] = audited(mail_app, lead_id)
    assert (entry["action"], entry["staff_id"]) == ("lead_erased", None)
    assert entry["data"]["after_months"] == 24 and entry["data"]["photos"] == 0
    assert smtp_server.messages == []  # no "enquiry closed" e-mail to an address being erased


def test_only_leads_that_never_became_purchases_are_erased_for_inactivity(app):
    closed, agreed, sold = (save_sample_lead(app) for _ in range(3))
    with app.app_context():
        lifecycle.transition(closed, "closed", "staff:1", {"reason": "not_a_fit"}, "new")
        put_purchase_on_record(agreed)  # accepted the final offer, then never signed
    id_photos = add_id_photos(app, agreed)
    buy_lead(app, sold, paid_days_ago=3 * 365)
    lead_work_done(app)
    for lead_id in (closed, agreed, sold):
        backdate_activity(app, lead_id, timedelta(days=-30))
    summary = run_retention(app)
    assert summary == "erased: bank details 1, leads 2, purchase records 0, paperwork drafts 0"
    with app.app_context():
        leads = {lead_id: store.get_lead(lead_id) for lead_id in (closed, agreed, sold)}
        assert record.get(agreed) is None and files.files_of(agreed) == []
        assert record.get(sold)["legal_name"] == "Jordan A. Avery"
    assert leads[closed]["erased_at"] and leads[agreed]["erased_at"]
    assert leads[agreed]["state"] == "closed"
    assert leads[sold]["erased_at"] is None and leads[sold]["email"] == "jane@example.com"
    assert on_disk(app, id_photos) == [False, False]
    assert event_kinds(app, closed).count("state_changed") == 1  # already closed: not again


@pytest.mark.parametrize("days_past", [0, 1])
def test_a_purchase_record_is_erased_once_past_retain_until_and_its_outcome_stays(app, days_past):
    lead_id = bought(app)
    stored = add_id_photos(app, lead_id) + documents_of(app, lead_id)
    with app.app_context(), transaction() as db:
        until = business_today() - timedelta(days=days_past)
        record.update(db, lead_id, {"retain_until": until.isoformat()})
    run_retention(app)
    with app.app_context():
        purchase, lead = record.get(lead_id), store.get_lead(lead_id)
        rows = files.files_of(lead_id)
        progress = dict(
            get_db().execute("SELECT * FROM lead_progress WHERE lead_id = ?", (lead_id,)).fetchone()
        )
    if not days_past:
        assert purchase["record_erased_at"] is None and purchase["legal_name"]
        assert lead["erased_at"] is None and len(rows) == 4 and all(on_disk(app, stored))
        assert audited(app, lead_id) == []
        return
    assert purchase["record_erased_at"]
    assert {field: purchase[field] for field in record.PERSONAL_FIELDS} == dict.fromkeys(
        record.PERSONAL_FIELDS
    )
    outcome = ("paid_amount", "payment_method", "serial_number", "register_result", "paid_on")
    assert {field: purchase[field] for field in outcome} == {
        "paid_amount": 9500,
        "payment_method": "ach",
        "serial_number": "7Z41K9Q2",
        "register_result": "clear",
        "paid_on": purchase["paid_on"],
    }
    assert lead["erased_at"] and lead["email"] == "" and lead["reference"].startswith("USWB-")
    assert lead["state"] == "bought" and lead["watch_brand"] == "Rolex"
    assert progress["bought_amount"] == 9500  # the dashboard's figures do not change
    assert rows == [] and on_disk(app, stored) == [False] * 4
    assert {"erased", "purchase_record_erased"} <= set(event_kinds(app, lead_id))
    [entry] = audited(app, lead_id)
    assert entry["action"] == "purchase_record_erased" and entry["staff_id"] is None
    assert entry["data"] == {"retain_until": until.isoformat()}


def payout_checks(app, lead_id: int) -> list[dict]:
    with app.app_context():
        rows = get_db().execute("SELECT * FROM payout_checks WHERE lead_id = ?", (lead_id,))
        return [dict(row) for row in rows]


def ask_for_the_payout_account(app, lead_id: int) -> None:
    """The check of the payout account, by its last 4, that signed paperwork e-mails."""
    with app.app_context(), transaction() as db:
        signing = history.append_event(db, lead_id, "seller", "paperwork_signed", {})
        payout.ask_seller(db, lead_id, "6789", signing)


def past_its_end(app, lead_id: int) -> None:
    """The lead's purchase record past its retain_until since yesterday."""
    with app.app_context(), transaction() as db:
        yesterday = business_today() - timedelta(days=1)
        record.update(db, lead_id, {"retain_until": yesterday.isoformat()})


def test_the_payout_accounts_checks_naming_its_last_4_go_with_the_record_at_its_end(app):
    lead_id = bought(app)
    ask_for_the_payout_account(app, lead_id)
    with app.app_context():
        erasure.erase_sale(lead_id, "seller")  # the seller's erasure keeps the record: and these
    assert [check["account_last4"] for check in payout_checks(app, lead_id)] == ["6789"]
    past_its_end(app, lead_id)

    run_retention(app)

    assert payout_checks(app, lead_id) == []


def test_an_exceptions_reason_and_the_names_digest_go_with_the_record_the_approval_stays(app):
    lead_id = bought(app)
    reason = "The account is his wife Marta Avery's; she confirmed it on the phone"
    with app.app_context(), transaction() as db:
        db.execute(
            "INSERT INTO approvals (lead_id, kind, subject, reason, requested_by, requested_at, "
            "approved_by, approved_at) VALUES (?, 'holder_name', ?, ?, 'staff:1', "
            "'2026-11-20T10:00:00+00:00', 'staff:2', '2026-11-20T11:00:00+00:00')",
            (lead_id, "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6", reason),
        )
    past_its_end(app, lead_id)
    for change in ("reason = ''", "subject = ''"):  # not while the record is kept
        with app.app_context(), pytest.raises(sqlite3.IntegrityError), transaction() as db:
            db.execute(f"UPDATE approvals SET {change}")

    run_retention(app)

    with app.app_context():
        [approval] = [dict(row) for row in get_db().execute("SELECT * FROM approvals")]
    assert (approval["reason"], approval["subject"]) == ("", "")
    assert (approval["kind"], approval["requested_by"], approval["approved_by"]) == (
        "holder_name", "staff:1", "staff:2"
    )  # fmt: skip
    with app.app_context(), pytest.raises(sqlite3.IntegrityError), transaction() as db:
        db.execute("UPDATE approvals SET reason = 'Written again'")


def test_a_closed_leads_erasure_takes_its_payout_accounts_checks(app):
    lead_id = save_sample_lead(app)
    ask_for_the_payout_account(app, lead_id)
    with app.app_context():
        erasure.close_and_erase(lead_id, "new", "withdrawn", "staff:1")
    assert payout_checks(app, lead_id) == []


def test_the_kept_record_of_a_lead_its_seller_had_erased_goes_at_its_end_too(app):
    lead_id = bought(app)
    stored = add_id_photos(app, lead_id) + documents_of(app, lead_id)
    with app.app_context():
        erasure.erase_sale(lead_id, "seller")
        assert record.get(lead_id)["legal_name"] == "Jordan A. Avery"  # kept until its end
        with transaction() as db:
            yesterday = business_today() - timedelta(days=1)
            record.update(db, lead_id, {"retain_until": yesterday.isoformat()})
    assert on_disk(app, stored) == [
        False,
        False,
        True,
        True,
    ]  # the ID photos went, not the documents
    assert run_retention(app) == (
        "erased: bank details 0, leads 0, purchase records 1, paperwork drafts 0"
    )
    with app.app_context():
        purchase = record.get(lead_id)
        events = history.lead_events(lead_id)
    assert purchase["legal_name"] is None and purchase["record_erased_at"]
    assert on_disk(app, stored) == [False] * 4
    assert [event["kind"] for event in events][-1] == "purchase_record_erased"
    assert [entry["action"] for entry in audited(app, lead_id)] == ["purchase_record_erased"]


def test_a_lead_that_fails_is_logged_the_others_are_done_and_the_run_raises(
    app, monkeypatch, caplog
):
    days = app.config["PAYOUT_DETAILS_DAYS"]
    failing, other = bought(app, paid_days_ago=days), bought(app, paid_days_ago=days)
    erase = record.erase_payout_details

    def erase_or_fail(db, lead_id, actor):
        if lead_id == failing:
            raise OSError("disk full")
        return erase(db, lead_id, actor)

    monkeypatch.setattr(record, "erase_payout_details", erase_or_fail)
    with pytest.raises(retention.RetentionIncomplete, match=f"failed for leads \\[{failing}\\]"):
        run_retention(app)
    with app.app_context():
        assert record.get(other)["account_number_enc"] is None
        assert record.get(failing)["account_number_enc"]
    assert audited(app, failing) == []
    assert f"Lead {failing}: retention (bank details) failed." in caplog.text


# The commands.


def test_flask_purchases_retention_runs_now_and_says_what_it_erased(app):
    bought(app, paid_days_ago=app.config["PAYOUT_DETAILS_DAYS"])
    runner = app.test_cli_runner()
    result = runner.invoke(args=["purchases", "retention"])
    assert result.exit_code == 0, result.output
    assert result.output == (
        "Retention erased: bank details 1, leads 0, purchase records 0, paperwork drafts 0.\n"
    )
    again = runner.invoke(args=["purchases", "retention"])
    assert again.output == (
        "Retention erased: bank details 0, leads 0, purchase records 0, paperwork drafts 0.\n"
    )


def test_rotate_key_moves_every_value_and_file_to_the_newest_key(make_app, tmp_path):
    path = str(tmp_path / "leads.db")
    old, new = "old-key-" + "o" * 32, "new-key-" + "n" * 32
    before = make_app(LEADS_DB=path, PURCHASE_DATA_KEY=old)
    lead_id = bought(before)
    stored = add_id_photos(before, lead_id) + documents_of(before, lead_id)
    with before.app_context(), transaction() as db:
        secrets = {"birth_date_enc": "1961-07-14", "id_number_enc": "D12345678901"}
        record.update(
            db, lead_id, {key: record.sealed(lead_id, key, value) for key, value in secrets.items()}
        )
    secrets |= {"routing_number_enc": ROUTING, "account_number_enc": ACCOUNT}

    refused = make_app(LEADS_DB=path, PURCHASE_DATA_KEY=new).test_cli_runner()
    result = refused.invoke(args=["purchases", "rotate-key"])
    assert result.exit_code == 1 and "keep the old key" in result.output

    both = make_app(LEADS_DB=path, PURCHASE_DATA_KEY=f"{new},{old}")
    result = both.test_cli_runner().invoke(args=["purchases", "rotate-key"])
    assert result.exit_code == 0, result.output
    assert "4 values in 1 purchase records, 4 files" in result.output
    assert "Keep the old key in PURCHASE_DATA_KEY, after the new one, until every backup" in (
        " ".join(result.output.split())
    )

    after = make_app(LEADS_DB=path, PURCHASE_DATA_KEY=new)
    with after.app_context():
        purchase = record.get(lead_id)
        assert {key: record.opened(purchase, key) for key in secrets} == secrets
        contents = [files.read(row) for row in stored]
    assert contents[:2] == [f"{kind} of lead {lead_id}".encode() for kind in files.ID_PHOTOS]
    assert all(pdf.startswith(b"%PDF-") for pdf in contents[2:])
    with before.app_context(), pytest.raises(crypto.InvalidToken):
        record.opened(purchase, "account_number_enc")  # the old key opens nothing now


def test_the_rotation_says_to_keep_the_old_key_as_long_as_the_replica_keeps_copies(make_app):
    replicated = make_app(
        REPLICA_URL="s3://watchbuyers-replica/site", BACKUP_KEEP_DAYS=30, REPLICA_RETENTION_DAYS=20
    )
    result = replicated.test_cli_runner().invoke(args=["purchases", "rotate-key"])
    assert result.exit_code == 0, result.output
    words = " ".join(result.output.split())
    assert "until every backup and replica copy made before today is gone: 41 days" in words
