"""Milliseconds to draw a board picture as PNG: resvg alone, and the painter (gm.render.painter, Skia).

    .venv/bin/python bench/render.py [--phases 40] [--runs 10] [--seed 7] [--out board.png]

Plays random games with plausible orders and keeps their movement phases with at least 28
units, each with its report (its orders drawn). Then, medians:

- *resvg*: the whole SVG (``render_phase_svg``) drawn by resvg, as every picture was before the
  painter (``--runs`` times, the first busy phase);
- *painter, new process*: in a fresh Python process that has loaded gm's drawing code, the
  first picture it draws (its board's unchanging layers and fonts loaded, then every mark),
  beside what making that phase's SVG costs the same process (``--processes`` of them);
- *painter, in a running judge*: each phase drawn once, in turn, by a painter that drew the
  pictures of other games before: what a judge pays for each results picture (the scene
  made, drawn, written as PNG);
- *painter, the same phase again*.

Each painted picture is compared with resvg's (mean difference), and the PNGs' sizes given.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
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


FIRST_PICTURE = """
import json, random, sys, time
sys.path[:0] = [{root!r}, {bench!r}]
from render import busy_phase
from gm.render.painter import Painter
from gm.render.scene import build_scene
from gm.render.svg import scene_svg
variant, position, report = busy_phase({seed})
started = time.perf_counter()
scene_svg(build_scene(variant, position, report))
svg = time.perf_counter() - started
started = time.perf_counter()
Painter().png(build_scene(variant, position, report))
print(json.dumps([svg * 1000, (time.perf_counter() - started) * 1000]))
"""


def first_pictures(seed: int, processes: int) -> list[tuple[float, float]]:
    """The SVG's and the first PNG's milliseconds in each of ``processes`` new processes."""
    here = Path(__file__).resolve().parent
    code = FIRST_PICTURE.format(root=str(here.parent), bench=str(here), seed=seed)
    found = []
    for _ in range(processes):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        found.append(tuple(json.loads(out.strip().splitlines()[-1])))
    return found  # type: ignore[return-value]


def timed(draw) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    draw()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phases", type=int, default=40)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--processes", type=int, default=5)
    parser.add_argument("--out", type=Path, help="also write the first phase's picture here")
    args = parser.parse_args()
    variant, phases = busy_phases(args.seed, 2 * args.phases)
    warm_up, measured = phases[args.phases:], phases[:args.phases]
    scenes = [build_scene(variant, p, r) for p, r in measured]
    position, report = measured[0]
    print(f"{len(measured)} movement phases of standard games, {statistics.median(len(p.units) for p, _ in measured):.0f} "
          f"units and {statistics.median(len(r.results) for _, r in measured):.0f} orders (medians)")
    resvg = [timed(lambda: svg_to_png(scene_svg(build_scene(variant, position, report)))) for _ in range(args.runs)]
    cold = first_pictures(args.seed, args.processes)
    painter = Painter()
    for p, r in warm_up:
        painter.png(build_scene(variant, p, r))
    running = [timed(lambda p=p, r=r: painter.png(build_scene(variant, p, r))) for p, r in measured]
    again = [timed(lambda: painter.png(build_scene(variant, position, report))) for _ in range(args.runs)]
    worst = 0.0
    for scene in scenes[:5]:
        got = painter.canvas(scene)[:, :, :3].astype(np.int16)
        want = decode_rgba(svg_to_png(scene_svg(scene)))[:, :, :3].astype(np.int16)
        worst = max(worst, float(np.abs(got - want).max(axis=2).mean()))
    sizes = [len(painter.png(scene)) / 1000 for scene in scenes]
    one, five, _ = os.getloadavg()
    print(f"resvg, the whole SVG:              median {statistics.median(resvg):6.1f} ms")
    print(f"painter, new process:              median {statistics.median(c for _, c in cold):6.1f} ms over its SVG's "
          f"{statistics.median(s for s, _ in cold):.1f} ms (its board's layers, fonts and every mark)")
    print(f"painter, in a running judge:       median {statistics.median(running):6.1f} ms, "
          f"max {max(running):.0f} ms over {len(running)} phases")
    print(f"painter, the same phase again:     median {statistics.median(again):6.1f} ms")
    print(f"PNG: median {statistics.median(sizes):.0f} KB, largest {max(sizes):.0f} KB")
    print(f"mean difference from resvg's picture: {worst:.3f} levels (of 255, at most over 5 phases); "
          f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores")
    if args.out:
        args.out.write_bytes(painter.png(scenes[0]))
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
