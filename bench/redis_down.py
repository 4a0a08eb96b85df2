"""Redis down: how long a seller waits for the sell form's answer while Redis is up, stopped
(connections refused) and paused (SIGSTOP: connections accepted, never answered, as a hung
Redis or a dropped network makes them).

The site under gunicorn with production settings (deploy/gunicorn.conf.py) and a redis-server
of its own; no worker, so every lead's work stays owed and only the answer is timed. In each
phase, --posts sell-form posts as the island sends them (one photo each), --gap seconds apart,
so the request limiter's own checks of its storage (1, 2, 4... seconds apart) fall among them;
each timed from its last byte written to the answer's status line (bench/submission.py's
post_lead), each checked saved in leads.db. Also the first GET of a filtered blog page, a page
the shared cache (Redis) would hold. Prints median and max per phase; the settings promise
that a dead Redis never slows a seller.

    .venv/bin/python bench/redis_down.py [--posts 12] [--gap 1.5]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import time
import urllib.request
from contextlib import ExitStack

import common
import redis
import submission


def timed_get(port: int, path: str) -> tuple[int, float]:
    """One GET's status and milliseconds."""
    begun = time.perf_counter()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as answer:
            status = answer.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, (time.perf_counter() - begun) * 1000


def phase(name: str, site: submission.Site, photo, posts: int, gap: float) -> None:
    """Time `posts` posts and one cacheable page; print the figures."""
    answers, saved = [], 0
    page = timed_get(site.port, f"/blog?category=selling-guides&phase={len(name)}")
    for _ in range(posts):
        post = submission.post_lead(site.port, [photo])
        answers.append(post.answer_ms)
        saved += bool(submission.saved_lead(site.leads_db, post))
        time.sleep(gap)
    print(
        f"{name:<28} posts: median {statistics.median(answers):7.0f} ms, "
        f"max {max(answers):7.0f} ms, saved {saved}/{posts}; "
        f"filtered blog page: {page[0]} in {page[1]:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=12)
    parser.add_argument("--gap", type=float, default=1.5)
    options = parser.parse_args()
    common.exit_on_sigterm()
    [photo] = submission.camera_photos(1)
    with ExitStack() as stack:
        directory = common.work_dir() / "site"
        directory.mkdir()
        leads_db = directory / "leads.db"
        redis_url = submission.start_redis(stack, directory)
        env = common.site_env() | {
            "LEADS_DB": str(leads_db),
            "SELL_RATELIMIT": submission.RATELIMIT,
            "REDIS_URL": redis_url,
        }
        env.pop("RATELIMIT_SINGLE_PROCESS")
        port = common.free_port()
        log = common.results_dir() / "redis-down-site.log"
        command = common.gunicorn_command(common.SITE_APP, port)
        stack.enter_context(common.server(command, log, f"http://127.0.0.1:{port}/sell", env))
        site = submission.Site(port, leads_db, redis_url)
        pid = redis_pid(redis_url)
        phase("Redis up", site, photo, options.posts, options.gap)
        os.kill(pid, signal.SIGSTOP)
        phase("Redis paused (hung)", site, photo, options.posts, options.gap)
        os.kill(pid, signal.SIGCONT)
        phase("Redis up again", site, photo, 3, options.gap)
        redis.Redis.from_url(redis_url).shutdown(nosave=True)
        phase("Redis stopped (refused)", site, photo, options.posts, options.gap)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def redis_pid(url: str) -> int:
    """The redis-server's process id, as it reports it."""
    return redis.Redis.from_url(url).info("server")["process_id"]


if __name__ == "__main__":
    main()
