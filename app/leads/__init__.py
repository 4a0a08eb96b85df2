"""Leads: every submission of the sell form, kept in instance/leads.db (never touched by seed).

`store` holds all SQL for that database; `cli` is the `flask leads` command group.
"""
