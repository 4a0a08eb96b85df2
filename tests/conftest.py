"""Shared fixtures: an app on a freshly seeded content database, its client and CLI runner."""

from __future__ import annotations

import pytest

from app import create_app
from app.content.loader import seed


@pytest.fixture(scope="session")
def content_db(tmp_path_factory):
    """One seeded content database for the whole run (seeding is what test_content checks)."""
    path = tmp_path_factory.mktemp("content") / "content.db"
    app = create_app({"ENV_NAME": "testing", "CONTENT_DB": str(path)})
    with app.app_context():
        seed(app)
    return path


@pytest.fixture
def app(content_db, tmp_path):
    return create_app(
        {
            "ENV_NAME": "testing",
            "CONTENT_DB": str(content_db),
            "LEADS_DB": str(tmp_path / "leads.db"),
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
