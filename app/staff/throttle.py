"""Sign-in throttling with growing delays, per account and per client address.

Each wrong password or code counts against the account tried (by a digest of the e-mail typed,
whether or not it has an account, so throttling says nothing about which e-mails exist) and
against the client's address. After a few free tries every further failure doubles the wait
before the next attempt is even checked, up to MAX_DELAY; failures are forgotten after
FORGET_AFTER seconds without one. Counts live in leads.db, so every gunicorn worker shares them.
Flask-Limiter (used for the sell form) counts requests in fixed windows per key; it has no notion
of a failure that only counts when the answer was wrong, nor of a delay that doubles, so it is
not used here.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from app.security.tokens import digest
from app.staff import store

ACCOUNT_FREE_TRIES = 3
ADDRESS_FREE_TRIES = 10  # an office shares one address
MAX_DELAY = 15 * 60
FORGET_AFTER = 60 * 60


class Wait(Exception):
    """Too many failures: the next attempt is allowed in `seconds`."""

    def __init__(self, seconds: int):
        super().__init__(f"wait {seconds} seconds")
        self.seconds = seconds


@dataclass(frozen=True)
class Counter:
    """Failures counted under `key`, with `free_tries` before any wait."""

    key: str
    free_tries: int

    def wait(self, at: float) -> int:
        """Seconds before this counter allows the next attempt."""
        state = store.throttle_state(self.key)
        if state is None or state["failures"] < self.free_tries:
            return 0
        if state["last_failure"] < at - FORGET_AFTER:
            return 0
        delay = min(2 ** (state["failures"] - self.free_tries), MAX_DELAY)
        return max(0, math.ceil(state["last_failure"] + delay - at))


def counters(kind: str, account: str, address: str) -> list[Counter]:
    """The account's counter for this kind of attempt ('password' or 'code') and the address's."""
    return [
        Counter(f"{kind}:{digest(account.strip().lower())}", ACCOUNT_FREE_TRIES),
        Counter(f"address:{address}", ADDRESS_FREE_TRIES),
    ]


def raise_if_waiting(checked: list[Counter]) -> None:
    """Raise Wait with the longest wait any of the counters demands."""
    at = time.time()
    seconds = max(counter.wait(at) for counter in checked)
    if seconds:
        raise Wait(seconds)


def failed(checked: list[Counter]) -> None:
    """Count a failure against every counter."""
    at = time.time()
    for counter in checked:
        store.add_failure(counter.key, at, at - FORGET_AFTER)


def succeeded(checked: list[Counter]) -> None:
    """A right answer clears the account's count; the address keeps its own."""
    store.clear_failures(checked[0].key)
