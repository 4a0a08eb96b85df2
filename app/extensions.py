"""Extension singletons, bound to the app in create_app()."""

from flask_caching import Cache
from flask_limiter import Limiter
from flask_rq import RQ
from flask_wtf import CSRFProtect

from app.security.client import client_address

cache = Cache()
csrf = CSRFProtect()
rq = RQ()  # bound only when REDIS_URL is set (app.queue.init_app)
# Request limits per client address: the sell form, the status page's forms. Its storage is
# RATELIMIT_STORAGE_URI (Redis when REDIS_URL is set, app/config.py). A Redis outage must never
# turn a seller away nor switch the limits off: it counts in memory until Redis is back, and any
# other storage error is swallowed. Limits are callables, so each app reads its own settings.
limiter = Limiter(
    key_func=client_address,
    key_prefix="limits",
    swallow_errors=True,
    in_memory_fallback_enabled=True,
)
