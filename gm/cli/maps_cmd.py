"""``gm maps check [FILE ...]``: validate map files and say how to fix each problem."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    parser = commands.add_parser("maps", help="work with map files")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    check = actions.add_parser("check", help="validate map files (all in maps/ when none is named)")
    check.add_argument("files", nargs="*", type=Path, metavar="FILE",
                       help="map files (YAML, as maps/README.md describes them); none: every map in maps/")
    check.set_defaults(run=run_check)


def run_check(args: argparse.Namespace) -> int:
    from gm.maps.loader import MAPS_DIR, check_map_file

    files = args.files or sorted(MAPS_DIR.glob("*.yaml"))
    failed = 0
    for path in files:
        problems = check_map_file(path)
        if problems:
            failed += 1
            for problem in problems:
                print(problem)
        else:
            print(f"{path}: ok")
    return 1 if failed else 0
