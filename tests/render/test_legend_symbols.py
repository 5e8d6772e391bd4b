"""The legends list what the picture shows and every symbol it uses: the orders' key only the
marks drawn (never "dislodged" or "removed" on a start map), the second legend every unit kind
but armies and fleets (a leader's star, a garrison's castle) and every layer drawn (barbarian
land's hatching); over the start and every phase kind of every variant. And the picture draws
what the mails say: Rise of Rome II's leaders not yet placed stand where they start unless
placed, named, marked "to be placed" in the key and the legend as the start mail names them."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from gm.adjudicator.engine import PhaseReport, adjudicate
from gm.bots.plausible import PlausiblePlayer, plausible_start
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.render.scene import Scene, build_scene
from gm.render.shapes import load_shapes
from gm.reports.names import Namer, off_board, unit_names
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

CATALOG = VariantCatalog()


@lru_cache(maxsize=None)
def phases(name: str) -> tuple[tuple[Position, PhaseReport | None], ...]:
    """The start, then the first movement, retreat and adjustment phases of a bot's game."""
    variant = CATALOG.get(name)
    position = plausible_start(variant, random.Random(3)) if setup_of(variant).open_membership else variant.initial_position()
    found: list[tuple[Position, PhaseReport | None]] = [(position, None)]
    seen: set[PhaseKind] = set()
    player = PlausiblePlayer(variant, random.Random(5), support_rate=0.5, convoy_rate=0.5)
    for _ in range(40):
        report = adjudicate(variant, position, player.orders(position), seed="legend")
        if position.phase.kind not in seen:
            seen.add(position.phase.kind)
            found.append((position, report))
        position = report.next
        if len(seen) == 3:
            break
    return tuple(found)


def shown(scene: Scene) -> set[str]:
    """The marks the picture draws, read from its strokes, crosses and units."""
    marks = {"move" if s.kind == "retreat" else s.kind for s in scene.strokes}
    if any(s.dashed for s in scene.strokes) or any(c.dashed for c in scene.crosses):
        marks.add("failed")
    flags = {"dislodged": "dislodged", "removed": "removed", "new": "built", "waiting": "waiting"}
    marks |= {word for flag, word in flags.items() if any(getattr(u, flag) for u in scene.units)}
    if scene.crosses:
        marks.add("removed")
    return marks


@pytest.mark.parametrize("name", CATALOG.names())
def test_the_key_and_the_legend_give_every_symbol_drawn_and_no_other(name: str) -> None:
    variant = CATALOG.get(name)
    kinds_seen = set()
    for position, report in phases(name):
        scene = build_scene(variant, position, report)
        kinds_seen.add(position.phase.kind if report is not None else "start")
        assert {k.kind for k in scene.key} == shown(scene), str(position.phase)
        boards = [position]  # the units drawn: the board's, and after an adjustment those built too
        if report is not None and position.phase.kind is PhaseKind.ADJUSTMENTS:
            boards.append(report.next)
        drawn = {u.type.name for board in boards for u in (*board.units, *(d.unit for d in board.dislodged),
                                                             *off_board(variant, board))}
        units = {e.text for e in scene.mark_legend if e.kind == "unit"}
        assert units == drawn - {"army", "fleet"}, str(position.phase)
        layers = {e.text for e in scene.mark_legend if e.kind == "tint"}
        assert bool(layers) == bool(scene.tints)
        if report is None:
            assert not {"dislodged", "removed", "failed"} & {k.kind for k in scene.key}
    assert kinds_seen >= {"start", PhaseKind.MOVEMENT}


def test_a_barbarian_boards_legend_shows_its_hatching_and_a_garrisons_castle() -> None:
    variant = CATALOG.get("roman-diplomacy-i")
    scene = build_scene(variant, plausible_start(variant, random.Random(3)))
    legend = {e.text: e for e in scene.mark_legend}
    assert legend["barbarian land"].sample.startswith("url(#")
    assert legend["garrison"].kind == "unit" and legend["garrison"].sample == "square"


def test_a_build_ring_is_in_the_key_where_a_unit_is_built() -> None:
    variant = CATALOG.get("standard")
    (_, _), *rest = phases("standard")
    winter, report = next((p, r) for p, r in rest if p.phase.kind is PhaseKind.ADJUSTMENTS)
    scene = build_scene(variant, winter, report)
    assert any(u.new for u in scene.units) == ("built" in {k.kind for k in scene.key})


def test_leaders_not_yet_placed_stand_where_they_start_named_as_the_start_mail_names_them() -> None:
    variant = CATALOG.get("rise-of-rome-ii")
    start = variant.initial_position()
    waiting = off_board(variant, start)
    assert len(waiting) == 6 and not any(u.type.name == "leader" for u in start.units)
    scene = build_scene(variant, start)
    shapes = load_shapes(variant.map.name)
    namer = Namer(variant, start)
    stars = [u for u in scene.units if u.waiting]
    assert len(stars) == len(waiting) and all(u.shape == "star" for u in stars)
    names = unit_names(variant)
    assert names is not None
    for unit in waiting:
        name = names(unit)
        (star,) = [u for u in stars if u.name == name]
        room = shapes.provinces[unit.location.province]
        assert abs(star.x - room.unit[0]) < 30 and abs(star.y - room.unit[1]) < 30  # at (beside) its spot
        entry = next(e for e in scene.legend if e.name == unit.power)
        assert f"{namer.unit(unit, unit.power)} to be placed" in entry.detail  # "Hannibal (Leader, Carthage)"
    assert "waiting" in {k.kind for k in scene.key}
    assert any(e.kind == "unit" and e.text == "leader" for e in scene.mark_legend)
    placed = adjudicate(variant, start, PlausiblePlayer(variant, random.Random(1)).orders(start)).next
    scene = build_scene(variant, placed)
    assert not any(u.waiting for u in scene.units) and "waiting" not in {k.kind for k in scene.key}
    assert sorted(u.name for u in scene.units if u.name) == sorted(names(u)
                                                                  for u in waiting)  # named once placed too
