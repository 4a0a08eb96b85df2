"""Extension singletons, bound to the app in create_app()."""

from flask_caching import Cache
from flask_wtf import CSRFProtect

cache = Cache()
csrf = CSRFProtect()
