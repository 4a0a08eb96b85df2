"""The staff area's views, by what they serve; their URLs are app/staff/routes.py's."""
