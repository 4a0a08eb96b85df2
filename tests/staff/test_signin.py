"""Signing in: password, then a TOTP or recovery code; the leads page behind both factors."""


def test_enrolled_account_signs_in_with_password_and_code_and_sees_leads(
    staff, account, app, add_lead
):
    add_lead(full_name="Grace <b>Hopper</b>")
    client = app.test_client()
    response = staff.sign_in(client, account)
    assert response.headers["Location"] == "/staff/leads"
    page = client.get("/staff/leads")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Grace &lt;b&gt;Hopper&lt;/b&gt;" in html
    assert "Submariner 126610LN" in html
    assert page.headers["Cache-Control"] == "no-store"
    assert "noindex" in page.headers["X-Robots-Tag"]
    assert '<meta name="robots" content="noindex, nofollow">' in html


def test_staff_redirects_to_the_leads_page(staff, account, app):
    client = app.test_client()
    staff.sign_in(client, account)
    assert client.get("/staff").headers["Location"] == "/staff/leads"


def test_password_alone_does_not_open_the_leads_page(staff, account, app):
    client = app.test_client()
    assert staff.password_step(client, account).headers["Location"] == "/staff/login/code"
    response = client.get("/staff/leads")
    assert response.status_code == 303
    assert response.headers["Location"] == "/staff/login"
