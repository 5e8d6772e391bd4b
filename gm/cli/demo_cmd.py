"""``gm demo [--variant NAME]``: a game played by mail on the embedded defaults, printed as it goes;
``gm demo mail FROM --home DIR``: one more mail into a demo's game, its answers printed."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

DEMO_DOMAIN = "example.test"  # gm.demo's players' domain (not imported: --help loads no more than it needs)


def register(commands: Any) -> None:
    demo = commands.add_parser(
        "demo", help="play a short game by mail on the embedded defaults; then play on with gm demo mail",
        description="Play a short game by mail on the embedded defaults (SQLite, local Maildir folders), "
                    "printing what each player receives; it ends by printing how to play on. "
                    "`gm demo mail FROM --home DIR` then hands one more mail to that demo's judge.")
    demo.add_argument("action", nargs="?", choices=["mail"],
                      help="mail: one mail from FROM to the demo's judge in --home (the body from standard "
                           "input, or written in $VISUAL/$EDITOR when standard input is a terminal), and print "
                           "the answers it brought")
    demo.add_argument("sender", nargs="?", metavar="FROM",
                      help="with mail: who writes, a player's name as the demo printed it (france, master) "
                           "or an address")
    demo.add_argument("--years", type=int, default=1, help="game years to play (default: 1)")
    demo.add_argument("--home", help="the judge's files: kept here (default: a fresh temporary folder; an earlier "
                                     "demo's folder given is emptied first, any other folder must be empty); with "
                                     "mail, the home of the demo to play on")
    demo.add_argument("--seed", type=int, default=1901,
                      help="the seed of the players' orders and choices and of the game's dice: the same seed "
                           "plays the same game (default: 1901)")
    demo.add_argument("--variant", default="standard", help="any variant of the catalog (default: standard)")
    demo.add_argument("--web", action="store_true", help="then serve the game's web pages (docs/web.md) until Ctrl-C")
    demo.add_argument("--port", type=int, default=8080, help="the web pages' port (with --web; default: 8080)")
    demo.set_defaults(run=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    if args.action == "mail":
        return run_mail(args)
    from gm.demo import Demo, DemoUnsupported
    from gm.variants.catalog import UnknownVariant

    home = Path(args.home) if args.home else Path(tempfile.mkdtemp(prefix="gm-demo-"))
    if args.home and home.exists():
        if any(home.iterdir()) and not (home / "gm.db").exists():  # emptied only if a demo's (or empty)
            print(f"gm demo: {home} holds files that are not a demo's: name a new folder, or an earlier demo's",
                  file=sys.stderr)
            return 2
        shutil.rmtree(home)
    try:
        demo = Demo(home, sys.stdout, seed=args.seed, variant=args.variant)
    except (UnknownVariant, DemoUnsupported) as exc:
        print(f"gm demo: {exc.args[0]}", file=sys.stderr)
        return 2
    demo.run(years=args.years)
    if args.web:
        from gm.cli.web_cmd import serve_demo

        serve_demo(demo.config, demo.clock, args.port)
    return 0


def run_mail(args: argparse.Namespace) -> int:
    """One mail from ``FROM`` to the demo's judge, handled as `gm receive` handles a mail; the
    answers it brought printed as the demo prints them. A body without a SIGNON line gets the
    sender's sign-on from the demo's players.txt first."""
    import asyncio
    import mailbox
    from email.message import EmailMessage
    from email.utils import make_msgid

    from gm.app import App
    from gm.config import load_config
    from gm.demo import PLAYERS, print_post, sorted_keys

    if not args.sender or not args.home:
        print("gm demo mail: write gm demo mail FROM --home DIR (the home a demo printed)", file=sys.stderr)
        return 2
    home = Path(args.home)
    if not (home / "gm.yaml").is_file():
        print(f"gm demo mail: {home} holds no demo (no gm.yaml): run gm demo --home {home} first", file=sys.stderr)
        return 2
    sender = args.sender.strip().lower()
    address = sender if "@" in sender else f"{sender}@{DEMO_DOMAIN}"
    signons = dict(line.split(None, 1) for line in (home / PLAYERS).read_text(encoding="utf-8").splitlines()
                   if line.strip()) if (home / PLAYERS).is_file() else {}
    signon = signons.get(address, "")
    body = sys.stdin.read() if not sys.stdin.isatty() else _written(signon)
    if body is None:
        return 1
    if signon and not any(line.strip().upper().startswith("SIGNON") for line in body.splitlines()):
        body = f"{signon}\n{body}"
    config = load_config(home / "gm.yaml")
    message = EmailMessage()
    message["From"] = address
    message["To"] = config.judge_address
    message["Subject"] = "orders"
    message["Message-ID"] = make_msgid(domain=DEMO_DOMAIN)
    message.set_content(body)
    outbox = mailbox.Maildir(str(config.outbound.path), create=True)
    before = set(outbox.keys())
    print(f"--> {address} mails the judge:")
    print("\n".join(f"      | {line}" for line in body.rstrip().splitlines()))
    app = App(config)
    try:
        app.intake.receive(bytes(message))
        asyncio.run(app.dispatcher().drain())
    finally:
        app.close()
    print_post(outbox, [k for k in sorted_keys(outbox) if k not in before], home / "pictures", sys.stdout)
    return 0


def _written(signon: str) -> str | None:
    """The body written in the reader's editor, starting from the sign-on; None if left empty."""
    import os
    import shlex
    import subprocess

    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.NamedTemporaryFile("w+", suffix=".txt", encoding="utf-8", delete=False) as file:
        file.write(f"{signon}\n" if signon else "")
        path = file.name
    try:
        subprocess.run([*shlex.split(editor), path], check=False)
        text = Path(path).read_text(encoding="utf-8")
    finally:
        os.unlink(path)
    if not text.strip() or text.strip() == signon:
        print("gm demo mail: nothing written, nothing sent", file=sys.stderr)
        return None
    return text
