"""Moved: :mod:`workbench.gallery.transcripts` (this name stays for old imports)."""

from ..gallery.transcripts import *  # noqa: F401,F403
from ..gallery.transcripts import _call, _output  # noqa: F401
