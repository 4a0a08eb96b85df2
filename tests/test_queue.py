"""Every job the app queues is named by a constant in app/queue.py, and every such name is a
real function in worker/jobs.py: a misspelt or removed job fails here, not in a worker at 3 am."""

from __future__ import annotations

import ast
import inspect

from rq.utils import import_attribute

from app import queue
from tests.helpers import ROOT

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
