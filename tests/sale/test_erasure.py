"""A seller's erasure, end to end on real SQLite, SMTP and photo files: asked for on the status
page, done only once the owner of the address on file confirms it from the link e-mailed there,
confirmed by a last e-mail before the address is blanked, and leaving nothing behind on disk
(leads.db, its WAL, photo files and their variants), whichever order the photo job runs in."""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
import urllib.request
from pathlib import Path

from redis import Redis
from werkzeug.serving import make_server

from app.extensions import rq
from app.leads import history, storage, store
from app.leads.db import transaction
from app.sale import erasure, lifecycle
from app.security.tokens import digest, new_token
from tests.data.photos import photo_bytes
from tests.helpers import (
    csrf_token,
    give_token,
    lead_work_done,
    photo,
    post,
    sample_lead,
    save_sample_lead,
)
from worker import jobs
from worker import photos as photo_job

SITE = "https://watches.example"
ERASURE_LINK = re.compile(re.escape(SITE) + r"(/status/erasure/[A-Za-z0-9_-]+)")
REFUSAL = "This link cannot be used"


def page_csrf(client, path: str) -> str:
    page = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def withdraw(client, token: str, erase: bool = True):
    data = {"csrf_token": page_csrf(client, f"/status/{token}"), "confirm": "yes"}
    if erase:
        data["erase"] = "yes"
    return client.post(f"/status/{token}/withdraw", data=data)


def text_of(message) -> str:
    return message.get_body(("plain",)).get_content()


def erasure_mails(smtp_server) -> list:
    return [m for m in smtp_server.messages if ERASURE_LINK.search(text_of(m))]


def erasure_path(smtp_server) -> str:
    """The confirmation link from the one e-mail that carries one."""
    [message] = erasure_mails(smtp_server)
    return ERASURE_LINK.search(text_of(message)).group(1)


def lead_of(app, lead_id: int) -> dict:
    with app.app_context():
        return store.get_lead(lead_id)


def files_on_disk(app) -> list[Path]:
    with app.app_context():
        return [*storage.incoming_dir().glob("*"), *storage.photos_dir().glob("*")]


def withdrawn_with_erasure(client, smtp_server, **lead) -> tuple[int, str]:
    """A lead with two photos, submitted and withdrawn with erasure asked for by `client`'s
    seller, its jobs run; (id, status token). The inbox keeps only the e-mails that follow."""
    app = client.application
    assert post(client, lead, photos=[photo(), photo("side.jpg")]).status_code == 303
    lead_work_done(app)
    lead_id = max(row["id"] for row in all_leads(app))
    token = give_token(app, lead_id)
    smtp_server.messages.clear()
    assert withdraw(client, token).status_code == 303
    lead_work_done(app)
    return lead_id, token


def all_leads(app) -> list[dict]:
    with app.app_context(), transaction() as db:
        return [dict(row) for row in db.execute("SELECT * FROM leads")]


# 1. Erasure happens only from the link e-mailed to the address on file.


def test_withdrawing_with_erasure_closes_the_enquiry_and_erases_nothing_yet(mail_app, smtp_server):
    client = mail_app.test_client()
    lead_id, token = withdrawn_with_erasure(client, smtp_server)
    lead = lead_of(mail_app, lead_id)
    assert lead["state"] == "closed" and lead["erased_at"] is None
    assert lead["full_name"] == "Jane Doe" and lead["email"] == "jane@example.com"
    assert len(files_on_disk(mail_app)) == 4  # two photos, each cleaned and a thumbnail
    page = client.get(f"/status/{token}")
    assert page.status_code == 200  # the link still opens the page: nothing is gone
    words = page.get_data(as_text=True)
    assert "we have closed your enquiry" in words
    assert "We have e-mailed you a link to confirm" in words
    assert "Nothing is deleted until you follow it." in words
    with mail_app.app_context():
        [closed] = [e for e in history.lead_events(lead_id) if e["data"].get("to") == "closed"]
    assert closed["data"]["erasure_requested"] is True


def test_erasure_link_is_emailed_to_the_address_on_file_and_erases_once_confirmed(
    mail_app, smtp_server
):
    lead_id, token = withdrawn_with_erasure(mail_app.test_client(), smtp_server)
    smtp_server.wait_for(2)  # the enquiry closed, and the link to confirm the deletion
    [message] = erasure_mails(smtp_server)
    assert message["To"] == "jane@example.com"
    assert "Confirm" in message["Subject"]
    path = erasure_path(smtp_server)
    client = mail_app.test_client()  # the e-mail opened elsewhere: another browser
    shown = client.get(path)
    assert shown.status_code == 200
    assert shown.headers["Cache-Control"] == "no-store"
    assert shown.headers.getlist("Referrer-Policy") == ["no-referrer"]
    assert "Delete my details and photos" in shown.get_data(as_text=True)
    assert lead_of(mail_app, lead_id)["erased_at"] is None  # opening the link does nothing
    done = client.post(path, data={"csrf_token": page_csrf(client, path)})
    assert done.status_code == 303
    after = client.get(done.headers["Location"]).get_data(as_text=True)
    assert "deleting your details and photos" in after
    lead_work_done(mail_app)
    lead = lead_of(mail_app, lead_id)
    assert lead["erased_at"] and lead["email"] == lead["full_name"] == lead["phone"] == ""
    assert files_on_disk(mail_app) == []
    assert client.get(f"/status/{token}").status_code == 404


def test_erasure_link_works_as_soon_as_its_email_arrives_before_the_worker_notes_it_sent(
    mail_app, smtp_server, monkeypatch
):
    # The seller opens the e-mail before the worker has noted it sent (or noting it failed).
    monkeypatch.setattr(erasure, "mark_link_sent", lambda request_id: None)
    lead_id, _ = withdrawn_with_erasure(mail_app.test_client(), smtp_server)
    smtp_server.wait_for(2)
    path = erasure_path(smtp_server)
    client = mail_app.test_client()
    assert "Delete my details and photos" in client.get(path).get_data(as_text=True)
    assert client.post(path, data={"csrf_token": page_csrf(client, path)}).status_code == 303
    lead_work_done(mail_app)
    assert lead_of(mail_app, lead_id)["erased_at"]


def test_erasure_link_without_the_forms_csrf_token_changes_nothing(mail_app, smtp_server):
    lead_id, _ = withdrawn_with_erasure(mail_app.test_client(), smtp_server)
    smtp_server.wait_for(2)
    path = erasure_path(smtp_server)
    client = mail_app.test_client()
    forged = client.post(path)
    assert forged.status_code == 303 and forged.headers["Location"] == path
    assert "Nothing was changed" in client.get(path).get_data(as_text=True)
    lead_work_done(mail_app)
    assert lead_of(mail_app, lead_id)["erased_at"] is None


def test_wrong_expired_and_used_erasure_links_get_one_refusal_that_leaks_nothing(
    mail_app, smtp_server
):
    client = mail_app.test_client()
    first_id, _ = withdrawn_with_erasure(client, smtp_server)
    smtp_server.wait_for(2)
    used = erasure_path(smtp_server)
    client.post(used, data={"csrf_token": page_csrf(client, used)})
    lead_work_done(mail_app)
    assert lead_of(mail_app, first_id)["erased_at"]
    second_id, _ = withdrawn_with_erasure(client, smtp_server, email="other@example.com")
    smtp_server.wait_for(2)
    expired = erasure_path(smtp_server)
    with mail_app.app_context(), transaction() as db:
        db.execute("UPDATE erasure_requests SET expires_at = '2000-01-01T00:00:00+00:00'")
    code = used.rsplit("/", 1)[1]
    wrong = [
        f"/status/erasure/{new_token()}",
        f"/status/erasure/{code[:-1]}{'A' if code[-1] != 'A' else 'B'}",
        f"/status/erasure/{code[:10]}",
        used,
        expired,
    ]
    answers = [client.get(path) for path in wrong]
    csrf = csrf_token(client)  # the session's, from the sell form
    answers += [client.post(path, data={"csrf_token": csrf}) for path in wrong]
    first = answers[0].get_data()
    for answer in answers:
        assert answer.status_code == 404
        assert answer.get_data() == first  # the same words whatever went wrong
        assert answer.headers["Cache-Control"] == "no-store"
    text = first.decode()
    assert REFUSAL in text and "(212) 555-0147" in text
    for secret in ("USWB-", "Jane", "jane@", "other@", "Delete my details"):
        assert secret not in text
    lead_work_done(mail_app)
    assert lead_of(mail_app, second_id)["erased_at"] is None  # the expired link did nothing


def test_erasure_jobs_take_ids_only_and_the_token_is_kept_as_a_digest(
    make_app, mail_settings, smtp_server, redis_server
):
    app = make_app(**mail_settings, REDIS_URL=redis_server.url)
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    client = app.test_client()
    assert withdraw(client, token).status_code == 303
    with app.app_context():
        queued = [rq.queue.fetch_job(job_id) for job_id in rq.queue.get_job_ids()]
        [link_job] = [job for job in queued if job.func_name.endswith("send_erasure_link")]
        assert jobs.send_erasure_link(*link_job.args) == "sent"
        assert jobs.send_erasure_link(*link_job.args) == "already sent"
    smtp_server.wait_for(1)
    path = erasure_path(smtp_server)
    code = path.rsplit("/", 1)[1]
    client.post(path, data={"csrf_token": page_csrf(client, path)})
    redis = Redis.from_url(redis_server.url)
    with app.app_context():
        queued = [rq.queue.fetch_job(job_id) for job_id in rq.queue.get_job_ids()]
        [erase_job] = [job for job in queued if job.func_name.endswith("erase_at_sellers_request")]
        assert erase_job.args == (lead_id,)
        for job in queued:
            assert all(isinstance(arg, int) for arg in job.args), job.func_name
        stored = b"".join(
            value
            for key in redis.keys("*")
            if redis.type(key) == b"hash"
            for value in redis.hgetall(key).values()
        )
        assert code.encode() not in stored and b"jane@example.com" not in stored
        assert jobs.erase_at_sellers_request(lead_id) == "erased"
    files = b"".join(p.read_bytes() for p in Path(app.config["LEADS_DB"]).parent.glob("leads.db*"))
    assert code.encode() not in files and digest(code).encode() not in files  # used: forgotten


def test_reopening_the_enquiry_voids_the_erasure_link_and_its_confirmation(mail_app, smtp_server):
    client = mail_app.test_client()
    lead_id, _ = withdrawn_with_erasure(client, smtp_server)
    smtp_server.wait_for(2)
    path = erasure_path(smtp_server)
    csrf = page_csrf(client, path)
    reopen = {"note": "Seller called: wants to sell after all"}
    with mail_app.app_context():
        lifecycle.transition(lead_id, "contacted", "staff:1", reopen, "closed")
    assert client.get(path).status_code == 404
    assert client.post(path, data={"csrf_token": csrf}).status_code == 404
    with mail_app.app_context():
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "no_response"}, "contacted")
        assert jobs.erase_at_sellers_request(lead_id) == "no confirmed request stands: not erased"
    assert client.get(path).status_code == 404  # closed again, but not by the seller's request
    lead_work_done(mail_app)
    assert lead_of(mail_app, lead_id)["erased_at"] is None


def test_erasure_link_and_erasure_wait_for_smtp_and_requeue_does_them(
    make_app, mail_settings, smtp_server
):
    unconfigured = make_app()  # no SMTP_HOST
    database = unconfigured.config["LEADS_DB"]
    configured = make_app(**mail_settings, LEADS_DB=database)
    lead_id = save_sample_lead(unconfigured, email="later@example.com")
    client = unconfigured.test_client()
    withdraw(client, give_token(unconfigured, lead_id))
    lead_work_done(unconfigured)
    assert erasure_mails(smtp_server) == []
    requeued = configured.test_cli_runner().invoke(args=["leads", "requeue"])
    assert "Queued erasure confirmation link 1." in requeued.output
    smtp_server.wait_for(2)  # the enquiry closed, and the link
    path = erasure_path(smtp_server)
    smtp_server.messages.clear()
    client.post(path, data={"csrf_token": page_csrf(client, path)})  # SMTP down meanwhile
    lead_work_done(unconfigured)
    assert lead_of(unconfigured, lead_id)["erased_at"] is None  # no erasure without the e-mail
    requeued = configured.test_cli_runner().invoke(args=["leads", "requeue"])
    assert f"Queued the confirmed erasure of lead #{lead_id}." in requeued.output
    [last] = smtp_server.wait_for(1)
    assert last["To"] == "later@example.com"
    assert lead_of(configured, lead_id)["erased_at"]


def test_request_log_hides_the_erasure_token(mail_app, smtp_server, caplog):
    withdrawn_with_erasure(mail_app.test_client(), smtp_server)
    smtp_server.wait_for(2)
    path = erasure_path(smtp_server)
    server = make_server("127.0.0.1", 0, mail_app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    caplog.set_level(logging.DEBUG)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}{path}") as answer:
            assert answer.status == 200
    finally:
        server.shutdown()
    assert "/status/[token hidden]" in caplog.text
    assert path.rsplit("/", 1)[1] not in caplog.text


# 2. The e-mail the withdrawal page promises is sent, before the address is blanked.


def test_seller_is_emailed_that_their_details_are_deleted_before_the_address_goes(
    mail_app, smtp_server
):
    client = mail_app.test_client()
    page = client.get(f"/status/{give_token(mail_app, save_sample_lead(mail_app))}")
    assert "e-mail you a link to confirm" in page.get_data(as_text=True)
    lead_id, _ = withdrawn_with_erasure(client, smtp_server, email="last@example.com")
    smtp_server.wait_for(2)
    path = erasure_path(smtp_server)
    smtp_server.messages.clear()
    client.post(path, data={"csrf_token": page_csrf(client, path)})
    lead_work_done(mail_app)
    [last] = smtp_server.wait_for(1)
    assert last["To"] == "last@example.com"
    body = text_of(last)
    assert "deleting your name, contact details, messages and photos" in body
    assert "/status/" not in body  # no link: nothing is left to open
    assert lead_of(mail_app, lead_id)["email"] == ""


def test_plain_withdrawal_is_confirmed_by_email_as_the_page_says(mail_app, smtp_server):
    client = mail_app.test_client()
    lead_id = save_sample_lead(mail_app, email="plain@example.com")
    token = give_token(mail_app, lead_id)
    assert "We close your enquiry and e-mail you to confirm" in client.get(
        f"/status/{token}"
    ).get_data(as_text=True)
    withdraw(client, token, erase=False)
    lead_work_done(mail_app)
    [closed] = smtp_server.wait_for(1)
    assert closed["To"] == "plain@example.com"
    assert "You have withdrawn your Rolex Submariner" in text_of(closed)
    assert erasure_mails(smtp_server) == []
    assert lead_of(mail_app, lead_id)["erased_at"] is None


# 3. Blanked fields survive neither in leads.db's free pages nor in its WAL.


SECRETS = ("Zeppelinovich", "quentin.z@example.org", "555-0199", "Wisteria", "917-555-0123")


def test_erased_sellers_details_are_found_neither_in_leads_db_nor_in_its_wal(app, client):
    database = Path(app.config["LEADS_DB"])
    other_worker = sqlite3.connect(database)  # the site's other processes keep leads.db open
    other_worker.execute("SELECT count(*) FROM leads").fetchone()
    upload = {"original_name": "Zeppelinovich-rolex.jpg", "upload_name": f"{new_token()}.jpg"}
    lead_id = save_sample_lead(
        app,
        [upload],
        full_name="Quentin Zeppelinovich",
        email="quentin.z@example.org",
        phone="(917) 555-0199",
        additional_details="Kept in a safe at 42 Wisteria Lane. " * 200,  # overflow pages
    )
    token = give_token(app, lead_id)
    csrf = page_csrf(client, f"/status/{token}")
    question = {"question": "Call me on 917-555-0123", "csrf_token": csrf}
    client.post(f"/status/{token}/question", data=question)
    lead_work_done(app)
    with app.app_context():
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "no_response"}, "new")
        erasure.erase(lead_id, "staff:1")
    try:
        for path in (database, database.with_name("leads.db-wal")):
            stored = path.read_bytes() if path.exists() else b""
            for personal in SECRETS:
                assert personal.encode() not in stored, f"{personal} in {path.name}"
    finally:
        other_worker.close()


# 4. No photo file or variant of an erased lead survives, whichever order the job runs in.


def lead_with_an_upload(app) -> tuple[int, dict]:
    """A closed lead with one raw upload in private storage, as the sell form leaves it."""
    with app.app_context():
        upload_name = f"{new_token()}.jpg"
        storage.incoming_dir().mkdir(parents=True, exist_ok=True)
        (storage.incoming_dir() / upload_name).write_bytes(photo_bytes(size=(900, 600)))
        upload = {"original_name": "watch.jpg", "upload_name": upload_name}
        lead_id, _ = store.save_lead(sample_lead(), [upload])
        lifecycle.transition(lead_id, "closed", "staff:1", {"reason": "withdrawn"}, "new")
        [row] = store.lead_photos(lead_id)
    return lead_id, row


def test_photo_job_leaves_no_file_when_the_lead_is_erased_while_it_works(app):
    lead_id, row = lead_with_an_upload(app)
    with app.app_context():
        source = storage.incoming_dir() / row["upload_name"]
        # The job's steps, with the erasure between processing and recording.
        made = photo_job.try_process(source, storage.photos_dir(), 50_000_000)
        assert (storage.photos_dir() / made["thumb_name"]).exists()
        erasure.erase(lead_id, "staff:1")
        store.record_photo(row["id"], **made)
        source.unlink(missing_ok=True)
    assert files_on_disk(app) == []


def test_photo_job_leaves_no_file_when_the_lead_was_erased_before_it_ran(app):
    lead_id, _ = lead_with_an_upload(app)
    with app.app_context():
        erasure.erase(lead_id, "staff:1")
        jobs.process_photos(lead_id)
    assert files_on_disk(app) == []


def move_to(app, lead_id: int, *steps: tuple[str, dict]) -> None:
    state = "new"
    with app.app_context():
        for to_state, data in steps:
            lifecycle.transition(lead_id, to_state, "staff:1", data, state)
            state = to_state


APPOINTMENT = {"date": "2099-07-02", "time": "11:00", "mode": "collection", "place": "Home"}


def test_erasure_is_not_offered_while_the_watch_may_be_with_us(app, client):
    lead_id = save_sample_lead(app)
    move_to(app, lead_id, ("contacted", {}),
            ("quoted", {"amount_low": 8000, "amount_high": 9000, "valid_until": "2099-12-01"}),
            ("accepted", {}), ("appointment", APPOINTMENT))  # fmt: skip
    token = give_token(app, lead_id)

    page = client.get(f"/status/{token}").get_data(as_text=True)
    refused = withdraw(client, token, erase=True)

    assert 'name="erase"' not in page and "once it is back with you" in page
    assert refused.status_code == 303
    assert "once it is back with you" in client.get(f"/status/{token}").get_data(as_text=True)
    assert lead_of(app, lead_id)["state"] == "appointment"
    assert lead_of(app, lead_id)["full_name"] == "Jane Doe"
