"""A job for tests/worker/test_job_worker.py to queue by name, as the app queues its own: it
writes down the process it ran in and the app context it found."""

import json
import os
import sys
from pathlib import Path

from flask import current_app, g


def describe_process(path: str) -> None:
    """Write this process's ids and arguments, the app's LEADS_DB and whether the context
    already held a database connection, as JSON to `path`."""
    facts = {
        "pid": os.getpid(),
        "ppid": os.getppid(),
        "argv": sys.argv,  # what the process was started with (its title may be rewritten)
        "leads_db": current_app.config["LEADS_DB"],
        "had_connection": "leads_db" in g,
    }
    written = Path(path + ".new")
    written.write_text(json.dumps(facts))
    written.replace(path)  # whole, for the test that waits for it
