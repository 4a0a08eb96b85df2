"""Conversions reported back to the ad platforms (issue 22): what each was told about each lead
(records.py, the `conversions` table), a purchase as they are told it (purchases.py), the
Google Ads offline-conversions file (google_ads.py) and `flask conversions` (cli.py). The
events themselves are sent by the worker (worker/conversions.py); the staff download of the
Google Ads file is app/staff/conversions.py.
"""
