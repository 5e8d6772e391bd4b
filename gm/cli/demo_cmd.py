"""``gm demo [--variant NAME]``: a game played by mail on the embedded defaults, printed as it goes."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    demo = commands.add_parser("demo", help="play a short game by mail on the embedded defaults")
    demo.add_argument("--years", type=int, default=1, help="game years to play")
    demo.add_argument("--home", help="keep the judge's files here (default: a fresh temporary folder)")
    demo.add_argument("--seed", type=int, default=1901)
    demo.add_argument("--variant", default="standard", help="any variant of the catalog (default: standard)")
    demo.add_argument("--web", action="store_true", help="then serve the game's web pages (docs/web.md) until Ctrl-C")
    demo.add_argument("--port", type=int, default=8080, help="the web pages' port (with --web)")
    demo.set_defaults(run=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    from gm.demo import Demo, DemoUnsupported
    from gm.variants.catalog import UnknownVariant

    home = Path(args.home) if args.home else Path(tempfile.mkdtemp(prefix="gm-demo-"))
    if args.home and home.exists():
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
