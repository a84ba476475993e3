"""Moved: :mod:`workbench.gallery.agents` (this name stays for old imports)."""

from ..gallery.agents import *  # noqa: F401,F403
