"""Development's sample guide entries (content/prices/samples.toml, each `sample = true`), put
in the guide by `flask prices samples` (bin/setup runs it after `flask seed`) where samples are
shown, so a new checkout shows the instant range
and the home page's promise. Never in production (SHOW_SAMPLE_CONTENT is off there, and the
guide hides sample rows anyway); a real entry of the same brand and reference is left alone."""

from __future__ import annotations

import tomllib
from pathlib import Path

from flask import current_app

from app.leads.db import immediate_transaction
from app.prices import coverage, guide

SAMPLES_FILE = Path("prices") / "samples.toml"


def sample_entries() -> list[dict]:
    """The file's entries, each as the guide keeps it; refuses one not marked a sample."""
    path = Path(current_app.config["CONTENT_DIR"]) / SAMPLES_FILE
    entries = tomllib.loads(path.read_text(encoding="utf-8"))["entries"]
    for entry in entries:
        if entry.get("sample") is not True:
            raise ValueError(f"{path}: {entry['reference']} is not marked sample = true.")
    return [
        {name: entry.get(name) for name in guide.FIELDS}
        | {"reference": "".join(entry["reference"].split()).upper()}
        for entry in entries
    ]


def load() -> int:
    """Replace the guide's sample rows with the file's, where samples are shown; how many."""
    if not guide.shown_samples():
        return 0
    loaded = 0
    with immediate_transaction() as db:
        db.execute("DELETE FROM price_guide WHERE sample = 1")
        for values in sample_entries():
            if guide.existing_id(db, values["brand"], values["reference"]) is None:
                entry_id = guide.write(db, values | {"no_box": values["no_box"] or 0,
                                                     "no_papers": values["no_papers"] or 0},
                                       "sample")  # fmt: skip
                db.execute("UPDATE price_guide SET sample = 1 WHERE id = ?", (entry_id,))
                loaded += 1
    coverage.refresh()
    return loaded
