"""``gm adjudicate``: one position in, one result out (docs/adjudicate-interchange.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from gm.variants.catalog import VariantCatalog


def register(commands: Any) -> None:
    parser = commands.add_parser("adjudicate", help="adjudicate a position given as JSON")
    parser.add_argument("file", nargs="?", default="-", help="a JSON position ('-' for stdin)")
    parser.add_argument("--jsonl", action="store_true", help="one position per line in, one result per line out")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from gm.interchange import InterchangeError, adjudicate_json

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
        result = adjudicate_json(_parse(text), catalog)
    except InterchangeError as exc:
        print(f"gm adjudicate: {exc}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def run_stream(source: TextIO, sink: TextIO, catalog: VariantCatalog) -> int:
    from gm.interchange import InterchangeError, adjudicate_json, encode_result

    for line in source:
        if not line.strip():
            continue
        try:
            result: dict[str, Any] = adjudicate_json(_parse(line), catalog)
        except InterchangeError as exc:
            result = {"error": str(exc)}
        sink.write(encode_result(result) + "\n")
        sink.flush()
    return 0


def _parse(text: str) -> Any:
    from gm.interchange import InterchangeError

    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InterchangeError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
