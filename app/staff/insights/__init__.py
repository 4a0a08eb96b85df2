"""The staff dashboard at /staff/insights: which leads became watches bought, by period and by
where they came from (routes.py), read through app/leads/insights.py."""
