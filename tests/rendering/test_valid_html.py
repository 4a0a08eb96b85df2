"""The pages are valid HTML by the W3C's own checker (the Nu checker behind
validator.w3.org/nu, vnu.jar from the vnu-jar npm package, run on Java): one of each kind of
page and the not-found page, checked in one run, as one JVM start takes most of its time."""

from __future__ import annotations

import json
import shutil
import subprocess

from tests.helpers import ROOT

VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
# One short run: the quick compiler alone and the serial collector take about 2 s of CPU where
# the defaults take 4.5 s; the quick compiler's deeper frames need a larger stack than the
# checker's 512k.
JAVA_OPTIONS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss16m"]
PAGES = {
    "home": "/",
    "sell": "/sell",
    "blog": "/blog",
    "post": "/blog/luxury-watch-market-usa",
    "brand": "/sell-rolex-watch",
    "city": "/sell-watch-new-york",
    "authentication": "/watch-authentication",
    "terms": "/terms",
    "privacy": "/privacy",
    "not-found": "/no-such-page",
}


def checker_messages(files: list) -> list[dict]:
    """What the Nu checker says of `files`, in its JSON report (errors, and infos that may be
    warnings), each message naming its file's URL."""
    java = shutil.which("java")
    assert java, "Java is missing: bin/setup installs default-jre-headless"
    options = ["--format", "json", "--stdout", "--exit-zero-always"]
    report = subprocess.run(
        [java, *JAVA_OPTIONS, "-jar", VNU, *options, *files],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(report.stdout)["messages"]


def test_every_kind_of_page_has_no_html_error(client, tmp_path):
    files = {}
    for name, path in PAGES.items():
        response = client.get(path)
        assert response.status_code == (404 if name == "not-found" else 200), path
        files[f"{name}.html"] = path
        (tmp_path / f"{name}.html").write_bytes(response.get_data())
    errors = [
        f"{files[message['url'].rsplit('/', 1)[-1]]} line {message.get('lastLine', '?')}: "
        f"{message['message']}"
        for message in checker_messages([tmp_path / name for name in files])
        if message["type"] in ("error", "non-document-error")
    ]
    assert not errors, "\n".join(errors)
