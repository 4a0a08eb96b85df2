"""The staff dashboard at /staff/insights: which leads became watches bought, by period and by
where they came from (its views are app/staff/views/insights.py), counted by counts.py."""
