"""Parts failing one at a time in the production shape, each ending with nothing lost, nothing
twice and no command run by an operator: the default queue's worker SIGKILLed mid-job, Redis
flushed while work waits in it, Redis stopped while sellers post. Between them only what
systemd does runs: a worker that stopped is started again with its unit's command
(Restart=always), and the health check runs its unit's command, as its timer does every minute
(here every few seconds, so the test need not wait a minute each time). Staff are e-mailed
where a person must act, once."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import redis

from tests.data.photos import write_photos
from tests.helpers import ROOT, wait_until
from tests.production.conftest import production_site, start_process, worker_commands
from tests.production.steps import CONFIRMATION, lead_by_email, leads_db, mail_to, send_lead
from tests.production.units import unit_commands

STAFF = "desk@uswatchbuyers.com"
NEW_LEAD = "New lead #"  # the subject of staff's e-mail of a lead


def timer_runs_the_check(site) -> str:
    """deploy/watchbuyers-health.service's command, as its timer starts it."""
    [command] = unit_commands("watchbuyers-health.service")
    done = subprocess.run(command, cwd=ROOT, env=site.env, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def kill_worker(site, index: int = 1) -> None:
    """SIGKILL a worker's whole group and its work-horse (a session of its own), as a crash or
    the kernel's OOM killer would."""
    process = site.processes[index]
    subprocess.run(["pkill", "-KILL", "-P", str(process.pid)], check=False)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def systemd_restarts_workers(site) -> None:
    """Start again any worker that stopped, with its unit's command (Restart=always)."""
    for index, (lane, command) in enumerate(worker_commands(), start=1):
        if site.processes[index].poll() is not None:
            log = site.folder / f"worker-{lane}.log"
            site.processes[index] = start_process(command, site.env, log)


def done_without_an_operator(site, email: str, timeout: float = 240) -> None:
    """Wait for the lead's work, doing only what systemd does meanwhile."""

    def done():
        systemd_restarts_workers(site)
        timer_runs_the_check(site)
        lead = lead_by_email(site, email)
        return all(lead[column] for column in ("photos_processed_at", "staff_notified_at",
                                                "seller_confirmed_at"))  # fmt: skip

    wait_until(done, timeout=timeout, interval=5)


def e_mails_once(site, email: str, name: str) -> None:
    """The seller's confirmation and staff's e-mail of the lead, each exactly once."""
    time.sleep(3)  # anything sent twice would be in by now
    assert len(mail_to(site, email, CONFIRMATION)) == 1
    to_staff = [m for m in list(site.mail.messages) if NEW_LEAD in m["Subject"] and
                name in m["Subject"]]  # fmt: skip
    assert len(to_staff) == 1


def photos_half_done(site, email: str) -> bool:
    lead = lead_by_email(site, email)
    if lead is None:
        return False
    with leads_db(site) as db:
        rows = db.execute("SELECT image_name FROM lead_photos WHERE lead_id = ?", (lead["id"],))
        made = [row["image_name"] for row in rows]
    return any(made) and not all(made)


def test_a_worker_killed_redis_flushed_and_redis_stopped_lose_nothing_and_double_nothing(
    tmp_path_factory,
):
    folder = tmp_path_factory.mktemp("faults")
    with production_site(folder) as site:
        photos = tuple(write_photos(folder, 6))

        # The default queue's worker killed mid-job: its job is RQ's "started" until its
        # heartbeat stops (at most 90 s); then the check's look makes RQ retry it.
        send_lead(site, "killed.worker@example.com", photos, fullName="Kim Killed")
        wait_until(lambda: photos_half_done(site, "killed.worker@example.com"), timeout=120,
                   interval=0.05)  # fmt: skip
        kill_worker(site)
        done_without_an_operator(site, "killed.worker@example.com")
        e_mails_once(site, "killed.worker@example.com", "Kim Killed")

        # Redis flushed while the lead's job waited in it (the worker down meanwhile).
        kill_worker(site)
        send_lead(site, "flushed.redis@example.com", photos[:1], fullName="Fay Flushed")
        redis.Redis.from_url(site.env["REDIS_URL"]).flushall()
        done_without_an_operator(site, "flushed.redis@example.com")
        e_mails_once(site, "flushed.redis@example.com", "Fay Flushed")

        # Redis stopped while a seller posts: answered and kept, staff told once, the work
        # done once Redis is back.
        site.redis.stop()
        send_lead(site, "stopped.redis@example.com", photos[:1], fullName="Sam Stopped")
        assert lead_by_email(site, "stopped.redis@example.com")["staff_notified_at"] is None
        assert "Redis does not answer" in timer_runs_the_check(site)
        timer_runs_the_check(site)
        [alert] = mail_to(site, STAFF, "Redis does not answer")
        assert "systemctl status redis-server" in alert.get_body(("plain",)).get_content()
        site.redis.start()
        done_without_an_operator(site, "stopped.redis@example.com")
        e_mails_once(site, "stopped.redis@example.com", "Sam Stopped")
        assert len(mail_to(site, STAFF, "Redis does not answer")) == 1
