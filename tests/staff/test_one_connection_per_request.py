"""A page that reads many things from leads.db opens one connection to it (app/leads/db.py),
and the schema is made when the app starts, not on each connection."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from app.leads import db, links, schema
from app.leads.reference import new_status_token
from app.security.tokens import digest


@pytest.fixture
def leads_connections(app, monkeypatch) -> list[str]:
    """The leads.db connections opened from now on by this thread, which the test client's
    requests run on (background work has threads of its own)."""
    opened: list[str] = []
    open_db = db.open_db
    test_thread = threading.current_thread()

    def counted(path: str) -> sqlite3.Connection:
        if path == app.config["LEADS_DB"] and threading.current_thread() is test_thread:
            opened.append(path)
        return open_db(path)

    monkeypatch.setattr(db, "open_db", counted)
    return opened


def test_a_staff_lead_page_opens_one_leads_connection(staff, account, add_lead, leads_connections):
    lead_id = add_lead()
    client = staff.app.test_client()
    staff.sign_in(client, account)
    leads_connections.clear()
    response = staff.request(client, "GET", f"/staff/leads/{lead_id}")
    assert response.status_code == 200 and "Grace Hopper" in response.text
    assert len(leads_connections) == 1


def test_a_status_page_opens_one_leads_connection(app, add_lead, leads_connections):
    lead_id = add_lead()
    token = new_status_token()
    with app.app_context():
        links.add_status_link(lead_id, digest(token))
    leads_connections.clear()
    response = app.test_client().get(f"/status/{token}")
    assert response.status_code == 200 and "Submariner" in response.text
    assert len(leads_connections) == 1


def test_the_schema_is_current_from_start_up_without_any_request(make_app):
    app = make_app()
    with sqlite3.connect(app.config["LEADS_DB"]) as raw:
        version = raw.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
    assert version == schema.VERSION
    assert {"leads", "lead_events", "status_links", "staff", "staff_sessions", "audit"} <= tables
