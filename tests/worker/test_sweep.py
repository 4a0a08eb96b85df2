"""Owed work is found again on a schedule, not by an operator: with Redis, the health check
deploy/watchbuyers-health.timer runs every minute (its unit's own command, run here as the
timer runs it) queues what the records say is owed and no worker has in hand; without Redis,
each process's runner sweeps at start-up and every JOB_SWEEP_SECONDS. Work already queued,
waiting for a retry or running is never queued twice; a job whose retries ran out is queued
again. Real Redis, real rq workers, a real SMTP server that refuses on purpose."""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime, timedelta

import pytest
import redis

from app import queue
from app.extensions import rq
from app.leads import history, store
from app.leads.db import transaction
from app.sale import pending
from tests.helpers import (
    JSON,
    ROOT,
    finished_lead,
    lead_work_done,
    post,
    save_sample_lead,
    wait_until,
)
from tests.production.units import unit_commands


@pytest.fixture
def settings(pipeline_settings, relay) -> dict:
    """The pipeline's settings, mail through the relay (started by each test when it wants)."""
    return pipeline_settings | {"SMTP_PORT": str(relay.port)}


def timer_runs_the_check(settings: dict) -> str:
    """deploy/watchbuyers-health.service's command, as its timer starts it; what it printed."""
    [command] = unit_commands("watchbuyers-health.service")
    env = {**os.environ, **settings, "APP_ENV": "development"}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def queued_jobs(app) -> list[tuple[str, tuple]]:
    with app.app_context():
        return [(job.func_name, tuple(job.args)) for job in rq.queue.get_jobs()]


def test_work_a_flushed_redis_lost_is_queued_again_by_the_timers_check(
    make_app, settings, relay, redis_server, start_rq_worker
):
    settings |= {"REDIS_URL": redis_server.url}
    relay.start()
    app = make_app(**settings)
    assert post(app.test_client(), headers=JSON).status_code == 200  # no worker yet
    redis.Redis.from_url(redis_server.url).flushall()
    start_rq_worker(settings)
    assert "queued 1 owed jobs" in timer_runs_the_check(settings)
    finished_lead(app)
    assert len(relay.wait_for(2)) == 2  # staff's e-mail and the confirmation
    assert "queued 0 owed jobs" in timer_runs_the_check(settings)  # nothing owed any more
    assert len(relay.messages) == 2


def test_the_check_leaves_work_already_queued_to_the_worker(
    make_app, settings, relay, redis_server, start_rq_worker
):
    settings |= {"REDIS_URL": redis_server.url}
    relay.start()
    app = make_app(**settings)
    assert post(app.test_client(), headers=JSON).status_code == 200
    assert "queued 0 owed jobs" in timer_runs_the_check(settings)
    assert queued_jobs(app) == [(queue.PROCESS_LEAD, (1,))]  # the post's own job, once
    start_rq_worker(settings)
    finished_lead(app)
    assert len(relay.wait_for(2)) == 2
    assert "queued 0 owed jobs" in timer_runs_the_check(settings)


def test_a_job_whose_retries_ran_out_is_queued_again_by_the_next_check(
    make_app, settings, relay, redis_server, start_rq_worker
):
    settings |= {"REDIS_URL": redis_server.url, "JOB_RETRY_INTERVALS": "1"}
    relay.refusing = "data"
    relay.start()
    app = make_app(**settings)
    start_rq_worker(settings)
    assert post(app.test_client(), headers=JSON).status_code == 200

    def failed_for_good():
        with app.app_context():
            return rq.queue.failed_job_registry.get_job_ids()

    wait_until(failed_for_good, timeout=60)  # tried, retried once, failed: the outage's end
    with app.app_context():
        assert store.pending_work(store.get_lead(1)) == ["staff_notified_at", "seller_confirmed_at"]
    relay.refusing = ""
    assert "queued 1 owed jobs" in timer_runs_the_check(settings)
    finished_lead(app)
    subjects = [message["Subject"] for message in relay.wait_for(3)]
    assert subjects.count("The site needs a person: Jobs are failing") == 1  # the check's alert
    assert len(subjects) == 3  # and the lead's two e-mails, each once
    assert relay.refused == 4  # two e-mails, each refused on the first try and the retry


def test_a_retry_no_scheduler_took_in_time_is_queued_again_by_the_next_check(
    make_app, settings, relay, redis_server
):
    settings |= {"REDIS_URL": redis_server.url}
    relay.start()
    app = make_app(**settings)
    assert post(app.test_client(), headers=JSON).status_code == 200  # no worker yet
    with app.app_context():  # its retry scheduled, then its worker and scheduler killed
        [job] = rq.queue.get_jobs()
        rq.queue.remove(job)
        rq.queue.scheduled_job_registry.schedule(job, datetime.now(UTC) + timedelta(seconds=10))
    assert "queued 0 owed jobs" in timer_runs_the_check(settings)  # still the retry's
    with app.app_context():
        rq.queue.scheduled_job_registry.schedule(job, datetime.now(UTC) - timedelta(minutes=2))
    assert "queued 1 owed jobs" in timer_runs_the_check(settings)  # nobody will run it
    assert queued_jobs(app) == [(queue.PROCESS_LEAD, (1,))]


def minutes_ago(minutes: int) -> str:
    return (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat(timespec="seconds")


def test_without_redis_the_runner_finds_owed_work_again_on_its_own_schedule(
    make_app, settings, relay
):
    app = make_app(**settings | {"JOB_SWEEP_SECONDS": "1", "JOB_RETRY_INTERVALS": ""})
    assert post(app.test_client(), headers=JSON).status_code == 200  # the relay is down
    lead_work_done(app)
    with app.app_context(), transaction() as db:  # owed long enough to be nobody else's
        db.execute("UPDATE leads SET created_at = ?", (minutes_ago(3),))
    relay.start()
    finished_lead(app)  # no command, no restart: the runner's next sweep
    assert len(relay.wait_for(2)) == 2


def test_without_redis_the_sweep_leaves_a_job_waiting_for_its_retry_alone(
    make_app, settings, relay
):
    relay.refusing = "data"
    relay.start()
    app = make_app(**settings | {"JOB_RETRY_INTERVALS": "600"})
    assert post(app.test_client(), headers=JSON).status_code == 200
    lead_work_done(app)
    assert relay.refused == 2  # staff's e-mail and the confirmation; the retry waits 10 min
    with app.app_context():
        with transaction() as db:
            db.execute("UPDATE leads SET created_at = ?", (minutes_ago(3),))
        assert (queue.PROCESS_LEAD, (1,)) in queue.in_flight()
        assert pending.sweep().count() == 0


def test_without_redis_an_owed_e_mail_is_queued_once_a_sweep_saw_it_owed_a_while(
    make_app, settings, relay
):
    relay.start()
    app = make_app(**settings)
    lead_id = save_sample_lead(app)
    with app.app_context():
        change = {"from": "new", "to": "closed", "reason": "not_a_fit"}
        event_id = history.add_event(lead_id, "staff:1", "state_changed", change)
        assert pending.sweep().seller_emails == []  # new: maybe a live process's
        with transaction() as db:
            db.execute("UPDATE owed_work SET first_seen = ?", (minutes_ago(3),))
        assert pending.sweep().seller_emails == [(lead_id, event_id)]
    lead_work_done(app)
    [message] = relay.wait_for(1)
    assert "closed" in message["Subject"]
