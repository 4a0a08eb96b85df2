"""Production gunicorn settings, sized for a 2-core machine.

Run: gunicorn -c deploy/gunicorn.conf.py "app:create_app()"

Threaded workers keep connections alive and let a slow upload occupy a thread, not a whole
process. The app is loaded before forking (shared memory, faster start); each worker creates its
own V8 context for islands lazily, on first use, so nothing V8-related crosses a fork.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", 4))
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
errorlog = "-"
