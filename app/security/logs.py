"""Keep secret link tokens out of request logs: staff enrolment links (/staff/enrol/<token>)
and sellers' status links (/status/<token>).

Such links carry their token in the path, and servers log request paths: Werkzeug's
development server and gunicorn's access log (when GUNICORN_ACCESS_LOG is set). This filter
rewrites those lines before they are written. deploy/nginx.conf leaves those paths out of its
own access log.
"""

from __future__ import annotations

import logging
import re

TOKEN_PATHS = ("/staff/enrol/", "/status/")
TOKEN_IN_PATH = re.compile(r"(" + "|".join(map(re.escape, TOKEN_PATHS)) + r")[^\s\"?]+")
REQUEST_LOGGERS = ("werkzeug", "gunicorn.access")


class HideLinkTokens(logging.Filter):
    """A logging filter replacing link tokens in request log lines with "[token hidden]"."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message if it holds a token path; never drops a record."""
        message = record.getMessage()
        if any(path in message for path in TOKEN_PATHS):
            record.msg = TOKEN_IN_PATH.sub(r"\1[token hidden]", message)
            record.args = None
        return True


def hide_link_tokens() -> None:
    """Add the filter to the request loggers, once per process."""
    for name in REQUEST_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, HideLinkTokens) for f in logger.filters):
            logger.addFilter(HideLinkTokens())
