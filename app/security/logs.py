"""Keep secret link tokens out of every log: staff enrolment links (/staff/enrol/<token>),
sellers' status links (/status/<token>) and erasure links (/status/erasure/<token>).

Such links carry their token in the path, and paths reach logs in many ways: the development
server's and gunicorn's access lines, Flask's "Exception on <path>" when a view fails, a
library's warning. A filter on a few named loggers misses the rest (a record passed up to the
root logger's handlers skips the filters of the loggers it passes), so the scrubbing is done
where every record is made: a log record factory, installed once per process. deploy/nginx.conf
leaves those paths out of its own access log.
"""

from __future__ import annotations

import logging
import re

TOKEN_PATHS = ("/staff/enrol/", "/status/")
TOKEN_IN_PATH = re.compile(r"(" + "|".join(map(re.escape, TOKEN_PATHS)) + r")[^\s\"?]+")
HIDDEN = r"\1[token hidden]"


def hidden_tokens(text: str) -> str:
    """`text` with the token of every link path in it replaced by "[token hidden]"."""
    return TOKEN_IN_PATH.sub(HIDDEN, text)


class TokenHidingRecords:
    """A log record factory around the one before it: each record's message, once formatted
    with its arguments, has its link tokens hidden before any handler sees it."""

    def __init__(self, make_record):
        self.make_record = make_record

    def __call__(self, *args, **kwargs) -> logging.LogRecord:
        record = self.make_record(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a malformed call: left for logging to report as it always does
            return record
        if any(path in message for path in TOKEN_PATHS):
            record.msg, record.args = hidden_tokens(message), None
        return record


def hide_link_tokens() -> None:
    """Install the factory, once per process (every app made in it shares logging)."""
    current = logging.getLogRecordFactory()
    if not isinstance(current, TokenHidingRecords):
        logging.setLogRecordFactory(TokenHidingRecords(current))
