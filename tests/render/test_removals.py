"""Every unit a phase removes is drawn struck out, apart from the units that moved: destroyed
by a rule during the moves (at its own place, or faint where it had moved to, its arrow
pointing there), dislodged with nowhere to retreat, not retreating, removed in civil disorder,
or taken away at the end of the season."""

from __future__ import annotations

import math

from gm.adjudicator.engine import PhaseReport, adjudicate
from gm.domain.geography import Location
from gm.domain.orders import Move, SupportMove, UnitRef
from gm.domain.outcomes import OrderResult
from gm.domain.position import Position, sorted_units
from gm.domain.units import ARMY, FLEET, Unit
from gm.render import render_phase_svg, style
from gm.render.removals import Removal, removals
from gm.render.scene import Scene, UnitMark, build_scene
from gm.render.spacing import spaced_shapes
from gm.variants.catalog import VariantCatalog

STANDARD = VariantCatalog().get("standard")
EAGLES = VariantCatalog().get("eagles")
EMPIRE = VariantCatalog().get("diplomacy-of-the-empire")


def unit(text: str, power: str) -> Unit:
    letter, where = text.split()
    return Unit(power, ARMY if letter == "A" else FLEET, Location.parse(where))


def ref(text: str) -> UnitRef:
    letter, where = text.split()
    return UnitRef(Location.parse(where), ARMY if letter == "A" else FLEET)


def board(variant, phase: str, units: dict[str, list[str]]) -> Position:  # type: ignore[no-untyped-def]
    placed = sorted_units(unit(u, power) for power, texts in units.items() for u in texts)
    return Position(variant.calendar.parse(phase), placed, {})


def struck(scene: Scene) -> list[UnitMark]:
    return [m for m in scene.units if m.removed]


def crossed(scene: Scene, mark: UnitMark) -> bool:
    return any(math.isclose(c.x, mark.x) and math.isclose(c.y, mark.y) and not c.dashed for c in scene.crosses)


def spot(variant, province: str) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    return spaced_shapes(variant.map.name).provinces[province].unit


# Trieste beaten by Venice with Tyrolia's support; every other way out held by Austria
NO_WAY_OUT = {"Austria": ["A TRI", "A ALB", "A BUD", "A SER", "A VIE"], "Italy": ["A VEN", "A TYR"]}
ATTACK = [("Italy", Move(ref("A VEN"), Location("TRI"))),
          ("Italy", SupportMove(ref("A TYR"), ref("A VEN"), Location("TRI")))]


def test_a_dislodged_unit_with_nowhere_to_retreat_is_drawn_dislodged_and_struck_out() -> None:
    position = board(STANDARD, "S1901M", NO_WAY_OUT)
    report = adjudicate(STANDARD, position, ATTACK)
    assert removals(position, report) == [Removal(unit("A TRI", "Austria"), True)]
    scene = build_scene(STANDARD, position, report)
    (mark,) = struck(scene)
    assert mark.dislodged and not mark.ghost and crossed(scene, mark)
    assert len([m for m in scene.units if not m.removed]) == len(position.units) - 1


def test_a_dislodged_unit_that_does_not_retreat_is_struck_out_on_the_retreats_picture() -> None:
    position = board(STANDARD, "S1901M", {**NO_WAY_OUT, "Austria": ["A TRI", "A BUD", "A SER", "A VIE"]})
    retreats = adjudicate(STANDARD, position, ATTACK).next
    assert [str(d.unit) for d in retreats.dislodged] == ["A TRI"]
    moved = build_scene(STANDARD, position, adjudicate(STANDARD, position, ATTACK))
    assert not struck(moved)  # it may still retreat to Albania: dislodged, not removed
    report = adjudicate(STANDARD, retreats, [])
    scene = build_scene(STANDARD, retreats, report)
    (mark,) = struck(scene)
    assert mark.dislodged and crossed(scene, mark)


def test_units_removed_in_civil_disorder_are_struck_out() -> None:
    start = STANDARD.initial_position()
    centres = {c: p for c, p in start.centres.items() if c not in ("LON", "EDI")}
    winter = start.replace(phase=STANDARD.calendar.parse("W1901A"), centres=centres)
    report = adjudicate(STANDARD, winter, [])
    assert len(report.civil_disorder) == 2
    scene = build_scene(STANDARD, winter, report)
    assert sorted((m.letter, m.fill) for m in struck(scene)) == sorted(
        (u.type.letter, scene.legend[1].colour) for u in report.civil_disorder)
    assert all(crossed(scene, m) for m in struck(scene))


def eagles_report(position: Position, results: list[OrderResult], after: Position,
                  destroyed: tuple[tuple[Unit, str], ...] = ()) -> PhaseReport:
    """A report as the Eagles rules make one (their dice are their own tests' business)."""
    return PhaseReport(results, after, after.replace(phase=EAGLES.calendar.parse("W118A")), None,
                       destroyed=destroyed)


def test_a_unit_destroyed_where_it_moved_to_is_drawn_there_faint_and_struck_out_its_arrow_pointing_there() -> None:
    position = board(EAGLES, "F118M", {"Byzantium": ["A PET", "F BYZ"], "Antiochia": ["A ANT"]})
    move = Move(ref("A PET"), Location("SAR"))
    entered = unit("A SAR", "Byzantium")
    after = position.replace(units=sorted_units([u for u in position.units if str(u) != "A PET"]))
    report = eagles_report(position, [OrderResult("Byzantium", move, unit("A PET", "Byzantium"), True)], after,
                           ((entered, "destroyed by barbarians"),))
    scene = build_scene(EAGLES, position, report)
    (mark,) = struck(scene)
    assert mark.ghost and (mark.x, mark.y) == spot(EAGLES, "SAR") and crossed(scene, mark)
    (arrow,) = [s for s in scene.strokes if s.kind == "move"]
    assert not arrow.dashed
    tip = arrow.head[0]
    assert math.dist(tip, (mark.x, mark.y)) < style.UNIT_RADIUS + 7  # the arrow ends at the removed unit's edge
    svg = render_phase_svg(EAGLES, position, report)
    assert 'opacity="0.5"' in svg and "removed</text>" in svg


def test_a_fleet_sunk_where_it_stood_is_struck_out_there() -> None:
    position = board(EAGLES, "F118M", {"Byzantium": ["F PRO"], "Antiochia": ["F PRO", "A ANT"]})
    sunk = unit("F PRO", "Antiochia")
    after = position.replace(units=sorted_units([u for u in position.units if u != sunk]))
    scene = build_scene(EAGLES, position, eagles_report(position, [], after, ((sunk, "sunk by F PRO"),)))
    (mark,) = struck(scene)
    assert not mark.ghost and not mark.dislodged and crossed(scene, mark)
    assert mark.fill == [e for e in scene.legend if e.name == "Antiochia"][0].colour


def test_a_unit_lost_at_the_end_of_the_season_is_struck_out() -> None:
    position = board(EAGLES, "F118M", {"Byzantium": ["F PRO", "A PET"]})
    storm = position.replace(units=sorted_units([unit("A PET", "Byzantium")]))  # a winter storm sank F PRO
    report = PhaseReport([], position, storm.replace(phase=EAGLES.calendar.parse("W118A")), None)
    assert removals(position, report) == [Removal(unit("F PRO", "Byzantium"), False)]
    (mark,) = struck(build_scene(EAGLES, position, report))
    assert mark.letter == "F"


def test_a_unit_handed_over_or_changed_in_place_is_not_removed() -> None:
    position = board(EAGLES, "F118M", {"Byzantium": ["A PET"]})
    handed = position.replace(units=(unit("A PET", "Antiochia"),))
    report = PhaseReport([], position, handed.replace(phase=EAGLES.calendar.parse("W118A")), None)
    assert removals(position, report) == []


def test_units_disbanded_for_want_of_money_are_struck_out() -> None:
    start = EMPIRE.initial_position()
    build = start.replace(phase=EMPIRE.calendar.parse(f"W{start.phase.year}A"))
    report = adjudicate(EMPIRE, build, [])
    if not report.civil_disorder:  # the treasuries pay the upkeep at the start: make one too poor
        extra = dict(build.extra)
        extra["treasury"] = {**extra["treasury"], next(iter(extra["treasury"])): -10}
        build = build.replace(extra=extra)
        report = adjudicate(EMPIRE, build, [])
    assert report.civil_disorder
    scene = build_scene(EMPIRE, build, report)
    assert len(struck(scene)) == len(report.civil_disorder)
