"""Search metadata: each page's title, description, canonical URL, social card and JSON-LD.

URLs are built from SITE_URL, never from the request's Host header. No rating markup for the
business itself (search engines disallow self-serving reviews; docs/architecture.md,
"Decisions the code relies on").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from flask import current_app
from markupsafe import Markup

from app.pictures.images import image_record, image_url

BUSINESS_HOURS = {
    "@type": "OpeningHoursSpecification",
    "dayOfWeek": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
    "opens": "09:00",
    "closes": "17:00",
}


# Appointments and insured collection reach this far from each listed city's centre (the service
# area of docs/architecture.md's decisions; the city pages say "within 50 miles").
SERVICE_RADIUS_MILES = 50
METRES_PER_MILE = 1609.344


def absolute(path: str) -> str:
    """The full URL of a site path, built from SITE_URL (never the request's Host)."""
    return current_app.config["SITE_URL"].rstrip("/") + path


@dataclass
class PageMeta:
    """One page's search metadata, as partials/seo.html writes it into the head."""

    title: str
    description: str
    path: str
    image: str = "og-default"
    og_type: str = "website"
    noindex: bool = False
    structured_data: list[dict] = field(default_factory=list)
    published: str | None = None

    @property
    def canonical(self) -> str:
        """The page's canonical URL."""
        return absolute(self.path)

    @property
    def image_url(self) -> str:
        """The absolute URL of the page's social-card image."""
        return absolute(image_url(self.image))

    @property
    def image_size(self) -> tuple[int, int]:
        """The social-card image's width and height, for og:image:width and og:image:height."""
        record = image_record(self.image)
        return record["width"], record["height"]

    def json_ld(self) -> Markup:
        """Each block as JSON data, with '<' escaped so no value can end the script element."""
        blocks = []
        for block in self.structured_data:
            data = json.dumps({"@context": "https://schema.org", **block}, ensure_ascii=False)
            data = data.replace("<", "\\u003c")
            blocks.append(f'<script type="application/ld+json">{data}</script>')
        return Markup("\n".join(blocks))


def organization_id() -> str:
    """The @id that ties every JSON-LD block to the one Organization."""
    return absolute("/#organization")


def organization(site: dict) -> dict:
    """The business as a schema.org Organization, for the home page."""
    return {
        "@type": "Organization",
        "@id": organization_id(),
        "name": site["name"],
        "url": absolute("/"),
        "logo": absolute("/static/img/logo.svg"),
        "email": site["email"],
        "telephone": current_app.config["SITE_PHONE_E164"],
        "description": site["tagline"],
        "foundingDate": "2020",
        "areaServed": {"@type": "Country", "name": "United States"},
        "contactPoint": {
            "@type": "ContactPoint",
            "contactType": "sales",
            "telephone": current_app.config["SITE_PHONE_E164"],
            "email": site["email"],
            "areaServed": "US",
            "availableLanguage": "English",
            "hoursAvailable": BUSINESS_HOURS,
        },
    }


def website(site: dict) -> dict:
    """The site as a schema.org WebSite, published by the Organization."""
    return {
        "@type": "WebSite",
        "@id": absolute("/#website"),
        "name": site["name"],
        "url": absolute("/"),
        "publisher": {"@id": organization_id()},
    }


def breadcrumbs(*crumbs: tuple[str, str]) -> dict:
    """BreadcrumbList from (name, path) pairs, starting at Home."""
    items = [("Home", "/"), *crumbs]
    return {
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": index, "name": name, "item": absolute(path)}
            for index, (name, path) in enumerate(items, start=1)
        ],
    }


def faq_page(faqs: list[dict]) -> dict:
    """FAQPage from the page's visible questions and answers (the same words, as the search
    engines ask)."""
    return {
        "@type": "FAQPage",
        "mainEntity": [
            {
                "@type": "Question",
                "name": item["question"],
                "acceptedAnswer": {"@type": "Answer", "text": item["answer"]},
            }
            for item in faqs
        ],
    }


def city_service(city: dict, path: str) -> dict:
    """The one business's service in a city, no address: areaServed is the city itself and the
    circle of SERVICE_RADIUS_MILES around its centre (geoRadius in metres, as schema.org reads
    a bare number)."""
    centre = {
        "@type": "GeoCoordinates",
        "latitude": city["latitude"],
        "longitude": city["longitude"],
    }
    return {
        "@type": "Service",
        "name": f"Sell your luxury watch in {city['city']}, {city['state']}",
        "serviceType": "Pre-owned luxury watch buying",
        "description": city["meta_description"],
        "url": absolute(path),
        "provider": {"@id": organization_id()},
        "areaServed": [
            {
                "@type": "City",
                "name": city["city"],
                "containedInPlace": {"@type": "State", "name": city["state_name"]},
                "geo": centre,
            },
            {
                "@type": "GeoCircle",
                "geoMidpoint": centre,
                "geoRadius": round(SERVICE_RADIUS_MILES * METRES_PER_MILE),
                "description": f"Within {SERVICE_RADIUS_MILES} miles of {city['city']}",
            },
        ],
        "hoursAvailable": BUSINESS_HOURS,
    }


def brand_service(brand: dict, path: str) -> dict:
    """A brand page's schema.org Service: buying that brand across the United States."""
    return {
        "@type": "Service",
        "name": f"Sell your {brand['name']} watch",
        "serviceType": "Pre-owned luxury watch buying",
        "description": brand["schema_description"],
        "brand": {"@type": "Brand", "name": brand["name"]},
        "category": "Luxury watches",
        "url": absolute(path),
        "provider": {"@id": organization_id()},
        "areaServed": {"@type": "Country", "name": "United States"},
    }


def blog_posting(article: dict, site: dict, path: str, image: str) -> dict:
    """An article as a schema.org BlogPosting, published by the site."""
    return {
        "@type": "BlogPosting",
        "headline": article["title"],
        "description": article["excerpt"],
        "image": absolute(image_url(image)),
        "datePublished": article["published"],
        "dateModified": article["published"],
        "author": {"@type": "Organization", "name": article["author"], "url": absolute("/")},
        "publisher": {
            "@type": "Organization",
            "name": site["name"],
            "logo": {"@type": "ImageObject", "url": absolute("/static/img/logo.svg")},
        },
        "articleSection": article["category"],
        "mainEntityOfPage": absolute(path),
        "url": absolute(path),
    }
