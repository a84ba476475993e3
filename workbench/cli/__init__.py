"""One command-line entry, ``workbench``, with a subcommand per view on the same cores."""

from .main import build_parser, main

__all__ = ["main", "build_parser"]
