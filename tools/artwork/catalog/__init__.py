"""The site's illustrations: one entry per image, each with a function that paints it.

From the bottom up: recipes (the watches shown, and one placed in a scene), showcase (the hero,
the preview image, the brands' and the purchases' pictures), maps and editorial (the articles'
props), articles and authentication. Each module imports only draw/ and those before it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from tools.artwork.catalog.articles import (
    art_best_places_patek,
    art_complete_guide_rolex,
    art_grading,
    art_market_usa,
    art_patek_vs_ap,
    art_speedmaster,
    art_trends,
    art_where_to_sell,
)
from tools.artwork.catalog.authentication import auth_inspection
from tools.artwork.catalog.showcase import (
    PURCHASE_BACKGROUNDS,
    PURCHASE_TILTS,
    PURCHASES,
    brand_ap,
    brand_cartier,
    brand_journe,
    brand_patek,
    brand_rm,
    brand_rolex,
    brand_vc,
    flatlay,
    hero_watch,
    og_default,
)
from tools.artwork.draw.surface import Canvas


@dataclass(frozen=True)
class Art:
    """One picture: its name (its master's file name stem), natural size and painter."""

    name: str
    width: int
    height: int
    paint: Callable[[Canvas], None]

    def render(self) -> Image.Image:
        cv = Canvas(self.width, self.height)
        self.paint(cv)
        return cv.finish()


CATALOG: tuple[Art, ...] = (
    Art("hero-watch", 1200, 800, hero_watch),
    Art("brand-rolex", 1200, 800, brand_rolex),
    Art("brand-patek-philippe", 1200, 800, brand_patek),
    Art("brand-audemars-piguet", 1200, 800, brand_ap),
    Art("brand-richard-mille", 1200, 800, brand_rm),
    Art("brand-vacheron-constantin", 1200, 800, brand_vc),
    Art("brand-fp-journe", 1200, 800, brand_journe),
    Art("brand-cartier", 1200, 800, brand_cartier),
    Art("auth-inspection", 1200, 800, auth_inspection),
    *(
        Art(f"purchase-{i + 1}", 800, 800, flatlay(w, bg, tilt))
        for i, (w, bg, tilt) in enumerate(
            zip(PURCHASES, PURCHASE_BACKGROUNDS, PURCHASE_TILTS, strict=True)
        )
    ),
    Art("article-where-to-sell-rolex-usa-2025-guide", 1200, 630, art_where_to_sell),
    Art("article-complete-guide-selling-rolex-usa", 1200, 630, art_complete_guide_rolex),
    Art("article-luxury-watch-market-usa", 1200, 630, art_market_usa),
    Art("article-authenticate-vintage-omega-speedmaster", 1200, 630, art_speedmaster),
    Art("article-patek-philippe-vs-audemars-piguet-investment", 1200, 630, art_patek_vs_ap),
    Art("article-watch-market-trends-usa-2025", 1200, 630, art_trends),
    Art("article-complete-guide-watch-condition-grading", 1200, 630, art_grading),
    Art(
        "article-best-places-sell-patek-philippe-usa-2025",
        1200,
        630,
        art_best_places_patek,
    ),
    Art("og-default", 1200, 630, og_default),
)
