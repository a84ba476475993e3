"""``workbench serve`` (the default command): the local server on 127.0.0.1, with every limit
as a flag."""

from __future__ import annotations

import argparse
import sys

from .. import __version__

TYPE_CHECKING = False  # (typing itself is not imported: start-up, issue 25)
if TYPE_CHECKING:
    from ..limits import Limits

# ipaddress, signal, threading and the limits are imported where they are used:
# every subcommand's parser takes the server flags, and `workbench format` starts without them

DEFAULT_PORT = 8765
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def _add_limit_flags(p: argparse.ArgumentParser) -> None:
    from ..limits import Limits
    g = p.add_argument_group("limits (defaults in the README; also WORKBENCH_<NAME> variables)")
    for f in Limits.fields():  # each limit's flag and help, its default from Limits
        g.add_argument("--" + f.name.replace("_", "-"), type=float if f.type in ("float", float) else int,
                       help=Limits.help(f.name))


def limits_from_args(args) -> Limits:
    """Every limit from its flag (each field of Limits has one), else the environment."""
    from ..limits import Limits
    return Limits.from_env(**{f.name: getattr(args, f.name, None) for f in Limits.fields()})


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK:
        return True
    import ipaddress
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def make_server(app, host: str, port: int, limits: Limits, threads: int = 8):
    """The waitress server (:func:`workbench.web.server.make_server`: bodies and answers in memory,
    refusals as JSON)."""
    from ..web.server import make_server as waitress_server
    return waitress_server(app, host, port, limits, threads)


def serve(args) -> int:
    import signal
    import threading
    import webbrowser  # here, not at the top: the other subcommands start without it

    from ..runtime.memory import tune_malloc, use_system_malloc
    use_system_malloc()
    tune_malloc()
    from ..web import create_app

    host = args.host
    if not _is_loopback(host):
        print(f"WARNING: listening on {host}, not on loopback. Other machines may reach this "
              "workbench and the documents pasted into it. Use only on a network you trust.",
              file=sys.stderr)
    limits = limits_from_args(args)
    app = create_app(limits, host=host)
    bind_host = host.strip("[]")
    server = make_server(app, bind_host, args.port, limits, args.threads)
    port = server.effective_port
    app.set_port(port)
    signal.signal(signal.SIGTERM, _interrupt)
    shown = f"[{bind_host}]" if ":" in bind_host else bind_host
    url = f"http://{shown}:{port}/"
    try:
        print(f"JSON Workbench {__version__} serving on {url}  (Ctrl-C stops)", flush=True)
        if args.open:
            threading.Timer(0.3, webbrowser.open, args=(url,)).start()
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        print("stopped", flush=True)
    return 0


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def add_server_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--open", action="store_true", help="open the browser")
    p.add_argument("--threads", type=int, default=8, help=argparse.SUPPRESS)
    _add_limit_flags(p)


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser("serve", help="run the local server (the default)")
    add_server_flags(p)
    p.set_defaults(func=serve)
    return p
