"""Orders appear on the picture: moves as arrows, supports and convoys as lines, failures dashed."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from gm.adjudicator.engine import adjudicate
from gm.bots.plausible import PlausiblePlayer
from gm.domain.geography import Location
from gm.domain.orders import Build, Convoy, Disband, Move, Order, SupportHold, SupportMove, UnitRef
from gm.domain.phases import PhaseKind
from gm.domain.units import ARMY, FLEET
from gm.render import render_phase_svg
from gm.variants.catalog import VariantCatalog

VARIANT = VariantCatalog().get("standard")
SVG = "{http://www.w3.org/2000/svg}"


def ref(text: str) -> UnitRef:
    letter, where = text.split()
    return UnitRef(Location.parse(where), ARMY if letter == "A" else FLEET)


def order_groups(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if "order" in (g.get("class") or "").split()]


def dashed(group: ET.Element) -> bool:
    paths = group.findall(f"{SVG}path")
    return bool(paths) and all(p.get("stroke-dasharray") for p in paths)


def test_failed_orders_are_dashed_and_the_others_solid() -> None:
    position = VARIANT.initial_position()
    orders: list[tuple[str, Order]] = [
        ("France", Move(ref("A PAR"), Location("BUR"))),
        ("Germany", Move(ref("A MUN"), Location("BUR"))),  # bounce: both fail
        ("England", Move(ref("F LON"), Location("NTH"))),  # succeeds
        ("England", SupportMove(ref("F EDI"), ref("F LON"), Location("NTH"))),  # succeeds
        ("Italy", SupportHold(ref("A ROM"), ref("A VEN"))),  # succeeds (nobody attacks)
        ("Austria", Move(ref("A VIE"), Location("TRI"))),  # fails: F TRI holds
    ]
    report = adjudicate(VARIANT, position, orders)
    outcome = {str(r.order): r.succeeded for r in report.results}
    assert outcome == {
        "A PAR - BUR": False, "A MUN - BUR": False, "F LON - NTH": True,
        "F EDI S F LON - NTH": True, "A ROM S A VEN": True, "A VIE - TRI": False,
    }
    groups = order_groups(render_phase_svg(VARIANT, position, report))
    kinds = sorted((g.get("class") or "").replace("order ", "") for g in groups)
    assert kinds == ["move", "move failed", "move failed", "move failed", "support", "support"]
    for group in groups:
        assert dashed(group) == ("failed" in (group.get("class") or "")), group.get("class")
    moves = [g for g in groups if "move" in (g.get("class") or "")]
    assert all(g.find(f"{SVG}polygon") is not None for g in moves)  # arrowheads


def test_a_convoy_is_drawn_as_a_line_and_its_army_as_an_arrow() -> None:
    position = VARIANT.initial_position()
    position = position.replace(units=tuple(
        u for u in position.units if str(u.location) not in ("LON", "LVP")
    ) + (position.unit_in("LON").moved_to(Location("NTH")), position.unit_in("LVP").moved_to(Location("YOR"))))
    orders: list[tuple[str, Order]] = [
        ("England", Convoy(ref("F NTH"), ref("A YOR"), Location("NWY"))),
        ("England", Move(ref("A YOR"), Location("NWY"), via_convoy=True)),
    ]
    report = adjudicate(VARIANT, position, orders)
    assert all(r.succeeded for r in report.results)
    classes = sorted(g.get("class") for g in order_groups(render_phase_svg(VARIANT, position, report)))
    assert classes == ["order convoy", "order move"]


def test_dislodged_units_retreats_disbands_and_builds() -> None:
    player = PlausiblePlayer(VARIANT, random.Random(5))
    position = VARIANT.initial_position()
    report = None
    while True:
        report = adjudicate(VARIANT, position, player.orders(position))
        if position.phase.kind is PhaseKind.MOVEMENT and report.resolved.dislodged:
            break
        position = report.next
    svg = render_phase_svg(VARIANT, position, report)
    assert svg.count('stroke="#d01c1c"') >= len(report.resolved.dislodged)  # the red rings
    retreat_position = report.next
    assert retreat_position.phase.kind is PhaseKind.RETREATS
    unit = retreat_position.dislodged[0].unit
    orders: list[tuple[str, Order]] = [(unit.power, Disband(UnitRef(unit.location, unit.type)))]
    retreat_report = adjudicate(VARIANT, retreat_position, orders)
    svg = render_phase_svg(VARIANT, retreat_position, retreat_report)
    assert "M" in svg and svg.count("stroke-linecap=\"round\"") >= 1
    root = ET.fromstring(svg)
    crosses = [p for p in root.iter(f"{SVG}path") if (p.get("d") or "").count("M") == 2 and "L" in p.get("d", "")]
    assert crosses, "a disbanded unit is crossed out"


def test_a_build_draws_the_new_unit() -> None:
    position = VARIANT.initial_position()
    # Winter with a free home centre: London empty, England owns it
    from gm.domain.phases import PhaseKind as K

    winter = VARIANT.calendar.phase(1901, "W", K.ADJUSTMENTS)
    position = position.replace(phase=winter, units=tuple(u for u in position.units if str(u.location) != "LON"),
                                centres={**position.centres, "NWY": "England"})
    report = adjudicate(VARIANT, position, [("England", Build(ref("F LON")))])
    assert report.results[0].succeeded
    before = render_phase_svg(VARIANT, position)
    after = render_phase_svg(VARIANT, position, report)
    assert after.count("<g transform=\"translate(") == before.count("<g transform=\"translate(") + 1
