"""Extension singletons, bound to the app in create_app()."""

from flask_caching import Cache
from flask_limiter import Limiter
from flask_wtf import CSRFProtect

from app.job_worker import ForkingRQ
from app.security.client import rate_limit_address

cache = Cache()
csrf = CSRFProtect()
rq = ForkingRQ()  # bound only when REDIS_URL is set (app.queue.init_app); app/job_worker.py
# Request limits per client (an IPv6 client by its /64, app/security/client.py): the sell form,
# the status page's forms (those also per lead, app/status/limits.py). Its storage is
# RATELIMIT_STORAGE_URI (Redis when REDIS_URL is set, app/config.py). A Redis outage must never
# turn a seller away nor switch the limits off: it counts in memory until Redis is back, and any
# other storage error is swallowed. Limits are callables, so each app reads its own settings.
LIMITS_KEY_PREFIX = "limits"  # the start of every counter's key in the limiter's storage
limiter = Limiter(
    key_func=rate_limit_address,
    key_prefix=LIMITS_KEY_PREFIX,
    swallow_errors=True,
    in_memory_fallback_enabled=True,
)
