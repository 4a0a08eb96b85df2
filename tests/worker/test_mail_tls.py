"""E-mail leaves only over STARTTLS to a relay whose certificate checks out: a machine in the
middle would read every status link, every seller's details and SMTP_PASSWORD."""

from __future__ import annotations

import ssl
from email.message import EmailMessage

import pytest
import trustme
from aiosmtpd.controller import Controller

from tests.helpers import SmtpInbox, free_port
from worker.mail import deliver


def relay(tls_context) -> tuple[SmtpInbox, Controller]:
    inbox = SmtpInbox("127.0.0.1", free_port())

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            inbox.messages.append(envelope.content)
            return "250 OK"

    controller = Controller(Handler(), hostname=inbox.host, port=inbox.port,
                            tls_context=tls_context)  # fmt: skip
    controller.start()
    return inbox, controller


@pytest.fixture
def ca(tmp_path):
    authority = trustme.CA()
    authority.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    return authority


def server_context(authority, *names) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert(*names).configure_cert(context)
    return context


def message() -> EmailMessage:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "a@example.com", "b@example.com", "Hello"
    mail.set_content("A status link would be here.")
    return mail


def send(make_app, inbox) -> None:
    app = make_app(SMTP_HOST=inbox.host, SMTP_PORT=str(inbox.port), SMTP_USE_TLS="1")
    with app.app_context():
        deliver(message())


def test_mail_is_refused_to_a_relay_whose_certificate_no_trusted_ca_signed(make_app, ca):
    inbox, controller = relay(server_context(ca, "127.0.0.1"))  # ca is not in the trust store
    try:
        with pytest.raises(ssl.SSLCertVerificationError):
            send(make_app, inbox)
    finally:
        controller.stop()
    assert inbox.messages == []


def test_mail_is_refused_to_a_relay_whose_certificate_names_another_host(
    make_app, ca, tmp_path, monkeypatch
):
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "ca.pem"))
    inbox, controller = relay(server_context(ca, "smtp.elsewhere.example"))
    try:
        with pytest.raises(ssl.SSLCertVerificationError):
            send(make_app, inbox)
    finally:
        controller.stop()
    assert inbox.messages == []


def test_mail_is_refused_when_the_relay_offers_no_starttls(make_app):
    inbox, controller = relay(None)
    try:
        with pytest.raises(Exception, match="STARTTLS"):
            send(make_app, inbox)
    finally:
        controller.stop()
    assert inbox.messages == []


def test_mail_goes_to_a_relay_with_a_trusted_certificate(make_app, ca, tmp_path, monkeypatch):
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "ca.pem"))  # read by OpenSSL, as in prod
    inbox, controller = relay(server_context(ca, "127.0.0.1"))
    try:
        send(make_app, inbox)
    finally:
        controller.stop()
    assert len(inbox.messages) == 1
