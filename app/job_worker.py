"""How `flask rq worker` runs a job: in a fork of the worker, which has the app loaded.

Flask-RQ 1.0 starts each job as a new `flask rq work-horse` process, which imports the code
and creates the app again: about a second of CPU per job on a 2-core machine, more than most
jobs take, so a burst of leads waited on start-ups. RQ's own worker forks instead: a job
starts in milliseconds from the app the worker made, and still runs in a process of its own, so
a crash, a leak or a time-out ends with that job. Each job runs in an app context of its own
and so opens its own database connection.
"""

from __future__ import annotations

from flask import Flask
from flask_rq import RQ
from rq import Worker


class AppForkWorker(Worker):
    """RQ's forking worker; each job runs in a fresh app context of the worker's app."""

    def __init__(self, *args, app: Flask, **kwargs):
        super().__init__(*args, **kwargs)
        self.app = app

    def main_work_horse(self, job, queue):
        """The forked work-horse: the job, in an app context of its own (a new `g`, so no
        database connection of the worker's is shared)."""
        with self.app.app_context():
            super().main_work_horse(job, queue)


class ForkingRQ(RQ):
    """Flask-RQ whose `flask rq worker` forks for each job (AppForkWorker) rather than start a
    new process: the same queues, options and command."""

    def make_worker(self, queues=None, **kwargs) -> AppForkWorker:
        """The worker for the named queues (all of RQ_QUEUES, in order, by default)."""
        known = self.queues
        chosen = tuple(known[name] for name in queues) if queues else tuple(known.values())
        return AppForkWorker(
            chosen, job_class=chosen[0].job_class, app=self._get_current_app(), **kwargs
        )
