"""Helpers shared by test modules (test modules never import each other)."""

from __future__ import annotations

import itertools

from app.leads import store

_event_ids = itertools.count(1)


def sample_lead(**overrides) -> dict:
    """A valid lead as the sell form stores it."""
    return {
        "full_name": "Jane Doe",
        "email": "jane@example.com",
        "phone": "(212) 555-0100",
        "watch_brand": "Rolex",
        "watch_model": "Submariner",
        "watch_year": 2019,
        "watch_condition": "Excellent",
        "has_box": True,
        "has_papers": False,
        "additional_details": "Serviced in 2023.",
        "source": "USA Website",
        "utm_source": "google",
        "utm_campaign": "spring",
        "meta_event_id": f"evt-test-{next(_event_ids):06d}",
        "client_ip": "203.0.113.9",
        "user_agent": "pytest",
    } | overrides


def save_sample_lead(app, photos: list[dict] | None = None, **overrides) -> int:
    """Save a lead straight to the store (no form, no jobs); returns its id."""
    with app.app_context():
        lead_id, created = store.save_lead(sample_lead(**overrides), photos or [])
    assert created
    return lead_id
