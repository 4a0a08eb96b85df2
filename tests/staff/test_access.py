"""Attack tests on the staff area's doors: every staff URL without a full aal2 session, every
staff POST without a CSRF token, and how staff pages are kept out of caches and search."""

import pytest

from tests.helpers import form_token

SECRET_NAME = "Zebulon Quartermaine"


def staff_rules(app, method: str) -> list[str]:
    """Every staff URL answering `method`, with sample values for its parts."""
    paths = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/staff") and method in rule.methods:
            values = {name: "1" for name in rule.arguments}
            paths.append((rule.endpoint, rule.build(values, append_unknown=False)[1]))
    return paths


def protected(app, method):
    public = {"staff.login", "staff.login_code", "staff.enrol", "staff.logout"}
    return [path for endpoint, path in staff_rules(app, method) if endpoint not in public]


def test_the_probe_covers_the_staff_pages(app):
    paths = protected(app, "GET")
    assert {"/staff", "/staff/leads", "/staff/account", "/staff/confirm"} <= set(paths)


def refused_without_data(response) -> None:
    assert response.status_code == 303
    assert response.headers["Location"] == "/staff/login"
    assert SECRET_NAME not in response.get_data(as_text=True)
    assert "staff" not in response.headers.get("Set-Cookie", "").split("=")[0]


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_every_staff_url_without_a_session_is_refused(staff, app, add_lead, method):
    add_lead(full_name=SECRET_NAME)
    client = app.test_client()
    client.get("/staff/login")  # a CSRF token in the session, so POSTs reach the guard
    token = form_token(client.get("/staff/login").get_data(as_text=True))
    for path in protected(app, method):
        response = client.open(path, method=method, data={"csrf_token": token})
        refused_without_data(response)


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_every_staff_url_with_only_the_password_step_is_refused(
    staff, account, app, add_lead, method
):
    add_lead(full_name=SECRET_NAME)
    client = app.test_client()
    assert staff.password_step(client, account).status_code == 303
    token = form_token(client.get("/staff/login/code").get_data(as_text=True))
    for path in protected(app, method):
        refused_without_data(client.open(path, method=method, data={"csrf_token": token}))


def test_a_forged_session_cookie_is_refused(app, add_lead):
    add_lead(full_name=SECRET_NAME)
    client = app.test_client()
    client.set_cookie("staff", "made-up-session-id")
    refused_without_data(client.get("/staff/leads"))


def test_every_staff_post_without_a_csrf_token_is_refused(staff, account, app):
    client = app.test_client()
    staff.sign_in(client, account)
    paths = [path for _endpoint, path in staff_rules(app, "POST")]
    assert "/staff/logout" in paths and "/staff/login" in paths
    for path in paths:
        response = client.post(
            path, data={"email": account.email, "password": account.password, "code": "123456"}
        )
        assert response.status_code == 400, path
        assert "This form has expired" in response.get_data(as_text=True)
    assert client.get("/staff/leads").status_code == 200  # nothing was done: still signed in


def test_staff_pages_are_never_stored_in_the_page_cache(staff, account, app):
    client = app.test_client()
    staff.sign_in(client, account)
    client.get("/staff/leads")
    other = app.test_client()
    response = other.get("/staff/leads")
    assert response.status_code == 303


def test_robots_disallows_staff_and_sitemap_leaves_it_out(client):
    assert "Disallow: /staff\n" in client.get("/robots.txt").get_data(as_text=True)
    assert "/staff" not in client.get("/sitemap.xml").get_data(as_text=True)


def test_sign_in_pages_are_not_indexed_or_stored(client):
    response = client.get("/staff/login")
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
