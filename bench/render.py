"""Milliseconds to draw a board picture as PNG: resvg alone, and the painter (gm.render.painter).

    .venv/bin/python bench/render.py [--phases 40] [--runs 10] [--seed 7] [--out board.png]

Plays random games with plausible orders and keeps their movement phases with at least 28
units, each with its report (its orders drawn). Then, medians:

- *resvg*: the whole SVG (``render_phase_svg``) drawn by resvg, as every picture was before the
  painter (``--runs`` times, the first busy phase);
- *painter, new process*: the first picture a process draws (the board's unchanging layers
  drawn, then every mark), in a new painter;
- *painter, in a running judge*: each phase drawn once, in turn, by a painter that drew the
  pictures of other games before (the marks it kept from them are used): what a judge pays
  for each results picture;
- *painter, drawn again*: the same phase again (every mark kept).

Each painted picture is compared with resvg's (gm.render.painter: within a tolerance).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path

import numpy as np

from gm.adjudicator.engine import adjudicate
from gm.bots.plausible import PlausiblePlayer
from gm.domain.phases import PhaseKind
from gm.render.painter import Painter
from gm.render.png import svg_to_png
from gm.render.raster import decode_rgba
from gm.render.scene import build_scene
from gm.render.svg import scene_svg
from gm.variants.catalog import VariantCatalog


def busy_phases(seed: int, wanted: int, units: int = 28):  # type: ignore[no-untyped-def]
    """``wanted`` movement phases with at least ``units`` units, from games of seeds ``seed``,
    ``seed + 1``, ... (each phase with its report)."""
    variant = VariantCatalog().get("standard")
    found = []
    game = seed
    while len(found) < wanted:
        player = PlausiblePlayer(variant, random.Random(game))
        position = variant.initial_position()
        for _ in range(60):
            report = adjudicate(variant, position, player.orders(position))
            if position.phase.kind is PhaseKind.MOVEMENT and len(position.units) >= units:
                found.append((position, report))
            position = report.next
        game += 1
    return variant, found[:wanted]


def busy_phase(seed: int, units: int = 28):  # type: ignore[no-untyped-def]
    variant, ((position, report),) = busy_phases(seed, 1, units)
    return variant, position, report


def timed(draw) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    draw()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=40)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, help="also write the first phase's picture here")
    args = parser.parse_args()
    variant, phases = busy_phases(args.seed, 2 * args.phases)
    warm_up, measured = phases[args.phases:], phases[:args.phases]
    scenes = [build_scene(variant, p, r) for p, r in measured]
    position, report = measured[0]
    print(f"{len(measured)} movement phases of standard games, {statistics.median(len(p.units) for p, _ in measured):.0f} "
          f"units and {statistics.median(len(r.results) for _, r in measured):.0f} orders (medians)")
    resvg = [timed(lambda: svg_to_png(scene_svg(build_scene(variant, position, report)))) for _ in range(args.runs)]
    cold = [timed(lambda: Painter().png(build_scene(variant, position, report))) for _ in range(3)]
    painter = Painter()
    for p, r in warm_up:
        painter.png(build_scene(variant, p, r))
    running = [timed(lambda p=p, r=r: painter.png(build_scene(variant, p, r))) for p, r in measured]
    again = [timed(lambda: painter.png(build_scene(variant, position, report))) for _ in range(args.runs)]
    worst = 0.0
    for scene in scenes[:5]:
        got = decode_rgba(painter.png(scene))[:, :, :3].astype(np.int16)
        want = decode_rgba(svg_to_png(scene_svg(scene)))[:, :, :3].astype(np.int16)
        worst = max(worst, float(np.abs(got - want).max(axis=2).mean()))
    one, five, _ = os.getloadavg()
    print(f"resvg, the whole SVG:              median {statistics.median(resvg):6.1f} ms")
    print(f"painter, new process:              median {statistics.median(cold):6.1f} ms (its board's layers and every mark)")
    print(f"painter, in a running judge:       median {statistics.median(running):6.1f} ms, "
          f"max {max(running):.0f} ms over {len(running)} phases")
    print(f"painter, the same phase again:     median {statistics.median(again):6.1f} ms")
    print(f"mean difference from resvg's picture: {worst:.3f} levels (of 255); "
          f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores")
    if args.out:
        args.out.write_bytes(painter.png(scenes[0]))
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
