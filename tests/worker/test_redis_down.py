"""A dead Redis never slows a seller: the sell form's post, the request limiter and the shared
page cache each try a failing Redis once, never again and again with backoff on the seller's
request thread, and the queue and the page cache rest a while after a failure instead of
trying on every request (app/redis_guard.py).
The Redis here is real: a redis-server past its client limit (`maxclients` 1, its one client
the test's), which answers each new connection with an error and hangs up, and counts them."""

from __future__ import annotations

import pytest
import redis

from app import queue, redis_guard
from app.extensions import rq
from app.leads import search, store
from tests.helpers import JSON, post


@pytest.fixture
def full_redis(redis_server):
    """The test's Redis, refusing every other client from now on; the test's own connection
    reads its counters."""
    holder = redis.Redis.from_url(redis_server.url)
    holder.config_set("maxclients", 1)
    holder.ping()
    yield holder
    holder.close()


def refused(holder: redis.Redis) -> int:
    return holder.info("stats")["rejected_connections"]


def test_sellers_are_answered_and_saved_while_the_queue_rests_after_one_failed_try(
    make_app, redis_server, full_redis
):
    app = make_app(REDIS_URL=redis_server.url)
    client = app.test_client()
    answers = [post(client, {"metaEventId": f"evt-full-redis-{n}"}, headers=JSON) for n in range(5)]
    assert [answer.status_code for answer in answers] == [200] * 5
    assert all(answer.json["success"] for answer in answers)
    assert refused(full_redis) == 1  # the first post's one try; the next four did not try
    with app.app_context():
        leads = search.list_leads()
        assert len(leads) == 5
        assert all(store.pending_work(lead) == list(store.WORK_COLUMNS) for lead in leads)
    assert redis_guard.resting(app)


def test_a_request_leaves_a_resting_redis_alone_and_a_command_tries_it(make_app, redis_server):
    app = make_app(REDIS_URL=redis_server.url)
    redis_server.stop()
    with app.test_request_context("/sell", method="POST"):
        assert queue.enqueue(queue.PROCESS_LEAD, 1) is False  # tried, failed: Redis rests
    redis_server.start()
    with app.test_request_context("/sell", method="POST"):
        assert queue.enqueue(queue.PROCESS_LEAD, 2) is False  # not even tried
    with app.app_context():
        assert queue.enqueue(queue.PROCESS_LEAD, 2) is True  # the sweep, a command: tried
        assert [job.args for job in rq.queue.get_jobs()] == [(2,)]


def test_a_request_tries_redis_again_once_its_rest_is_over(make_app, redis_server, monkeypatch):
    monkeypatch.setattr(redis_guard, "REDIS_REST_SECONDS", 0)
    app = make_app(REDIS_URL=redis_server.url)
    redis_server.stop()
    with app.test_request_context("/sell", method="POST"):
        assert queue.enqueue(queue.PROCESS_LEAD, 1) is False
    redis_server.start()
    with app.test_request_context("/sell", method="POST"):
        assert queue.enqueue(queue.PROCESS_LEAD, 1) is True
    assert not redis_guard.resting(app)


def test_a_cached_page_is_served_without_the_shared_cache_after_one_try(
    make_app, redis_server, full_redis
):
    app = make_app(REDIS_URL=redis_server.url)
    response = app.test_client().get("/blog?category=selling-guides")
    assert response.status_code == 200
    assert "Selling Guides" in response.get_data(as_text=True)
    assert refused(full_redis) == 1  # one look in the cache; then it rests: no try to keep it
    again = app.test_client().get("/blog?category=selling-guides")
    assert again.status_code == 200 and refused(full_redis) == 1


def test_the_request_limiter_tries_a_failing_redis_once_per_look(
    make_app, redis_server, full_redis
):
    app = make_app(REDIS_URL=redis_server.url, RATELIMIT_ENABLED=True)
    client = app.test_client()
    for n in range(3):
        assert post(client, {"metaEventId": f"evt-limited-{n}"}, headers=JSON).status_code == 200
    # The limiter's first count and any of its later health checks (1, 2, 4 s apart) plus the
    # queue's one try: never redis-py's ten retries with backoff of each.
    assert refused(full_redis) <= 3 + 1
