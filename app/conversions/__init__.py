"""Conversions reported back to the ad platforms, in one place: what they are told happened
(events.py: the form's Lead and the Purchase, with time, value and id), each platform's words
(meta.py, ga4.py), the sending and what each platform was told about each lead (send.py,
records.py: the `conversions` table), the Google Ads offline-conversions file (google_ads.py)
and `flask conversions` (cli.py). The worker's jobs call send.report(); staff download the
Google Ads file from the staff area.
"""
