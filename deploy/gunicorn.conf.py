"""Production gunicorn settings, sized for a 2-core machine.

Run: gunicorn -c deploy/gunicorn.conf.py "app:create_app()"

One worker per core: a cached page is answered by Python code that only needs CPU, so more
processes than cores add context switches and tail latency (bench/load.py on 2 cores: 4 workers
x 4 threads gave 8,500-9,800 requests/s with p99 16-24 ms; 2 x 4 gave 10,000-11,800 with p99
8-14 ms). Threads cover the waits: a slow upload, SQLite, Redis, SMTP in tests. Behind the
documented nginx front, request bodies are buffered by nginx, so an upload holds a thread only
while it is written to disk.

The app is loaded before forking (shared memory, faster start); each worker creates its own V8
context for islands lazily, on first use, so nothing V8-related crosses a fork.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", 4))
# Each worker listens on its own SO_REUSEPORT socket and the kernel spreads new connections
# across them. On one shared socket, whichever worker woke first could take every keep-alive
# connection of a burst and leave the other core idle: 1 run in 4 dropped to 2,500 requests/s.
# The flip side: a second gunicorn started by the same user on the same port binds as well and
# takes a share of the traffic instead of failing, so stop the old one before starting a new one.
reuse_port = True
preload_app = True
keepalive = 5
timeout = 120  # a phone on a weak connection may take a while to send ten photos
graceful_timeout = 30
# Workers are not recycled: a new worker starts with an empty page cache and no V8 context,
# which showed as p99 spikes under load (bench/run). Memory stays bounded: the V8 context and
# the island memo are fixed-size, SimpleCache keeps at most 500 pages.
max_requests = 0
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
# As nginx's log_format: the path without its query string (staff searches hold names and phone
# numbers) and no Referer (an enrolment link travels in it); app/security/logs.py hides tokens.
access_log_format = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(B)s %(M)sms "%(a)s"'
errorlog = "-"
