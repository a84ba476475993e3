"""An unexpected exception: logged without the request's data, answered with a generic 500
JSON body that leaks no stack trace; request bodies are never logged or written to disk."""

from __future__ import annotations

import logging

from workbench.web import create_app

SECRET = "sk-very-secret-document-content-4242"


def test_unexpected_exception_is_a_generic_500_without_data(caplog):
    app = create_app()

    def boom():
        raise ValueError(f"bad thing with {SECRET}")

    app.add_url_rule("/api/boom", "boom", boom, methods=["POST"])
    client = app.test_client()
    with caplog.at_level(logging.ERROR, logger="workbench"):
        r = client.post("/api/boom", json={"text": SECRET})
    assert r.status_code == 500
    body = r.get_json()
    assert body["error"]["code"] == "internal_error"
    assert "Traceback" not in r.get_data(as_text=True) and SECRET not in r.get_data(as_text=True)
    logged = "\n".join(rec.getMessage() for rec in caplog.records)
    assert "ValueError" in logged and "boom" in logged  # the developer learns what and where
    assert SECRET not in logged  # but not the data


def test_request_bodies_stay_in_memory():
    # waitress spools a body larger than inbuf_overflow to a temporary file: ours never does
    from workbench.cli.serve import make_server
    from workbench.limits import Limits
    limits = Limits(max_body=1000)
    server = make_server(create_app(limits), "127.0.0.1", 0, limits)
    try:
        assert server.adj.inbuf_overflow >= server.adj.max_request_body_size >= limits.max_body
        # and an answer larger than outbuf_overflow (1 MB by default) to another: ours never does
        assert server.adj.outbuf_overflow >= 1 << 60
    finally:
        server.close()
