"""Milliseconds to draw a board picture: a ~30-unit standard board with its orders, as PNG.

    .venv/bin/python bench/render.py [--runs 20] [--seed 7] [--out board.png]

Plays a random game with plausible orders until a movement phase with at least 28 units,
adjudicates it, then times ``render_phase_svg`` (scene + template) and ``render_phase_png``
(the same, then resvg and PNG encoding) on that phase. A results mail waits for the PNG.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from gm.adjudicator.engine import adjudicate
from gm.bots.plausible import PlausiblePlayer
from gm.domain.phases import PhaseKind
from gm.render import render_phase_png, render_phase_svg
from gm.variants.catalog import VariantCatalog


def busy_phase(seed: int, units: int = 28):  # type: ignore[no-untyped-def]
    variant = VariantCatalog().get("standard")
    player = PlausiblePlayer(variant, random.Random(seed))
    position = variant.initial_position()
    for _ in range(400):
        report = adjudicate(variant, position, player.orders(position))
        if position.phase.kind is PhaseKind.MOVEMENT and len(position.units) >= units:
            return variant, position, report
        position = report.next
    raise SystemExit("no busy movement phase found; try another --seed")


def timed(runs: int, draw) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        draw()
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, help="also write the picture here")
    args = parser.parse_args()
    variant, position, report = busy_phase(args.seed)
    orders = len(report.results)
    first = timed(1, lambda: render_phase_png(variant, position, report))[0]  # loads shapes and fonts
    svg = timed(args.runs, lambda: render_phase_svg(variant, position, report))
    png = timed(args.runs, lambda: render_phase_png(variant, position, report))
    print(f"{position.phase}: {len(position.units)} units, {orders} orders, "
          f"{len(report.resolved.dislodged)} dislodged")
    print(f"first picture (loads the shape file): {first:.0f} ms")
    print(f"SVG: median {statistics.median(svg):.1f} ms")
    print(f"PNG: median {statistics.median(png):.0f} ms, max {max(png):.0f} ms over {args.runs} runs")
    if args.out:
        args.out.write_bytes(render_phase_png(variant, position, report))
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
