"""``gm render-map``: draw a board; ``gm maps shapes``: make a map's province shapes.

    gm render-map VARIANT [-o OUT.png|OUT.svg]             the starting position
    gm render-map VARIANT --sample-phases N [--seed S]     N phases of random plausible play,
                                                           the last drawn with its orders
    gm [--config FILE] render-map VARIANT --game NAME --phase PHASE
                                                           a stored game's phase, with its orders
    gm maps shapes VARIANT [...] [--land FILE]             write maps/shapes/VARIANT.json
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any


class NoGameStore(RuntimeError):
    """The stored phase asked for cannot be read (no such game or phase, or no database)."""


def register(commands: Any) -> None:
    parser = commands.add_parser("render-map", help="draw the board of a variant or of a stored phase")
    parser.add_argument("variant", help="variant name, e.g. standard")
    parser.add_argument("-o", "--output", type=Path, help="OUT.png or OUT.svg (default: VARIANT.png)")
    parser.add_argument("--game", help="a stored game's name (with --phase)")
    parser.add_argument("--phase", help="the stored game's phase to draw, e.g. F1903M")
    parser.add_argument("--sample-phases", type=int, metavar="N",
                        help="play N random phases and draw the last one with its orders")
    parser.add_argument("--seed", type=int, default=1, help="random seed for --sample-phases")
    parser.add_argument("--title", help="the picture's title (default: map title and phase)")
    parser.set_defaults(run=run_render)
    _register_shapes(commands)


def _register_shapes(commands: Any) -> None:
    """Add ``shapes`` to the ``gm maps`` command (registered by ``maps_cmd``)."""
    maps = commands.choices.get("maps")
    actions = None
    if maps is not None:
        actions = next((a for a in maps._actions if isinstance(a, argparse._SubParsersAction)), None)
    if actions is None:  # no 'gm maps' command: stand alone
        parser = commands.add_parser("maps-shapes", help="make province shapes for map files")
    else:
        parser = actions.add_parser("shapes", help="make province shapes for map files (needs gm[shapes])")
    parser.add_argument("variants", nargs="*", help="map names (default: every map in maps/)")
    parser.add_argument("--land", type=Path, help="world-atlas land TopoJSON (default: fetched with npm)")
    parser.add_argument("--width", type=int, default=1400, help="picture width in pixels")
    parser.add_argument("--check", action="store_true", help="only report shapes that disagree with the map")
    parser.set_defaults(run=run_shapes)


def run_render(args: argparse.Namespace) -> int:
    from gm.adjudicator.engine import adjudicate
    from gm.render import MissingShapes, render_phase_png, render_phase_svg
    from gm.variants.catalog import UnknownVariant, VariantCatalog

    try:
        variant = VariantCatalog().get(args.variant)
    except UnknownVariant as exc:
        variant = map_only_variant(args.variant)
        if variant is None:
            print(f"gm render-map: {exc}", file=sys.stderr)
            return 2
        print(f"gm render-map: {args.variant} has no rules module yet; drawing its map with standard rules",
              file=sys.stderr)
    output: Path = args.output or Path(f"{variant.name}.png")
    if output.suffix.lower() not in (".png", ".svg"):
        print("gm render-map: the output must end in .png or .svg", file=sys.stderr)
        return 2
    report = None
    if args.game or args.phase:
        if not (args.game and args.phase):
            print("gm render-map: --game and --phase go together", file=sys.stderr)
            return 2
        try:
            position, report = load_stored_phase(variant, args.game, args.phase, getattr(args, "config", None))
        except NoGameStore as exc:
            print(f"gm render-map: {exc}", file=sys.stderr)
            return 2
    else:
        position = variant.initial_position()
        if args.sample_phases:
            from gm.bots.plausible import PlausiblePlayer, plausible_start

            player = PlausiblePlayer(variant, random.Random(args.seed))
            position = plausible_start(variant, player.rng)
            dice = f"sample {args.seed}"  # the sample's dice follow its --seed too
            for _ in range(args.sample_phases - 1):
                position = adjudicate(variant, position, player.orders(position), seed=dice).next
            report = adjudicate(variant, position, player.orders(position), seed=dice)
    started = time.perf_counter()
    try:
        if output.suffix.lower() == ".svg":
            output.write_text(render_phase_svg(variant, position, report, args.title), encoding="utf-8")
        else:
            output.write_bytes(render_phase_png(variant, position, report, args.title))
    except MissingShapes as exc:
        print(f"gm render-map: {exc}", file=sys.stderr)
        return 1
    took = time.perf_counter() - started
    print(f"{output}: {variant.title(position.phase)} ({took * 1000:.0f} ms)")
    return 0


def map_only_variant(name: str) -> Any:
    """A map file without its rules module, under standard rules: so a map's author can look at it."""
    from gm.adjudicator.variant import Variant
    from gm.domain.units import STANDARD_UNIT_TYPES, Mobility, UnitType
    from gm.maps.loader import MapError, load_map, map_path
    from gm.variants.standard import ANCIENT_CALENDAR, CALENDAR, first_year

    path = map_path(name.strip().lower())
    if not path.is_file():
        return None
    try:
        game_map = load_map(path)
    except MapError:
        return None
    letters = {u.letter for p in game_map.powers.values() for u in p.units} - {t.letter for t in STANDARD_UNIT_TYPES}
    extra = tuple(UnitType(letter, letter, Mobility.LAND) for letter in sorted(letters))
    calendar = ANCIENT_CALENDAR if "first_move" in game_map.rules else CALENDAR
    return Variant(game_map.name, game_map, calendar, first_year=first_year(game_map, calendar),
                   unit_types=STANDARD_UNIT_TYPES + extra)


def load_stored_phase(variant: Any, game_name: str, phase_text: str, config_path: str | None) -> tuple[Any, Any]:
    """A stored game's phase: the position it started from and, once processed, its report.

    A processed phase is adjudicated again from its stored position and orders (the engine is
    deterministic, so the outcome is the one the players were sent); the current phase, not yet
    processed, is drawn without orders.
    """
    from sqlalchemy import select

    from gm.config import ConfigError, load_config
    from gm.games.pictures import phase_report
    from gm.store.codec import decode_position
    from gm.store.database import Database
    from gm.store.models import Game, PhaseRecord

    try:
        phase = variant.calendar.parse(phase_text)
    except ValueError as exc:
        raise NoGameStore(str(exc)) from None
    try:
        config = load_config(Path(config_path) if config_path else None)
    except ConfigError as exc:
        raise NoGameStore(str(exc)) from None
    db = Database(config.database_url, migrate=False)
    try:
        with db.unit_of_work() as session:
            game = session.scalar(select(Game).where(Game.name == game_name))
            if game is None:
                raise NoGameStore(f"no game named {game_name!r} in {config.database_url}")
            if game.variant != variant.name:
                raise NoGameStore(f"game {game_name!r} plays {game.variant}, not {variant.name}")
            record = session.scalar(
                select(PhaseRecord)
                .where(PhaseRecord.game_id == game.id, PhaseRecord.phase == str(phase),
                       PhaseRecord.rolled_back.is_(False))
                .order_by(PhaseRecord.seq.desc())
            )
            if record is None:
                if game.phase == str(phase) and game.position is not None:
                    return decode_position(variant, game.position), None
                done = session.scalars(
                    select(PhaseRecord.phase).where(PhaseRecord.game_id == game.id,
                                                    PhaseRecord.rolled_back.is_(False))
                    .order_by(PhaseRecord.seq)
                ).all()
                known = ", ".join([*done, *([game.phase] if game.phase else [])]) or "none yet"
                raise NoGameStore(f"game {game_name!r} has no phase {phase} (its phases: {known})")
            return phase_report(variant, record, game.dice_seed)
    except NoGameStore:
        raise
    except Exception as exc:  # no database, or no schema in it
        raise NoGameStore(f"cannot read the game store ({config.database_url}): {exc}") from None
    finally:
        db.dispose()


def run_shapes(args: argparse.Namespace) -> int:
    try:
        from gm.render.landsource import LandSourceError, land_file
        from gm.render.shapes_build import Settings, build_geometry, build_shapes, shapes_path, write_shapes
        from gm.render.shapes_check import check_borders
    except ImportError as exc:  # shapely is an optional extra
        print(f"gm maps shapes: {exc}; install the extra: pip install -e '.[shapes]'", file=sys.stderr)
        return 2
    from gm.maps.loader import MapError, available_maps, load_map, map_path
    from gm.render.topojson import load_polygons

    names = args.variants or available_maps()
    try:
        land = load_polygons(land_file(args.land))
    except LandSourceError as exc:
        print(f"gm maps shapes: {exc}", file=sys.stderr)
        return 2
    settings = Settings(width=args.width)
    failed = 0
    for name in names:
        try:
            game_map = load_map(map_path(name))
        except MapError as exc:
            print(f"{name}: the map file has problems; run gm maps check\n{exc}", file=sys.stderr)
            failed += 1
            continue
        if args.check:
            built, _ = build_geometry(game_map, land, settings)
            notes = built.warnings + check_borders(game_map, built.provinces)
        else:
            data, notes = build_shapes(game_map, land, settings)
            write_shapes(data, shapes_path(name))
            print(f"{shapes_path(name)}: {len(data['provinces'])} provinces, {data['width']}x{data['height']} px")
        for note in notes:
            print(f"  {name}: {note}")
    return 1 if failed else 0
