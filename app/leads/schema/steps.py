"""How a migration step is made from SQL statements."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable


def run(statements: tuple[str, ...]) -> Callable[[sqlite3.Connection], None]:
    """A migration step that runs these statements in order."""

    def step(db: sqlite3.Connection) -> None:
        """Run each statement on this connection."""
        for statement in statements:
            db.execute(statement)

    return step
