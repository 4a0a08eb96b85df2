"""The states a lead can be in: the values of its `state` column, as one type.

Which moves between them are allowed, what each move does and how each state reads are the
sale's (app/sale/lifecycle.py). The type lives here, with the records, because the queries of
every layer name states (the inbox's search, the dashboard, the ad platforms' reports) and the
records layer imports nothing above it. Templates get it as the `State` global.
"""

from __future__ import annotations

from enum import StrEnum


class State(StrEnum):
    """A lead's state; each member equals its stored text (`State.BOUGHT == "bought"`)."""

    NEW = "new"
    CONTACTED = "contacted"
    QUOTED = "quoted"
    ACCEPTED = "accepted"
    APPOINTMENT = "appointment"
    OFFERED = "offered"
    AGREED = "agreed"
    BOUGHT = "bought"
    CLOSED = "closed"
