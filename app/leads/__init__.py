"""Leads: every submission of the sell form, kept in instance/leads.db (never touched by seed).

`store` holds the lead records' SQL (the timeline's is `history`, the inbox's `search`); `cli`
is the `flask leads` command group.
"""
