"""Keep one-time enrolment tokens out of request logs.

An enrolment link carries its token in the path, and servers log request paths: Werkzeug's
development server and gunicorn's access log (when GUNICORN_ACCESS_LOG is set). This filter
rewrites such lines before they are written. deploy/nginx.conf leaves those paths out of its
own access log.
"""

from __future__ import annotations

import logging
import re

ENROLMENT_PATH = re.compile(r"(/staff/enrol/)[^\s\"?]+")
REQUEST_LOGGERS = ("werkzeug", "gunicorn.access")


class HideEnrolmentTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/staff/enrol/" in message:
            record.msg = ENROLMENT_PATH.sub(r"\1[token hidden]", message)
            record.args = None
        return True


def hide_enrolment_tokens() -> None:
    """Add the filter to the request loggers, once per process."""
    for name in REQUEST_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, HideEnrolmentTokens) for f in logger.filters):
            logger.addFilter(HideEnrolmentTokens())
