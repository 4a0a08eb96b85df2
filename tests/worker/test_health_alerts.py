"""Staff are told of each fault once, with what a person runs: Redis not answering, work owed
too long, jobs failing after their retries, a disk nearly full, the mail relay refusing (then
logged loudly, and told once it takes mail again). The check is the one
deploy/watchbuyers-health.timer runs (`flask leads health check`); Redis, the worker and the
relay are real, the relay refusing on purpose."""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from app import queue
from app.extensions import rq
from app.health import checks
from app.leads.db import get_db, transaction
from tests.helpers import JSON, post, wait_until


@pytest.fixture
def health_settings(relay) -> dict:
    """Staff's address and the relay, taking mail, as a deployment sets them."""
    relay.start()
    return {
        "STAFF_EMAIL": "desk@uswatchbuyers.com",
        "MAIL_FROM": "alerts@uswatchbuyers.com",
        "SMTP_HOST": relay.host,
        "SMTP_PORT": str(relay.port),
        "SMTP_USE_TLS": "0",
    }


def check(app) -> str:
    result = app.test_cli_runner().invoke(args=["leads", "health", "check"])
    assert result.exit_code == 0, result.output
    return result.output


def alerts(relay) -> list[str]:
    return [message["Subject"] for message in relay.messages]


def body(message) -> str:
    return message.get_body(("plain",)).get_content()


def test_redis_not_answering_is_told_once_and_again_when_it_comes_back(
    make_app, health_settings, relay, redis_server
):
    app = make_app(**health_settings, REDIS_URL=redis_server.url)
    redis_server.stop()
    assert "Redis does not answer: nothing queued" in check(app)
    check(app)
    assert alerts(relay) == ["The site needs a person: Redis does not answer"]
    text = body(relay.messages[0])
    assert "Connection refused" in text and "systemctl status redis-server" in text
    redis_server.start()
    assert "no fault" in check(app)  # cleared: nothing more to say
    redis_server.stop()
    check(app)  # down again: a new fault, told again
    assert alerts(relay) == ["The site needs a person: Redis does not answer"] * 2


def test_work_owed_longer_than_the_setting_is_told_with_what_to_run(
    make_app, health_settings, relay, redis_server
):
    app = make_app(**health_settings, REDIS_URL=redis_server.url, OWED_WORK_ALERT_MINUTES="20")
    assert post(app.test_client(), headers=JSON).status_code == 200  # no worker runs
    assert "queued 0 owed jobs" in check(app)  # the post's job is queued: nothing to add

    def owed_since(minutes: float) -> None:
        then = (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat(timespec="seconds")
        with app.app_context(), transaction() as db:
            db.execute("UPDATE owed_work SET first_seen = ?", (then,))

    owed_since(19)
    check(app)
    assert alerts(relay) == []
    owed_since(21)
    check(app)
    assert alerts(relay) == ["The site needs a person: Work has been owed too long"]
    text = body(relay.messages[0])
    assert "1 job has been owed for more than 20 minutes" in text
    assert "systemctl status 'watchbuyers-worker@*'" in text


def test_jobs_that_failed_after_their_retries_are_told(
    make_app, health_settings, relay, redis_server, start_rq_worker
):
    settings = health_settings | {"REDIS_URL": redis_server.url, "JOB_RETRY_INTERVALS": "1"}
    app = make_app(**settings)
    start_rq_worker(settings | {"LEADS_DB": app.config["LEADS_DB"]})
    with app.app_context():
        queue.enqueue(queue.MAKE_PURCHASE_DOCUMENTS, 404)  # a lead that is not there

        def failed_for_good():
            return rq.queue.failed_job_registry.get_job_ids()

    with app.app_context():
        wait_until(failed_for_good, timeout=60)
    check(app)
    assert alerts(relay) == ["The site needs a person: Jobs are failing"]
    assert "make_purchase_documents(404,): LookupError: Lead 404 does not exist." in body(
        relay.messages[0]
    )


def test_a_disk_nearly_full_is_told(make_app, health_settings, relay):
    app = make_app(**health_settings, DISK_FREE_ALERT_PERCENT="100")  # no disk has that free
    assert "The disk is nearly full" in check(app)
    assert alerts(relay) == ["The site needs a person: The disk is nearly full"]
    assert "df -h" in body(relay.messages[0])


@pytest.mark.parametrize(("free", "nearly_full"), [(100_000, False), (99_999, True)])
def test_a_disk_is_nearly_full_only_under_the_share(free, nearly_full):
    usage = SimpleNamespace(total=1_000_000, used=1_000_000 - free, free=free)  # disk_usage's
    assert checks.nearly_full(usage, 10.0) is nearly_full  # exactly 10 % free is enough


def test_the_relay_refusing_is_logged_loudly_and_told_once_it_takes_mail(
    make_app, health_settings, relay, caplog
):
    app = make_app(**health_settings, DISK_FREE_ALERT_PERCENT="100")
    relay.refusing = "rcpt"
    with caplog.at_level(logging.CRITICAL):
        check(app)
        check(app)
    assert relay.messages == []  # nothing was sent: the check asks, it does not send
    loud = [r.getMessage() for r in caplog.records if r.levelno == logging.CRITICAL]
    assert any("The mail relay refuses e-mail since" in line for line in loud)
    assert any("The disk is nearly full since" in line for line in loud)
    assert any("554 5.7.1 Relay access denied" in line for line in loud)
    relay.refusing = ""
    check(app)
    check(app)
    [alert] = relay.messages  # both faults, in one e-mail, once
    assert alert["Subject"] == "The site needs a person: The disk is nearly full, and 1 more"
    text = body(alert)
    assert "The mail relay refuses e-mail, since" in text and "it has cleared" in text
    assert "554 5.7.1 Relay access denied" in text and "The disk is nearly full" in text


def test_two_checks_at_once_tell_a_fault_once(make_app, health_settings, relay):
    app = make_app(**health_settings, DISK_FREE_ALERT_PERCENT="100")
    start = threading.Barrier(2)

    def run():
        with app.app_context():
            start.wait()
            queue.run_now(queue.CHECK_HEALTH)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert alerts(relay) == ["The site needs a person: The disk is nearly full"]


def test_the_report_names_each_fault_standing_and_exits_1(make_app, health_settings, relay):
    app = make_app(**health_settings, DISK_FREE_ALERT_PERCENT="100")
    check(app)
    result = app.test_cli_runner().invoke(args=["leads", "health"])
    assert result.exit_code == 1
    assert "The disk is nearly full: The disk holding" in result.output
    assert "(staff told " in result.output
    app.config["DISK_FREE_ALERT_PERCENT"] = 0.0
    result = app.test_cli_runner().invoke(args=["leads", "health"])
    assert result.exit_code == 0 and "No fault stands now." in result.output
    with app.app_context():
        assert get_db().execute("SELECT count(*) FROM faults").fetchone()[0] == 1
