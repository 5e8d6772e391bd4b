"""``gm check``: try everything a first run needs, one line each: OK, WARN or FAIL with what to fix.

Exit status: 0 when nothing failed (warnings allowed), 1 when something did, 78 (EX_CONFIG) when
the configuration itself cannot be read, so nothing else could be tried.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

EX_CONFIG = 78  # sysexits.h


def register(commands: Any) -> None:
    check = commands.add_parser("check", help="try the configuration, database, mail servers and games' files; "
                                              "one line each, OK or what to fix")
    check.add_argument("--timeout", type=float, default=20.0, metavar="SECONDS",
                       help="the longest wait for one answer of a server (default 20)")
    check.set_defaults(run=run_check)


def run_check(args: argparse.Namespace) -> int:
    from gm.cli import checks, logs, startup
    from gm.config import ConfigError, config_path, load_config

    path = config_path(Path(args.config) if args.config else None)
    try:
        config = load_config(path)
    except ConfigError as exc:
        print(checks.Finding(checks.FAIL, "configuration", str(exc)).line())
        print("gm check: the configuration cannot be read; nothing else was tried")
        return EX_CONFIG
    secrets = config.secrets()
    logs.mask(secrets)
    where = f"{config.source}" if config.source else "none given (--config, $GM_CONFIG): the embedded defaults"
    print(checks.Finding(checks.OK, "configuration", where).line(), flush=True)
    failed = warned = 0
    for finding in checks.everything(startup.named(config, "check"), args.timeout):
        line = finding.line()
        for secret in secrets:  # a server's answer might repeat one
            line = line.replace(secret, "***")
        print(line, flush=True)
        failed += finding.status == checks.FAIL
        warned += finding.status == checks.WARN
    if failed:
        print(f"gm check: {failed} to fix{f', {warned} to look at' if warned else ''}")
        return 1
    print(f"gm check: ready{f' ({warned} to look at)' if warned else ''}")
    return 0
