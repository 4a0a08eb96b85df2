"""Sign-in throttling with growing delays, per account and address, per address, and a ceiling
per account.

Each attempt at a password or code counts against three things: the account tried from this
address (by a digest of the e-mail typed, whether or not it has an account, so throttling says
nothing about which e-mails exist), the address whatever it tries, and the account from every
address together. After a few free tries every further failure doubles the wait before the next
attempt from there is even checked, up to MAX_DELAY; failures are forgotten after FORGET_AFTER
seconds without one. Keying the delays on account and address means someone who knows a staff
e-mail cannot keep its owner, elsewhere, waiting. Against guesses spread over many addresses,
the account also has a ceiling: ACCOUNT_CEILING failures in one CEILING_WINDOW stop every
attempt at it until the window ends, and the failure that reaches it is reported (signin.py).

An attempt is counted before it is checked (`begin`), in one BEGIN IMMEDIATE transaction that
reads the counts and adds to them, so parallel requests (every gunicorn worker and thread share
leads.db) cannot all pass within one wait; a right answer takes its count back (`succeeded`).
Flask-Limiter (used for the sell form) counts requests in fixed windows per key; it has no notion
of a failure that only counts when the answer was wrong, nor of a delay that doubles.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from app.leads.db import immediate_transaction
from app.security.tokens import digest
from app.staff import queries

ACCOUNT_FREE_TRIES = 3  # per account and address
ADDRESS_FREE_TRIES = 10  # an office shares one address
ACCOUNT_CEILING = 50  # per account, from every address together, in one window
CEILING_WINDOW = 60 * 60
MAX_DELAY = 15 * 60
FORGET_AFTER = 60 * 60


class Wait(Exception):
    """Too many failures: the next attempt is allowed in `seconds`."""

    def __init__(self, seconds: int):
        super().__init__(f"wait {seconds} seconds")
        self.seconds = seconds


@dataclass(frozen=True)
class Counter:
    """Failures counted under `key`, with `free_tries` before a wait that doubles with each."""

    key: str
    free_tries: int

    def wait(self, state: dict | None, at: float) -> int:
        """Seconds before this counter, in `state`, allows the next attempt."""
        if state is None or state["failures"] < self.free_tries:
            return 0
        if state["last_failure"] < at - FORGET_AFTER:
            return 0
        delay = min(2 ** (state["failures"] - self.free_tries), MAX_DELAY)
        return max(0, math.ceil(state["last_failure"] + delay - at))


@dataclass(frozen=True)
class Ceiling:
    """At most `limit` failures under `key`, which names one window, until `window_ends`."""

    key: str
    limit: int
    window_ends: float

    def wait(self, state: dict | None, at: float) -> int:
        """Seconds until the window ends once the limit is reached, else 0."""
        if state is None or state["failures"] < self.limit:
            return 0
        return max(1, math.ceil(self.window_ends - at))


@dataclass(frozen=True)
class Attempt:
    """One attempt let through and counted as a failure until it proves right."""

    counters: tuple[Counter | Ceiling, ...]
    at: float
    previous: dict[str, float | None]  # each counter's last failure before this attempt
    account_failures: int  # the account's failures in this window, this attempt included

    @property
    def reached_ceiling(self) -> bool:
        """Whether this attempt, if wrong, is the one that reaches the account's ceiling."""
        return self.account_failures == ACCOUNT_CEILING

    @property
    def ceiling_lifted_at(self) -> str:
        """When the account's ceiling window ends (UTC, ISO 8601, as leads.db stores times)."""
        ends = datetime.fromtimestamp(self.counters[-1].window_ends, UTC)
        return ends.isoformat(timespec="seconds")


def counters(kind: str, account: str, address: str, at: float) -> tuple[Counter | Ceiling, ...]:
    """For one kind of attempt ('password', 'code', 'confirm'): the account-and-address counter,
    the address's counter and the account's ceiling in the window of `at`."""
    who = digest(account.strip().lower())
    window = int(at // CEILING_WINDOW)
    return (
        Counter(f"{kind}:{who}@{address}", ACCOUNT_FREE_TRIES),
        Counter(f"address:{address}", ADDRESS_FREE_TRIES),
        Ceiling(f"{kind}-ceiling:{who}:{window}", ACCOUNT_CEILING, (window + 1) * CEILING_WINDOW),
    )


def begin(kind: str, account: str, address: str) -> Attempt:
    """Count an attempt before it is checked, or raise Wait with the longest wait any counter
    demands (then nothing is counted)."""
    at = time.time()
    checked = counters(kind, account, address, at)
    with immediate_transaction() as db:
        states = queries.throttle_states(db, [counter.key for counter in checked])
        seconds = max(counter.wait(states.get(counter.key), at) for counter in checked)
        if seconds:
            raise Wait(seconds)
        counts = queries.add_failures(
            db, [counter.key for counter in checked], at, at - FORGET_AFTER
        )
    previous = {key: (state or {}).get("last_failure") for key, state in states.items()}
    return Attempt(checked, at, previous, counts[checked[-1].key])


def succeeded(attempt: Attempt) -> None:
    """A right answer clears the account's count from this address, and takes this attempt back
    from the address's count and the account's ceiling."""
    account_here, *others = attempt.counters
    queries.clear_failures(account_here.key)
    for counter in others:
        queries.take_back_failure(counter.key, attempt.at, attempt.previous.get(counter.key))
