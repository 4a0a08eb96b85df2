"""Sample content and placeholders: what pages may show, and `flask content check`.

A new site needs testimonials, recent purchases and a rating line before it has real ones, but
made-up reviews must never reach the public (the FTC's 2024 rule on fake reviews and
testimonials). Such items carry `sample = true` in content/. The database keeps the flag;
templates pass lists through the `shown` filter (and single items through the `shown` test),
which drops samples unless SHOW_SAMPLE_CONTENT is on: on in development and testing, off in
production unless set explicitly. Placeholder contact details are refused at production start-up
(app/config.py); this module also finds them written literally in content/.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import click
from flask import current_app
from flask.cli import with_appcontext

from app.config_checks import is_example_email, is_fictional_phone, placeholder_contacts
from app.content import queries

SAMPLE_KEY = "sample"
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*")
PHONE = re.compile(r"(?:(?:\+?1[-.\s]?)?\(?\d{3}\)?[-.\s]?)?\b\d{3}[-.\s]?\d{4}\b")
DESCRIBED_BY = ("name", "location", "title", "text")


def samples_shown() -> bool:
    """Whether this app shows sample content (SHOW_SAMPLE_CONTENT)."""
    return bool(current_app.config["SHOW_SAMPLE_CONTENT"])


def is_sample(item) -> bool:
    """Whether the item is marked `sample = true` in content/."""
    return isinstance(item, dict) and bool(item.get(SAMPLE_KEY))


def is_shown(item) -> bool:
    """The template test `is shown`: a real item, or a sample where samples are allowed."""
    return item is not None and (not is_sample(item) or samples_shown())


def shown(items) -> list:
    """The template filter `|shown`: the items a page may show (empty: hide the section)."""
    return [item for item in items or () if is_shown(item)]


@dataclass(frozen=True)
class Finding:
    """A sample or placeholder found by `flask content check`, and whether pages show it."""

    kind: str  # "sample" or "placeholder"
    where: str  # file and key path, or the setting's name
    what: str
    shown: bool

    def line(self) -> str:
        """The finding as one aligned line of the check's report."""
        state = "shown" if self.shown else "hidden"
        return f"{self.kind:<12} {state:<7} {self.where}: {self.what}"


def describe(item: dict) -> str:
    """A sample in a few words: a testimonial's name and place, a purchase's title, a text."""
    parts = [str(item[key]) for key in DESCRIBED_BY if item.get(key)]
    summary = ", ".join(parts[:2])
    return summary if len(summary) <= 90 else summary[:87] + "..."


def walk(value, path: str = "", in_sample: bool = False) -> Iterator[tuple[str, object, bool]]:
    """Every value in a document with its key path and whether it sits inside a sample."""
    yield path, value, in_sample
    if isinstance(value, dict):
        inside = in_sample or is_sample(value)
        for key, item in value.items():
            yield from walk(item, f"{path}.{key}" if path else key, inside)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, f"{path}[{index}]", in_sample)


def placeholders_in(text: str) -> list[str]:
    """E-mail addresses on example domains and 555-01xx numbers written into a text."""
    emails = [found for found in EMAIL.findall(text) if is_example_email(found)]
    phones = [found.strip() for found in PHONE.findall(text) if is_fictional_phone(found)]
    return emails + phones


def content_files(content_dir: Path) -> list[Path]:
    """Every TOML document and HTML article under content_dir, the TOML files first."""
    return sorted(content_dir.rglob("*.toml")) + sorted(content_dir.rglob("*.html"))


def read_document(path: Path):
    """A content file as data: TOML as parsed, an article as its whole text (front matter too)."""
    text = path.read_text(encoding="utf-8")
    return tomllib.loads(text) if path.suffix == ".toml" else text


def content_findings(content_dir: Path, show_samples: bool) -> list[Finding]:
    """Samples, and placeholders written literally, in the files of content/."""
    findings = []
    for path in content_files(content_dir):
        name = path.relative_to(content_dir).as_posix()
        for key_path, value, in_sample in walk(read_document(path)):
            where = f"{name} {key_path}".strip()
            if is_sample(value):
                findings.append(Finding("sample", where, describe(value), show_samples))
            elif isinstance(value, str):
                visible = show_samples or not in_sample
                findings += [
                    Finding("placeholder", where, found, visible)
                    for found in placeholders_in(value)
                ]
    return findings


def database_findings(show_samples: bool) -> list[Finding]:
    """Placeholders in what pages actually read: a database seeded with the development
    contacts holds their e-mail and number wherever content/ wrote {email} or {phone}."""
    counts: Counter[str] = Counter()
    for rows in queries.every_row().values():
        for _path, value, in_sample in walk(rows):
            if isinstance(value, str) and (show_samples or not in_sample):
                counts.update(placeholders_in(value))
    where = Path(current_app.config["CONTENT_DB"]).name
    return [
        Finding(
            "placeholder",
            where,
            f"{found} in {count} texts (re-run `flask seed` with the real contact settings)",
            True,
        )
        for found, count in counts.items()
    ]


def is_placeholder_profile(url: str) -> bool:
    """A social network's front page rather than the business's own profile on it."""
    return urlsplit(url).path.strip("/") == ""


def settings_findings(config, recent_purchases_shown: bool) -> list[Finding]:
    """Placeholder contact settings (shown on every page) and a social link with no profile
    (shown only where the recent purchases link to it)."""
    findings = [
        Finding("placeholder", name, f"{value} (reserved for examples; reaches nobody)", True)
        for name, value in placeholder_contacts(config).items()
    ]
    url = config.get("SOCIAL_PROFILE_URL", "")
    if is_placeholder_profile(url):
        findings.append(
            Finding(
                "placeholder",
                "SOCIAL_PROFILE_URL",
                f"{url} (a front page, not a profile; the recent purchases link to it)",
                recent_purchases_shown,
            )
        )
    return findings


def recent_purchases_shown(content_dir: Path, show_samples: bool) -> bool:
    """Whether the home page shows any recent purchase (those link to SOCIAL_PROFILE_URL)."""
    home = read_document(content_dir / "home.toml")
    items = home.get("recent_purchases", {}).get("items", [])
    return any(show_samples or not is_sample(item) for item in items)


def find_all(config) -> list[Finding]:
    """Every sample and placeholder the site holds, each marked shown or hidden under `config`."""
    content_dir = Path(config["CONTENT_DIR"])
    show_samples = bool(config["SHOW_SAMPLE_CONTENT"])
    return (
        content_findings(content_dir, show_samples)
        + settings_findings(config, recent_purchases_shown(content_dir, show_samples))
        + database_findings(show_samples)
    )


def summary(findings: list[Finding], config) -> str:
    """The check's last line: samples and placeholders counted, and how many are shown."""
    samples = sum(finding.kind == "sample" for finding in findings)
    placeholders = len(findings) - samples
    visible = sum(finding.shown for finding in findings)
    setting = "on" if config["SHOW_SAMPLE_CONTENT"] else "off"
    return (
        f"{counted(samples, 'sample')} and {counted(placeholders, 'placeholder')}; {visible} "
        f"shown with APP_ENV={config['ENV_NAME']} and SHOW_SAMPLE_CONTENT {setting}."
    )


def counted(number: int, noun: str) -> str:
    """The number and the noun, plural unless the number is one."""
    return f"{number} {noun}" + ("" if number == 1 else "s")


@click.group("content")
def content_command() -> None:
    """Inspect the site's content."""


@content_command.command("check")
@with_appcontext
def check_command() -> None:
    """List every sample and placeholder; in production, fail when any would be shown."""
    config = current_app.config
    findings = find_all(config)
    for finding in findings:
        click.echo(finding.line())
    click.echo(summary(findings, config))
    if config["ENV_NAME"] == "production" and any(finding.shown for finding in findings):
        raise click.ClickException(
            "production would show the items marked shown above: replace them with real "
            "content, or turn SHOW_SAMPLE_CONTENT off."
        )
