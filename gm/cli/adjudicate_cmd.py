"""``gm adjudicate``: one position in, one result out (docs/adjudicate-interchange.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from gm.variants.catalog import VariantCatalog


def register(commands: Any) -> None:
    parser = commands.add_parser("adjudicate", help="adjudicate a position given as JSON")
    parser.add_argument("file", nargs="?", default="-", help="a JSON position ('-' for stdin)")
    parser.add_argument("--jsonl", action="store_true", help="one position per line in, one result per line out")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from gm.interchange import InterchangeError, adjudicate_json, parse_json
    from gm.variants.catalog import VariantCatalog

    catalog = VariantCatalog()
    if args.jsonl:
        source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
        with source:
            return run_stream(source, sys.stdout, catalog)
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except OSError as exc:
        print(f"gm adjudicate: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        result = adjudicate_json(parse_json(text), catalog)
    except InterchangeError as exc:
        print(f"gm adjudicate: {exc}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def run_stream(source: TextIO, sink: TextIO, catalog: VariantCatalog) -> int:
    from gm.interchange import adjudicate_line

    for line in source:
        if not line.strip():
            continue
        sink.write(adjudicate_line(line, catalog) + "\n")
        sink.flush()
    return 0
