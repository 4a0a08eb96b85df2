"""The instant range is a seller's, not a price list's: each client (an IPv6 one by its /64)
asks at most SELL_RANGE_RATELIMIT, then gets a 429 with Retry-After and no range, and staff
hear of unusual volume (a client at its limit, or a busy day for all) once a day. Behind nginx
the client is the address nginx appends to X-Forwarded-For, whatever the client sent there."""

from __future__ import annotations

from urllib.parse import urlencode

from tests.data.prices import SUB_LINE, add_entry
from tests.helpers import JSON, PRODUCTION, SITE, island_props, lead_work_done, post

QUESTION = "/sell/range?" + urlencode(
    {"watchBrand": "Rolex", "watchModel": "126610LN", "watchCondition": "Very Good - Minor wear"}
)
ALERT = "Unusual use of the instant price range"
WATCH = {"watchModel": "sub 126610 ln", "hasBox": "y", "hasPapers": "y"}  # a Rolex in the guide


def ask(client, address: str = "198.51.100.7"):
    return client.get(QUESTION, headers=JSON, environ_base={"REMOTE_ADDR": address})


def ask_through_nginx(client, sent: str | None, address: str):
    """A question as gunicorn gets it from nginx on loopback: `X-Forwarded-For` is what the
    client sent there (`sent`) with the address nginx saw appended ($proxy_add_x_forwarded_for)."""
    forwarded = f"{sent}, {address}" if sent else address
    headers = JSON | {"X-Forwarded-For": forwarded, "X-Forwarded-Proto": "https"}
    return client.get(QUESTION, base_url=SITE, headers=headers,
                      environ_base={"REMOTE_ADDR": "127.0.0.1"})  # fmt: skip


def alerts(smtp_server) -> list:
    return [message for message in smtp_server.messages if message["Subject"] == ALERT]


def alerting_app(make_app, mail_settings, **settings):
    """A limited app that e-mails staff at desk@watches.example."""
    return make_app(
        **mail_settings, STAFF_EMAIL="desk@watches.example", RATELIMIT_ENABLED=True, **settings
    )


def test_the_61st_question_in_a_minute_is_refused_with_retry_after_and_no_range(make_app):
    app = make_app(RATELIMIT_ENABLED=True)
    add_entry(app)
    client = app.test_client()
    answers = [ask(client) for _ in range(61)]
    assert {answer.status_code for answer in answers[:60]} == {200}
    assert answers[59].get_json()["range"] is not None
    refused = answers[60]
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert refused.get_json()["success"] is False and "range" not in refused.get_json()
    assert ask(client, "198.51.100.8").status_code == 200  # another client keeps its own


def test_addresses_in_one_ipv6_64_share_a_budget_and_the_next_64_has_its_own(make_app):
    client = make_app(RATELIMIT_ENABLED=True, SELL_RANGE_RATELIMIT="2 per minute").test_client()
    assert ask(client, "2001:db8:1:2::1").status_code == 200
    assert ask(client, "2001:db8:1:2::2").status_code == 200
    assert ask(client, "2001:db8:1:2::ffff").status_code == 429  # the same /64, a new address
    assert ask(client, "2001:db8:1:3::1").status_code == 200  # the next /64


def test_behind_nginx_a_client_rotating_its_own_forwarded_for_keeps_one_budget(make_app):
    app = make_app(**PRODUCTION, RATELIMIT_ENABLED=True, SELL_RANGE_RATELIMIT="2 per minute")
    add_entry(app)
    client = app.test_client()
    sent = [None, "198.51.100.1", "10.0.0.7, 198.51.100.2", "203.0.113.10"]
    statuses = [ask_through_nginx(client, value, "203.0.113.9").status_code for value in sent]
    assert statuses == [200, 200, 429, 429]
    assert ask_through_nginx(client, "203.0.113.9", "203.0.113.10").status_code == 200


def test_staff_are_alerted_once_when_a_client_reaches_its_limit(
    make_app, mail_settings, smtp_server
):
    app = alerting_app(make_app, mail_settings, SELL_RANGE_RATELIMIT="1 per minute")
    client = app.test_client()
    statuses = [ask(client, address).status_code for address in ["198.51.100.1"] * 3]
    statuses += [ask(client, address).status_code for address in ["198.51.100.2"] * 3]
    assert statuses == [200, 429, 429] * 2  # six refusals from two clients...
    lead_work_done(app)
    [alert] = alerts(smtp_server)  # ...one e-mail
    assert alert["To"] == "desk@watches.example"
    text = alert.get_content()
    assert "a client reached its limit (1 per minute)" in text and "Instant range:" in text


def test_staff_are_alerted_once_when_all_clients_together_pass_the_days_figure(
    make_app, mail_settings, smtp_server
):
    app = alerting_app(make_app, mail_settings, SELL_RANGE_ALERT_PER_DAY="3")
    client = app.test_client()
    statuses = [ask(client, f"198.51.100.{n}").status_code for n in range(1, 7)]
    assert statuses == [200] * 6  # nobody is refused for the day's total
    lead_work_done(app)
    assert len(alerts(smtp_server)) == 1
    assert "passed 3" in alerts(smtp_server)[0].get_content()


def test_with_redis_down_the_range_is_answered_and_the_limit_still_holds(make_app, redis_server):
    app = make_app(
        REDIS_URL=redis_server.url, RATELIMIT_ENABLED=True, SELL_RANGE_RATELIMIT="2 per minute"
    )
    add_entry(app)
    client = app.test_client()
    redis_server.stop()
    answers = [ask(client) for _ in range(3)]
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert answers[0].get_json()["range"] is not None


def shown_range(answer):
    """The range the sell page drew (island props and server-rendered markup), or None."""
    html = answer.get_data(as_text=True).replace("<!-- -->", "")
    drawn = island_props(html)["range"]
    assert (drawn is not None) == (SUB_LINE in html)
    return drawn


def refusal_pages(client) -> list:
    """The sell form refused twice, as a script reading prices would have it: invalid (422)
    and without its CSRF token (400); the seller's values drawn again both times."""
    answers = [post(client, WATCH | {"email": "not an address"}), post(client, WATCH, token="x")]
    assert [answer.status_code for answer in answers] == [422, 400]
    for answer in answers:
        html = answer.get_data(as_text=True).replace("<!-- -->", "")
        assert island_props(html)["values"]["watchModel"] == "sub 126610 ln"
    return answers


def test_a_client_at_its_limit_reads_no_range_on_the_forms_refusal_pages(
    make_app, mail_settings, smtp_server, caplog
):
    app = alerting_app(make_app, mail_settings, SELL_RANGE_RATELIMIT="2 per minute")
    add_entry(app)
    client = app.test_client()
    assert [ask(client, "127.0.0.1").status_code for _ in range(2)] == [200, 200]
    assert [shown_range(answer) for answer in refusal_pages(client)] == [None, None]
    lead_work_done(app)
    assert len(alerts(smtp_server)) == 1  # its limit reached on a refusal page: staff told
    assert "Instant range: 127.0.0.1 reached its limit of 2 per 1 minute" in caplog.text


def test_a_range_on_a_refusal_page_counts_against_the_clients_limit(make_app):
    app = make_app(RATELIMIT_ENABLED=True, SELL_RANGE_RATELIMIT="2 per minute")
    add_entry(app)
    client = app.test_client()
    assert [shown_range(answer)["line"] for answer in refusal_pages(client)] == [SUB_LINE] * 2
    assert ask(client, "127.0.0.1").status_code == 429  # the two pages spent its budget
    assert ask(client, "198.51.100.9").status_code == 200  # another client's is its own
