"""`flask rq worker` runs each job in a fork of itself (app/job_worker.py): no new interpreter
and app per job, yet a process and an app context of the job's own."""

import json

from app import queue
from tests.helpers import wait_until


def test_each_job_runs_in_a_fork_of_the_worker_with_an_app_context_of_its_own(
    make_app, pipeline_settings, redis_server, start_rq_worker, tmp_path
):
    settings = pipeline_settings | {"REDIS_URL": redis_server.url}
    app = make_app(**settings)
    worker = start_rq_worker(settings)
    reports = [tmp_path / "first.json", tmp_path / "second.json"]
    with app.app_context():
        for report in reports:
            queue.enqueue("tests.worker.probe_jobs.describe_process", str(report))
    written = [wait_until(lambda r=report: r.exists() and r.read_text()) for report in reports]
    first, second = (json.loads(text) for text in written)

    for job in (first, second):
        assert job["ppid"] == worker.pid != job["pid"]  # a child of the worker...
        assert job["argv"][-3:] == ["rq", "worker", "--with-scheduler"]  # ...not a new one
        assert job["leads_db"] == settings["LEADS_DB"]
        assert job["had_connection"] is False
    assert first["pid"] != second["pid"]  # each job a process of its own
