"""Every job the app queues is named by a constant in app/queue.py, and every such name is a
real function in worker/jobs.py: a misspelt or removed job fails here, not in a worker at 3 am."""

from __future__ import annotations

import ast
import inspect
import threading

from rq.utils import import_attribute

from app import queue
from tests.helpers import ROOT
from worker import jobs

JOB_NAMES = {
    name: value
    for name, value in vars(queue).items()
    if name.isupper() and isinstance(value, str) and value.startswith("worker.jobs.")
}


def is_read_name(node: ast.AST) -> bool:
    """A job's constant read by its bare name (inside app/queue.py itself)."""
    return isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in JOB_NAMES


def queued_constants() -> set[str]:
    """Every `queue.NAME` the app and the worker pass where a job is named, found in the source."""
    found = set()
    for path in [*(ROOT / "app").rglob("*.py"), *(ROOT / "worker").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "queue"
                and node.attr.isupper()
            ):
                found.add(node.attr)
            elif path.name == "queue.py" and is_read_name(node):  # queue's own sweeps
                found.add(node.id)
    return found


def test_every_job_name_resolves_to_a_function_of_worker_jobs():
    assert len(JOB_NAMES) >= 10
    unresolved = [
        value for value in JOB_NAMES.values() if not inspect.isfunction(import_attribute(value))
    ]
    assert unresolved == []


def test_every_job_the_code_queues_is_one_of_those_names():
    queued = queued_constants() - {"JOB_TIMEOUT", "EXIT_GRACE_SECONDS"}
    assert queued - set(JOB_NAMES) == set()
    assert set(JOB_NAMES) - queued == set()  # and no name is left that nothing queues


def test_every_job_that_waits_on_an_outside_service_has_a_lane_of_its_own():
    waits_on_a_provider = {"SEND_PAYOUT", "APPLY_PAYOUT_EVENT", "BUY_LABEL", "BOOK_PICKUP",
                           "ASK_REGISTER", "FETCH_MARKET_PRICES"}  # fmt: skip
    lanes = {name: queue.lane_of(value) for name, value in JOB_NAMES.items()}
    assert {name for name, lane in lanes.items() if lane == "providers"} == waits_on_a_provider
    assert lanes["COPY_FILES"] == "copies"
    e_mails = ("PROCESS_LEAD", "SEND_SELLER_EMAIL", "SEND_LABEL_MAIL", "ALERT_PAYOUT")
    assert {lanes[name] for name in e_mails} == {"default"}


def test_a_provider_that_never_answers_holds_up_no_e_mail(make_app, monkeypatch):
    """Without Redis each lane has its own thread: the bank stuck on a payout, the seller's
    e-mail queued after it still goes."""
    release, mailed = threading.Event(), threading.Event()
    monkeypatch.setattr(jobs, "send_payout", lambda payout_id: release.wait(30))
    monkeypatch.setattr(jobs, "send_seller_email", lambda lead_id, event_id: mailed.set())
    app = make_app()
    with app.app_context():
        queue.enqueue(queue.SEND_PAYOUT, 7)
        queue.enqueue(queue.SEND_SELLER_EMAIL, 3, 12)
        assert mailed.wait(10)  # while the payout still waits on the bank
        assert not release.is_set()
        release.set()
        assert queue.wait_until_idle(10)
