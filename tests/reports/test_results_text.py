"""The text of a phase's results: what a variant's rules did (dice, units destroyed by a rule,
notes, prevented orders, moves of several steps, second moves) and stacks of alike units."""

from __future__ import annotations

from types import SimpleNamespace

from gm.adjudicator.engine import PhaseReport
from gm.domain.geography import Location
from gm.domain.orders import Move, MoveInRounds, MoveThen, SecondMove, UnitRef
from gm.domain.outcomes import OrderResult, Reason, Roll
from gm.domain.position import Position
from gm.domain.units import ARMY, FLEET, Unit
from gm.games.mailer import make_environment
from gm.reports.results import header_lines, results_context
from gm.variants.catalog import VariantCatalog

VARIANT = VariantCatalog().get("standard")


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.location, unit.type)


def _text(before: Position, report: PhaseReport) -> str:
    context = results_context(VARIANT, str(before.phase), report, before)
    return make_environment().get_template("mail/_phase_results.txt.j2").render(game=SimpleNamespace(name="g"), **context)


def test_alike_units_sharing_a_province_are_each_listed() -> None:
    fleet = Unit("France", FLEET, Location("MAO"))
    before = Position(VARIANT.calendar.parse("S1901M"), (fleet, fleet), {})
    moved = OrderResult("France", Move(_ref(fleet), Location("BRE")), fleet, True)
    after = before.replace(units=(fleet, fleet.moved_to(Location("BRE"))))
    text = _text(before, PhaseReport([moved], after, after.replace(phase=VARIANT.calendar.parse("F1901M")), None))
    assert "France:    Fleet Mid-Atlantic Ocean -> Brest\nFrance:    Fleet Mid-Atlantic Ocean HOLD (no order)\n" in text


def test_what_the_rules_did_is_in_the_results_text() -> None:
    army, fleet, other = Unit("France", ARMY, Location("PAR")), Unit("Germany", FLEET, Location("KIE")), \
        Unit("England", FLEET, Location("LON"))
    before = Position(VARIANT.calendar.parse("S1901M"), (army, fleet, other), {})
    results = [
        OrderResult("France", MoveThen(_ref(army), (Location("BUR"),), (Location("PIC"), Location("BEL"))), army, True,
                    notes=("strength 1½: led by the test", "second move to Picardy and Belgium with the retreats")),
        OrderResult("Germany", MoveInRounds(_ref(fleet), (Location("HEL"), Location("NTH"))), fleet, False,
                    Reason.PREVENTED, "the Sound is frozen"),
    ]
    rolls = (Roll("S1901M", "storm, F LON", 6, 2, "destroyed"), Roll("S1901M", "battle at BUR", 20, 14),
             Roll("S1901M", "the last general's place", 1, 1), Roll("S1901R", "harvest", 6, 5, "5 talents"))
    after = before.replace(units=(army.moved_to(Location("BUR")), fleet))
    report = PhaseReport(results, after, after.replace(phase=VARIANT.calendar.parse("F1901M")), None,
                         rolls=rolls, destroyed=((other, "sunk in a storm"),),
                         announcements=("Aquitania rebels: it returns to the Barbarians",))
    assert _text(before, report) == (
        "Spring 1901 movement results for g.\n"
        "\n"
        "England:   Fleet London HOLD (no order)  (*destroyed: sunk in a storm*)\n"
        "France:    Army Paris -> Burgundy then Picardy -> Belgium\n"
        "             strength 1½: led by the test\n"
        "             second move to Picardy and Belgium with the retreats\n"
        "Germany:   Fleet Kiel -> Helgoland Bight -> North Sea  (*prevented: the\n"
        "           Sound is frozen*)\n"
        "\n"
        "Dice:\n"
        "  Storm, F LON, d6: 2 — destroyed\n"
        "  Battle at BUR, d20: 14\n"
        "  Harvest (Spring 1901 retreats), d6: 5 — 5 talents\n"
        "\n"
        "Destroyed:\n"
        "  The English fleet in London: sunk in a storm.\n"
        "\n"
        "By the rules:\n"
        "  Aquitania rebels: it returns to the Barbarians.\n"
    )


def test_second_moves_are_named_in_the_retreat_results() -> None:
    army = Unit("France", ARMY, Location("BUR"))
    before = Position(VARIANT.calendar.parse("S1901R"), (army,), {})
    second = OrderResult("France", SecondMove(_ref(army), (Location("PIC"),)), army, False, Reason.BOUNCED)
    after = before.replace(units=(army,))
    text = _text(before, PhaseReport([second], after, after.replace(phase=VARIANT.calendar.parse("F1901M")), None))
    assert "France:    Army Burgundy -> Picardy (second move)  (*bounced*)\n" in text


def test_units_without_orders_are_marked_in_the_text_and_in_the_headers() -> None:
    units = tuple(Unit("Russia", ARMY, Location(p)) for p in ("MOS", "WAR", "UKR", "LVN", "FIN", "SIL", "PRU", "GAL",
                                                               "RUM", "SEV", "ARM", "STP"))
    paris = Unit("France", ARMY, Location("PAR"))
    before = Position(VARIANT.calendar.parse("S1901M"), (paris, *units), {})
    moved = OrderResult("France", Move(_ref(paris), Location("BUR")), paris, True)
    after = before.replace(units=(paris.moved_to(Location("BUR")), *units))
    report = PhaseReport([moved], after, after.replace(phase=VARIANT.calendar.parse("F1901M")), None)
    assert "Russia:    Army Moscow HOLD (no order)\n" in _text(before, report)
    lines = results_context(VARIANT, "S1901M", report, before)["unordered"]
    assert lines == [":: Unordered: Russia A ARM, A FIN, A GAL, A LVN, A MOS, A PRU, A RUM,",
                     ":: Unordered: Russia A SEV, A SIL, A STP, A UKR, A WAR"]  # France ordered its unit
    assert all(len(line) <= 72 for line in lines) and header_lines("Unordered", {}) == []
