"""Slow replica storage never delays e-mails: the copies of a lead's photos wait in a lane of
their own (app/queue.py), run by their own worker (deploy/watchbuyers-worker@.service, started
here with its own command) or, without Redis, their own thread. The storage is moto's behind
the test's gateway, each write answered only after a delay on purpose; the order of what
happened is asserted, not how long it took."""

from __future__ import annotations

import os
import subprocess

import pytest

from app.leads.db import get_db
from app.queue import QUEUES
from tests.helpers import ROOT, photo, post, stop_process, wait_until
from tests.production.units import unit_commands
from tests.replica.steps import bucket_of

WRITE_DELAY = 3.0  # seconds per object written: under the client's 5 s read time-out
LEADS = 3


@pytest.fixture
def workers(tmp_path):
    """The rq workers as deploy/watchbuyers-worker@.service runs them, one per queue."""
    started = []

    def start(settings: dict) -> None:
        env = {**os.environ, **settings, "APP_ENV": "development"}
        for lane in QUEUES:
            [command] = unit_commands("watchbuyers-worker@.service", instance=lane)
            log = open(tmp_path / f"worker-{lane}.log", "wb")  # noqa: SIM115
            started.append((subprocess.Popen(command, cwd=ROOT, env=env, stdout=log,
                                             stderr=subprocess.STDOUT), log))  # fmt: skip

    yield start
    for process, log in started:
        stop_process(process)
        log.close()


def owed_copies(app, lead_ids) -> int:
    with app.app_context():
        marks = ", ".join("?" for _ in lead_ids)
        return (
            get_db()
            .execute(
                f"SELECT count(*) FROM file_copies WHERE copied_at IS NULL AND gone = 0 "
                f"AND lead_id IN ({marks})",
                list(lead_ids),
            )
            .fetchone()[0]
        )


@pytest.mark.parametrize("with_redis", [False, True], ids=["in-process", "redis"])
def test_the_next_leads_e_mails_never_wait_behind_a_slow_storage(
    with_redis, request, make_app, pipeline_settings, replica_settings, object_storage,
    smtp_server, workers,
):  # fmt: skip
    settings = pipeline_settings | replica_settings
    if with_redis:
        settings["REDIS_URL"] = request.getfixturevalue("redis_server").url
        workers(settings)
    app = make_app(**settings)
    client = app.test_client()
    with object_storage.slowed(WRITE_DELAY):
        for n in range(LEADS):
            photos = [photo(f"lead-{n}-{side}.jpg", seed=n) for side in ("dial", "caseback")]
            assert post(client, {"metaEventId": f"evt-slow-copy-{n}"}, photos).status_code == 303
        smtp_server.wait_for(2 * LEADS, timeout=120)  # staff's e-mail and the confirmation
        # Every lead's e-mails are out while the first two leads' copies are still being made:
        # behind them in one lane, the third lead's would have waited for 8 slow writes.
        assert owed_copies(app, (1, 2)) > 0
    wait_until(lambda: owed_copies(app, range(1, LEADS + 1)) == 0, timeout=120)
    keys = object_storage.keys(bucket_of(app), "watchbuyers/files/watch-photos/")
    assert len(keys) == 2 * 2 * LEADS  # each photo and its thumbnail, nothing lost
    assert len(smtp_server.messages) == 2 * LEADS  # and no e-mail twice
