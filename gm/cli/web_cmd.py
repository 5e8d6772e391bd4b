"""``gm web``: serve the web window on the games (docs/web.md) until stopped. `gm run` serves it
too when the configuration has a ``web:`` section; `gm web` serves only the pages (the mail
and the deadlines are left to `gm run` or `gm tick`)."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import signal
from typing import Any

log = logging.getLogger("gm.web")


def register(commands: Any) -> None:
    web = commands.add_parser("web", help="serve the games' web pages (docs/web.md)")
    web.add_argument("--host", help="the address to listen on (default: the configuration's web: host, 127.0.0.1)")
    web.add_argument("--port", type=int, help="the port (default: the configuration's web: port, 8080)")
    web.set_defaults(run=run_web)


def run_web(args: argparse.Namespace) -> int:
    import asyncio

    from gm.app import App
    from gm.cli.startup import config_from
    from gm.config import WebConfig

    config = config_from(args)
    web = config.web or WebConfig()
    web = dataclasses.replace(web, host=args.host or web.host, port=args.port if args.port is not None else web.port)
    app = App(dataclasses.replace(config, web=web))
    try:
        print(f"gm web: serving the games on {web.url}/ (Ctrl-C stops)", flush=True)
        asyncio.run(serve(app.web_server()))
    except KeyboardInterrupt:
        pass
    finally:
        app.close()
    return 0


async def serve(server: Any) -> None:
    """Serve until SIGTERM or SIGINT: the server then finishes the requests under way."""
    import asyncio

    running = asyncio.ensure_future(server.serve())
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, running.cancel)
    try:
        await running
    except asyncio.CancelledError:
        if not running.cancelled():
            raise
    log.info("gm web stopped")


def serve_demo(config: Any, clock: Any, port: int) -> None:
    """The demo's game on the web, on the demo's own clock; a sign-in link for each of its
    players is printed (in play, it is mailed to the player's address)."""
    from gm.app import App
    from gm.config import WebConfig
    from gm.games.lifecycle import find_game
    from gm.games.web_access import holders, issue_link, link_url

    web = WebConfig(port=port, link_minutes=24 * 60)
    app = App(dataclasses.replace(config, web=web), clock=clock)
    try:
        with app.db.unit_of_work() as session:
            game = find_game(session, "demo")
            links = [(holder.label, link_url(app.services, game, issue_link(app.services, session, game, holder)))
                     for holder in holders(app.services, game)] if game is not None else []
        print(f"\ngm demo --web: the game is at {web.url}/games/demo (Ctrl-C stops). Sign-in links, each works once:")
        for label, url in links:
            print(f"  {label:<16} {url}")
        asyncio.run(serve(app.web_server()))
    except KeyboardInterrupt:
        pass
    finally:
        app.close()
