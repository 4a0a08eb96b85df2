"""The label's PDF is fetched from where the provider's answer points only over https, only
from the provider's file hosts (EASYPOST_FILE_HOSTS: the fake's file host in tests), without
following a redirect, and read in chunks up to EASYPOST_LABEL_MAX_BYTES. Anything else is
refused, the seller asked to try again, and the reason logged with the host, never the URL."""

from __future__ import annotations

import logging

import pytest

from tests.status.mail_steps import labelled, notice

LIMIT = 50_000


def download(app, token: str):
    """The seller's 4x6 download; (the answer, the notice the page then shows)."""
    client = app.test_client()
    answer = client.get(f"/status/{token}/mail/label-4x6.pdf")
    return answer, notice(client, token) if answer.status_code == 303 else ""


def refused(answer, shown: str) -> bool:
    return answer.status_code == 303 and shown.startswith(
        "We could not fetch your label from the carrier"
    )


@pytest.mark.parametrize(
    "base",
    [
        "http://{host}",  # the file host, in clear
        "https://files.easypost.com.evil.net",
        "https://{host}.evil.net",
        "https://{host}@evil.example",  # the file host as a user name, before another host
        "https://seller@{host}",  # a user name before the file host
        "https://127.0.0.1:1",  # the file host's address, another port
    ],
    ids=["http", "lookalike", "suffixed", "host-as-user", "user-info", "other-port"],
)
def test_a_label_anywhere_but_the_file_hosts_over_https_is_not_fetched(
    mailin_app, easypost, caplog, base
):
    caplog.set_level(logging.WARNING)
    _, token, _ = labelled(mailin_app)
    easypost.label_url_base = base.format(host=easypost.files_host)
    answer, shown = download(mailin_app, token)
    assert refused(answer, shown)
    assert easypost.downloads() == 0
    assert "is not an https address on the provider's file hosts" in caplog.text
    assert "/files/labels/" not in caplog.text


def test_a_redirect_is_not_followed_even_to_the_file_host(mailin_app, easypost, caplog):
    _, token, _ = labelled(mailin_app)
    easypost.plan("file", "redirect")
    answer, shown = download(mailin_app, token)
    assert refused(answer, shown)
    assert easypost.downloads() == 1  # the redirect's target was never asked
    assert "the label's PDF was not served (302)" in caplog.text


@pytest.mark.parametrize("kind", ["size", "unsized"])
def test_a_label_of_exactly_the_limit_downloads_and_one_byte_more_is_refused(
    mailin_app, easypost, kind
):
    mailin_app.config["EASYPOST_LABEL_MAX_BYTES"] = LIMIT
    _, token, _ = labelled(mailin_app)
    easypost.plan("file", (kind, LIMIT), (kind, LIMIT + 1))
    at_the_limit, _ = download(mailin_app, token)
    assert at_the_limit.status_code == 200 and len(at_the_limit.data) == LIMIT
    assert at_the_limit.data.startswith(b"%PDF")
    over, shown = download(mailin_app, token)
    assert refused(over, shown)
