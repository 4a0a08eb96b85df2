"""Components React renders once on the server for templates, with no script of their own:
pictures, icons, article cards and the guide's range (the `picture`, `icon`, `post_card` and
`instant_range` template helpers)."""

from __future__ import annotations

from markupsafe import Markup

from app.pictures.images import picture_props
from app.rendering.islands import render_static


def picture(name: str, alt: str, sizes: str = "100vw", priority: bool = False, class_: str = ""):
    """Jinja: `{{ picture("hero-watch", alt, sizes, priority=True, class_="aspect-[3/2]") }}`."""
    return Markup(render_static("Picture", picture_props(name, alt, sizes, priority, class_)))


def icon(name: str, class_: str = "h-5 w-5") -> Markup:
    """Jinja: an icon from components/shared/icons.jsx, decorative (aria-hidden)."""
    return render_static("Icon", {"name": name, "className": class_})


def instant_range(shown: dict | None) -> Markup:
    """Jinja: the guide's range a seller was shown (InstantRange.jsx), or nothing."""
    return render_static("InstantRange", {"range": shown}) if shown else Markup("")


def post_card(post: dict) -> Markup:
    """Jinja: an article card (PostCard.jsx) as static markup."""
    return render_static("PostCard", {"post": post})
