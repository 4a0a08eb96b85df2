"""The Flask application: create_app() assembles it from named steps."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from app import errors, queue, staff, status
from app.blog import routes as blog
from app.config import config_class, settings_from_environment, typed_settings
from app.config_checks import check_production_settings, check_secrets
from app.config_derived import derived_settings
from app.content import loader, queries, samples
from app.conversions.cli import conversions_command
from app.extensions import cache, csrf, limiter
from app.forms import rules
from app.health.cli import health_command
from app.leads import db as leads_db
from app.leads import display, handover
from app.leads.cli import leads_command
from app.leads.state import State
from app.pages import routes as pages
from app.payouts import routes as payouts
from app.payouts.cli import payouts_command
from app.pictures import images
from app.pictures.cli import images_command
from app.prices.cli import prices_command
from app.privacy import choice
from app.privacy import routes as privacy
from app.rendering import assets, components, islands, layout, page_cache
from app.rendering.freeze import freeze_command
from app.replica.cli import replication_command
from app.sale import retention
from app.sale.cli import requeue_command, restore_command
from app.sale.purchase import sealing
from app.sale.purchase.cli import purchases_command
from app.security import cross_site, headers
from app.security.logs import hide_link_tokens
from app.sell import routes as sell
from app.shipping import routes as shipping
from app.shipping.cli import shipping_command
from app.staff import routes as staff_routes
from app.staff.cli import staff_command
from app.status import routes as status_routes


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app from the named steps below; security headers last, so they wrap it all."""
    app = Flask(__name__, instance_relative_config=True)
    configure(app, test_config)
    register_extensions(app)
    register_blueprints(app)
    register_template_helpers(app)
    register_commands(app)
    assets.serve_static_files(app)
    # Last: its middleware wraps everything, static files included.
    headers.init_app(app, inline_scripts=(assets.BOOTSTRAP_CSP_HASH,))
    return app


def configure(app: Flask, test_config: dict | None) -> None:
    """Class defaults, then instance/config.py, then the environment, then test overrides;
    then typed, its secrets checked, and completed once. Nothing changes the config after
    this."""
    defaults = config_class((test_config or {}).get("ENV_NAME"))
    app.config.from_object(defaults)
    app.config.from_pyfile("config.py", silent=True)
    app.config.update(settings_from_environment())
    app.config.update(test_config or {})
    app.config.update(typed_settings(app.config))
    check_secrets(app.config)
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.update(derived_settings(app.config, instance))
    if app.config["ENV_NAME"] == "production":
        check_production_settings(app.config)
        images.refuse_draft_pictures(images.art_manifest(app))


def register_extensions(app: Flask) -> None:
    """Bind leads.db, cache, rate limits, cross-site and CSRF checks, job queue, the daily
    retention check, the purchase data sealed to its place, and page cache; close content.db."""
    leads_db.init_app(app)
    cache.init_app(app)
    limiter.init_app(app)
    cross_site.init_app(app)
    csrf.init_app(app)
    queue.init_app(app)
    retention.init_app(app)
    sealing.init_app(app)
    app.teardown_appcontext(queries.close_connection)
    page_cache.register(app)


def register_blueprints(app: Flask) -> None:
    """Every page family's routes, each named here (no route exists by an import's side
    effect), then the hooks of the two private areas."""
    blueprints = (
        pages.bp,
        blog.bp,
        sell.bp,
        privacy.bp,
        staff_routes.bp,
        status_routes.bp,
        shipping.bp,
        payouts.bp,
        errors.bp,
    )
    for blueprint in blueprints:
        app.register_blueprint(blueprint)
    errors.init_app(app)
    app.after_request(choice.without_ads_for_opted_out)
    staff.init_app(app)
    status.init_app(app)
    hide_link_tokens()


def register_template_helpers(app: Flask) -> None:
    """What templates can use: islands, stylesheets, pictures, icons, the lead states (`State`),
    a form control's attributes from its rules, a stored time's local day (`local_day`),
    `shown`, a lead's `handover`, layout context."""
    app.jinja_env.globals.update(
        island=islands.island,
        island_scripts=assets.island_scripts,
        stylesheet_url=assets.stylesheet_url,
        picture=components.picture,
        post_card=components.post_card,
        instant_range=components.instant_range,
        icon=components.icon,
    )
    app.jinja_env.globals["State"] = State
    app.jinja_env.globals["control_attributes"] = rules.html_attributes
    app.jinja_env.globals["local_day"] = display.local_day
    app.jinja_env.filters["shown"] = samples.shown
    app.jinja_env.filters["handover"] = handover.described
    app.jinja_env.tests["shown"] = samples.is_shown
    app.context_processor(layout.layout_context)


def register_commands(app: Flask) -> None:
    """The `flask` commands: seed, images, content, freeze, leads, staff, conversions and
    purchases."""
    app.cli.add_command(loader.seed_command)
    app.cli.add_command(images_command)
    app.cli.add_command(samples.content_command)
    app.cli.add_command(freeze_command)
    app.cli.add_command(shipping_command)
    app.cli.add_command(payouts_command)
    leads_command.add_command(requeue_command)
    leads_command.add_command(restore_command)
    leads_command.add_command(replication_command)
    leads_command.add_command(health_command)
    app.cli.add_command(leads_command)
    app.cli.add_command(prices_command)
    app.cli.add_command(staff_command)
    app.cli.add_command(conversions_command)
    app.cli.add_command(purchases_command)
