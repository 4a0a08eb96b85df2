"""Extension singletons, bound to the app in create_app()."""

from flask_caching import Cache
from flask_rq import RQ
from flask_wtf import CSRFProtect

cache = Cache()
csrf = CSRFProtect()
rq = RQ()  # bound only when REDIS_URL is set (app.queue.init_app)
