"""Background work for each lead: photos, the staff e-mail, server-side conversion events.

The jobs live in `worker.jobs`; the web app queues them by name through `app.queue` and never
imports this package. `flask --app app rq worker --with-scheduler` runs them with Redis;
without it, `app.queue` runs them in-process.
"""
