"""Request limits that rotating addresses cannot dodge: questions and photos from a
status page are limited per lead as well as per client, IPv6 clients are counted per /64, and
production will not count in one process's memory unless told that one process is intended."""

from __future__ import annotations

import re

import pytest
from redis import Redis

from app.config import ConfigError
from app.leads import history
from app.security.tokens import digest
from tests.helpers import JSON, PRODUCTION, give_token, photo, post_multipart, save_sample_lead

PER_LEAD = "a lot of questions and photos about this enquiry"


def from_address(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}}


def page_csrf(client, path: str) -> str:
    page = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def ask(client, token: str, address: str):
    csrf = page_csrf(client, f"/status/{token}")
    data = {"question": "Is it still on?", "csrf_token": csrf}
    return client.post(f"/status/{token}/question", data=data, **from_address(address))


def questions(app, lead_id: int) -> int:
    with app.app_context():
        return [e["kind"] for e in history.lead_events(lead_id)].count("question")


def limited_app(make_app, **settings):
    return make_app(
        RATELIMIT_ENABLED=True,
        STATUS_ACTION_RATELIMIT="100 per minute",
        STATUS_ACTION_LEAD_RATELIMIT="2 per hour",
        **settings,
    )


def test_questions_and_photos_are_limited_per_lead_across_client_addresses(make_app):
    app = limited_app(make_app)
    client = app.test_client()
    lead_id, other_id = save_sample_lead(app), save_sample_lead(app)
    token, other = give_token(app, lead_id), give_token(app, other_id)
    answers = [ask(client, token, f"198.51.100.{n}") for n in (1, 2, 3)]
    assert [a.status_code for a in answers] == [303, 303, 303]
    assert questions(app, lead_id) == 2  # the third, from a third address, was refused
    page = client.get(f"/status/{token}").get_data(as_text=True)
    assert PER_LEAD in page and "(212) 555-0147" in page
    upload = post_multipart(
        client,
        f"/status/{token}/photos",
        {"csrf_token": page_csrf(client, f"/status/{token}")},
        [photo()],
        JSON,
    )
    assert upload.status_code == 429 and PER_LEAD in upload.get_json()["error"]
    assert ask(client, other, "198.51.100.1").status_code == 303  # another lead: its own count
    assert questions(app, other_id) == 1


def test_the_per_lead_limit_is_keyed_by_the_lead_never_the_token(make_app, redis_server):
    app = limited_app(make_app, REDIS_URL=redis_server.url)
    lead_id = save_sample_lead(app)
    token = give_token(app, lead_id)
    ask(app.test_client(), token, "198.51.100.7")
    keys = [key.decode() for key in Redis.from_url(redis_server.url).keys("*limits*")]
    assert any(f"lead-{lead_id}/" in key for key in keys), keys
    assert not [key for key in keys if token in key or digest(token) in key]


def ask_for_link(client, address: str, email: str = "a@example.com"):
    csrf = page_csrf(client, "/status")
    data = {"email": email, "csrf_token": csrf}
    return client.post("/status", data=data, **from_address(address)).status_code


def link_limited_app(make_app):
    return make_app(
        RATELIMIT_ENABLED=True,
        STATUS_LINK_RATELIMIT="2 per minute",
        STATUS_LINK_EMAIL_RATELIMIT="100 per minute",
    )


def test_ipv6_clients_in_one_64_share_a_counter_and_another_64_has_its_own(make_app):
    client = link_limited_app(make_app).test_client()
    assert ask_for_link(client, "2001:db8:1:2::1") == 303
    assert ask_for_link(client, "2001:db8:1:2:abcd:ef01:2345:6789") == 303
    assert ask_for_link(client, "2001:db8:1:2::ffff") == 429  # the same /64, a new address
    assert ask_for_link(client, "2001:db8:1:3::1") == 303  # the next /64


def test_ipv4_clients_are_still_counted_one_address_each(make_app):
    client = link_limited_app(make_app).test_client()
    assert [ask_for_link(client, "203.0.113.1") for _ in range(3)] == [303, 303, 429]
    assert ask_for_link(client, "203.0.113.2") == 303
    assert ask_for_link(client, "::ffff:203.0.113.1") == 429  # the same IPv4 client, mapped


def production(**changes) -> dict:
    settings = {**PRODUCTION, **changes}
    return {key: value for key, value in settings.items() if value is not None}


def test_production_refuses_per_process_limit_counters_unless_one_process_is_intended(make_app):
    with pytest.raises(ConfigError) as refused:
        make_app(**production(RATELIMIT_SINGLE_PROCESS=None))
    message = str(refused.value)
    assert "REDIS_URL must be set" in message and "RATELIMIT_SINGLE_PROCESS=1" in message
    single = make_app(**production(RATELIMIT_SINGLE_PROCESS="1"))
    assert single.config["RATELIMIT_STORAGE_URI"] == "memory://"
    shared = make_app(**production(RATELIMIT_SINGLE_PROCESS=None, REDIS_URL="redis://r:6379/0"))
    assert shared.config["RATELIMIT_STORAGE_URI"].startswith("redis://r:6379/0")
