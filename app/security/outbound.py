"""Calls to outside services that carry a secret (a bearer token): an opener that follows no
redirect, since urllib would send the token on to wherever a 3xx points. Each caller turns the
3xx that then surfaces as an HTTPError into its own refusal."""

from __future__ import annotations

import urllib.request


class NoRedirects(urllib.request.HTTPRedirectHandler):
    """Follow no redirect: the 3xx surfaces as an HTTPError instead."""

    def redirect_request(self, *args, **kwargs) -> None:
        """No new request for the redirect's target: urllib then raises the 3xx itself."""
        return None


OPENER = urllib.request.build_opener(NoRedirects)
