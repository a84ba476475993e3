"""The WSGI server (waitress) as the workbench runs it: bodies and answers held in memory, never in a
file; a body over the limit refused from its ``Content-Length`` before it is read (a chunked one
as it passes the limit); every refusal waitress makes itself (413, 400, 431, 501) the same JSON
error body, with the same security headers, as the app's.

Waitress writes a body larger than ``inbuf_overflow`` and an answer larger than
``outbuf_overflow`` (1 MB by default) to an unlinked temporary file; both are set to the body
limit and beyond any answer here.  Werkzeug spools a form's file parts over 500 kB to a file:
:class:`InMemoryRequest` keeps them in memory.
"""

from __future__ import annotations

import io
import socket
import sys
import time
from functools import partial

from flask import Request
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import BaseWSGIServer, create_server
from waitress.task import ErrorTask
from waitress.utilities import RequestEntityTooLarge

from ..jsontext import dumps_value
from ..limits import REFUSED_BODY_LINGER, Limits
from .routes import HTTP_CODES, error_document, too_large
from .security import SECURITY_HEADERS


class InMemoryRequest(Request):
    """A Flask request whose form file parts stay in memory (the body is in memory already)."""

    def _get_file_stream(self, total_content_length, content_type, filename=None, content_length=None):
        return io.BytesIO()


class _Parser(HTTPRequestParser):
    """Waitress's parser; a request refused as too large takes the rest of what was read with it
    and tells its channel how much more of the body to read and drop."""

    def __init__(self, adj, channel):
        super().__init__(adj)
        self.channel = channel

    def received(self, data):
        consumed = super().received(data)
        if self.completed and isinstance(self.error, RequestEntityTooLarge):
            self.expect_continue = False  # never invite the body refused
            self.channel.drop_refused_body(
                None if self.chunked else self.content_length - self.body_bytes_received
                - (len(data) - consumed))
            return len(data)
        return consumed


class _ErrorTask(ErrorTask):
    """Waitress's own refusals, answered as the app answers its own."""

    def execute(self):
        error = self.request.error
        limit = self.channel.adj.max_request_body_size - 1
        body = too_large(limit) if isinstance(error, RequestEntityTooLarge) else {
            "code": HTTP_CODES.get(error.code, "http_error"), "message": f"{error.reason}: {error.body}"}
        document, mimetype = error_document(body, error.code, self.request.headers.get("ACCEPT"))
        data = dumps_value(document)
        self.status = f"{error.code} {error.reason}"
        self.response_headers.extend([("Content-Type", mimetype), ("Cache-Control", "no-store"),
                                      *SECURITY_HEADERS.items()])
        self.set_close_on_finish()
        self.content_length = len(data)
        self.write(data)


class _Channel(HTTPChannel):
    """A connection.  After refusing a body it closes its sending side and reads and drops the
    rest of the body (at most :data:`REFUSED_BODY_LINGER` seconds) before it closes: closing with
    unread bytes would reset the connection and lose the answer for a client that sends its
    whole body before reading (urllib, most scripts)."""

    error_task_class = _ErrorTask
    to_drop: int | None = 0  # bytes of a refused body still to come (None: until the client stops)
    lingering = False
    linger_until = 0.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.parser_class = partial(_Parser, channel=self)

    def drop_refused_body(self, remaining: int | None) -> None:
        self.to_drop = remaining if remaining is None else max(remaining, 0)

    def handle_close(self):
        if self.to_drop != 0 and self.connected and not self.lingering:
            try:
                self.socket.shutdown(socket.SHUT_WR)  # the answer is sent: the client sees its end
            except OSError:
                pass
            else:
                self.lingering, self.linger_until = True, time.monotonic() + REFUSED_BODY_LINGER
                return
        self.lingering, self.to_drop = False, 0
        super().handle_close()

    def readable(self):
        return True if self.lingering else super().readable()

    def writable(self):
        # while lingering there is nothing to write; "writable" once the time is up, to close
        return time.monotonic() > self.linger_until if self.lingering else super().writable()

    def handle_write(self):
        if self.lingering:
            return self.handle_close()
        return super().handle_write()

    def handle_read(self):
        if not self.lingering:
            return super().handle_read()
        try:
            data = self.recv(self.adj.recv_bytes)  # an empty read has closed the channel
        except OSError:
            return self.handle_close()
        if not self.lingering:
            return
        if self.to_drop is not None:
            self.to_drop -= len(data)
        if (self.to_drop is not None and self.to_drop <= 0) or time.monotonic() > self.linger_until:
            self.handle_close()


def make_server(app, host: str, port: int, limits: Limits, threads: int = 8):
    """The waitress server for ``app``: bodies up to ``limits.max_body`` (in memory), answers of
    any size (in memory), refusals as JSON."""
    sockets: dict = {}
    server = create_server(app, map=sockets, host=host, port=port, threads=threads,
                           max_request_body_size=limits.max_body + 1,  # waitress refuses at >=
                           inbuf_overflow=limits.max_body + 1, outbuf_overflow=sys.maxsize,
                           recv_bytes=256 * 1024,  # large bodies arrive in fewer reads
                           ident="workbench", clear_untrusted_proxy_headers=True)
    for listener in sockets.values():
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = _Channel
    return server
