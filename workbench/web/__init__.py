"""The thin web layer: the Flask application factory (:func:`create_app`), declared routes, the
view table, security checks and headers, and the OpenAPI description."""

from .app import create_app

__all__ = ["create_app"]
