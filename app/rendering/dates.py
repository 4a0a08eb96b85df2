"""Dates as the site writes them everywhere: articles, the staff inbox, the seller's page and
e-mails: en-AU long format (docs/architecture.md, "Decisions the code relies on")."""

from __future__ import annotations

from datetime import date


def display_date(iso_date: str) -> str:
    """'15 January 2025' (done here, not by the browser's Intl, so every page and e-mail agrees)."""
    day = date.fromisoformat(iso_date)
    return f"{day.day} {day:%B %Y}"
