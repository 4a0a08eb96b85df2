"""Secret link tokens never reach a log, whichever logger writes the line."""

from __future__ import annotations

import logging

import pytest

from app.leads.reference import new_status_token

TOKEN_PATHS = ["/status/{}/question", "/status/erasure/{}", "/staff/enrol/{}"]


@pytest.mark.parametrize("path", TOKEN_PATHS)
def test_an_exception_on_a_token_path_is_logged_without_the_token(make_app, caplog, path):
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    token = new_status_token()

    def explode(**_kwargs):
        raise RuntimeError("a bug")

    app.add_url_rule(path.format("<token>") + "/explode", "explode", explode)
    caplog.set_level(logging.INFO)

    response = app.test_client().get(path.format(token) + "/explode")

    assert response.status_code == 500
    assert "Exception on" in caplog.text and "[token hidden]" in caplog.text
    assert token not in caplog.text


def test_any_logger_has_tokens_hidden_in_its_message_and_arguments(app, caplog):
    token = new_status_token()
    caplog.set_level(logging.INFO)

    logging.getLogger("anything.at.all").warning("odd request to %s", f"/status/{token}")
    logging.getLogger("gunicorn.error").error(f"Error handling /staff/enrol/{token}?x=1")

    assert token not in caplog.text
    assert caplog.text.count("[token hidden]") == 2
