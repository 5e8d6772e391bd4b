"""What the results text says of each order, as the real engine judges it and the results mail's
template prints it: every dislodged unit marked so whatever it was ordered (njudge's
"bounced, dislodged"), names never broken across lines, builds and removals in one form (the
verb first, as players write them), dice with their size and no die of one face, and a rule's
note only under the orders it does something to."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from gm.adjudicator.engine import adjudicate
from gm.adjudicator.variant import Variant
from gm.games.mailer import make_environment
from gm.games.orderbook import parse_stored
from gm.interchange import adjudicate_json
from gm.orders import OrderGrammar
from gm.reports.results import results_context
from gm.store.codec import decode_position
from gm.variants.catalog import VariantCatalog

CATALOG = VariantCatalog()
STANDARD = CATALOG.get("standard")


def results_text(variant: Variant, phase: str, units: dict[str, list[str]], orders: dict[str, list[str]],
                 centres: dict[str, str] | None = None, **more: Any) -> str:
    """The phase adjudicated as at a deadline, and its results as the results mail prints them."""
    before = decode_position(variant, {"phase": phase, "units": units, "centres": centres or {}, **more})
    grammar = OrderGrammar.for_variant(variant)
    given = [(power, order) for power, lines in orders.items() for order in parse_stored(grammar, lines)]
    report = adjudicate(variant, before, given, seed="results marks")
    context = results_context(variant, phase, report, before)
    return make_environment().get_template("mail/_phase_results.txt.j2").render(game=SimpleNamespace(name="g"),
                                                                                **context)


def broken_names(variant: Variant, text: str) -> list[str]:
    """The names of ``variant``'s places that ``text`` breaks across two lines."""
    found = []
    for province in variant.map.provinces.values():
        words = province.name.split(" ")
        for cut in range(1, len(words)):
            if re.search(re.escape(" ".join(words[:cut])) + r" *\n *" + re.escape(" ".join(words[cut:])), text):
                found.append(province.name)
    return found


def test_a_dislodged_unit_is_marked_dislodged_whatever_it_was_ordered() -> None:
    text = results_text(STANDARD, "F1901M", {
        "Germany": ["A MUN"], "France": ["A MAR"], "Italy": ["A VEN"], "Russia": ["A WAR", "A PRU"],
        "Austria": ["A TYR", "A BOH", "A GAL", "A SIL", "A TRI", "F ADR"],
    }, {
        "Germany": ["A MUN - BUR"], "France": ["A MAR - BUR"], "Italy": ["A VEN H"], "Russia": ["A WAR S A PRU"],
        "Austria": ["A TYR - MUN", "A BOH S A TYR - MUN", "A GAL - WAR", "A SIL S A GAL - WAR", "A TRI - VEN",
                    "F ADR S A TRI - VEN"],
    })
    assert "Germany:   Army Munich -> Burgundy  (*bounced, dislodged*)\n" in text  # moved, bounced, dislodged
    assert "Russia:    Army Warsaw SUPPORT Army Prussia  (*cut, dislodged*)\n" in text  # supported, dislodged
    assert "Italy:     Army Venice HOLD  (*dislodged*)\n" in text  # said once
    assert "France:    Army Marseilles -> Burgundy  (*bounced*)\n" in text  # bounced only
    assert "Austria:   Army Tyrolia -> Munich\n" in text and "Russia:    Army Prussia HOLD (no order)\n" in text
    assert text.count("dislodged*)") == 3


def test_a_dislodged_unit_that_had_no_order_is_marked_too() -> None:
    text = results_text(STANDARD, "S1901M", {"Austria": ["A TYR", "A BOH"], "Germany": ["A MUN"]},
                        {"Austria": ["A TYR - MUN", "A BOH S A TYR - MUN"]})
    assert "Germany:   Army Munich HOLD (no order)  (*dislodged*)\n" in text


def test_names_are_never_broken_across_lines() -> None:
    centres = {"MOS": "Russia", "NWY": "Russia", "RUM": "Russia", "SEV": "Russia", "STP": "Russia", "WAR": "Russia",
               "MUN": "Germany"}
    text = results_text(STANDARD, "F1901M", {"Austria": ["A TYR"], "Russia": ["A MOS"]}, {"Austria": ["A TYR - MUN"]},
                        centres)
    # without names kept whole, textwrap would break this line after "St"
    assert "  Russia:    6 centres,  1 unit: Moscow, Norway, Rumania, Sevastopol,\n      St Petersburg, Warsaw\n" in text
    orders = results_text(STANDARD, "S1901M", {"Russia": ["F BAL", "F STP/SC"], "Germany": ["F KIE"]}, {
        "Russia": ["F BAL S F STP/SC - BOT", "F STP/SC - BOT"], "Germany": ["F KIE - HEL"]})
    assert ("Russia:    Fleet Baltic Sea SUPPORT Fleet St Petersburg (south coast) ->\n"
            "           Gulf of Bothnia\n") in orders
    assert broken_names(STANDARD, text + orders) == [] and "\u00a0" not in text + orders
    assert all(len(line) <= 72 for line in (text + orders).splitlines())


def test_builds_and_removals_read_alike_and_as_players_write_them() -> None:
    text = results_text(STANDARD, "W1901A", {"France": ["A MAR"], "Italy": ["A VEN", "A PIE", "F ROM"]},
                        {"France": ["BUILD A PAR"], "Italy": ["A PIE DISBAND"]},
                        {"PAR": "France", "MAR": "France", "VEN": "Italy", "ROM": "Italy"})
    assert "France:    BUILD Army Paris\nItaly:     REMOVE Army Piedmont\n" in text
    retreat = results_text(STANDARD, "F1901R", {"Italy": ["A ROM"]}, {"Italy": ["DISBAND A VEN"]},
                           dislodged=[{"power": "Italy", "unit": "A VEN", "from": "TYR", "retreats": ["APU"]}])
    assert "Italy:     DISBAND Army Venice\n" in retreat
    # what the results print reads back as the same order
    grammar = OrderGrammar.for_variant(STANDARD)
    assert [str(o) for o in parse_stored(grammar, ["BUILD Army Paris", "REMOVE Army Piedmont",
                                                   "DISBAND Army Venice"])] == ["BUILD A PAR", "DISBAND A PIE",
                                                                                "DISBAND A VEN"]


# -- Diplomacy of the Empire: a fortified city's +1 noted where it can count --------------------

EMPIRE_STATE = {"treasury": {}, "roads": [], "inflation": 1,
                "cities": {"HIS": {"owner": "Hispania", "fort": True, "capital": True},
                           "NAR": {"owner": "Hispania", "fort": True, "capital": False}},
                "control": {"HIS": "Hispania", "NAR": "Hispania"}}


def _empire(units: dict[str, list[str]], orders: dict[str, list[str]]) -> dict[str, list[dict[str, Any]]]:
    document = {"variant": "diplomacy-of-the-empire", "phase": "S-43M", "units": units, "orders": orders,
                "extra": EMPIRE_STATE}
    return adjudicate_json(document, CATALOG)["results"]


def _notes(results: dict[str, list[dict[str, Any]]], power: str, order: str) -> list[str]:
    return next(r for r in results[power] if r["order"] == order).get("notes", [])


def test_a_forts_plus_one_is_noted_under_a_hold_and_under_an_attacked_support_only() -> None:
    quiet = _empire({"Hispania": ["I HIS", "I NAR"]}, {"Hispania": ["I HIS H", "I NAR S I HIS"]})
    assert _notes(quiet, "Hispania", "I HIS H") == ["fortified city: +1 while it holds"]
    assert _notes(quiet, "Hispania", "I NAR S I HIS") == []  # nothing ordered against it: no note
    attacked = _empire({"Hispania": ["I HIS", "I NAR"], "Italia": ["I ITA"]},
                       {"Hispania": ["I HIS H", "I NAR S I HIS"], "Italia": ["I ITA - NAR"]})
    assert _notes(attacked, "Hispania", "I NAR S I HIS") == ["fortified city: +1 against the attack"]
    assert _notes(attacked, "Hispania", "I HIS H") == ["fortified city: +1 while it holds"]
    assert next(r for r in attacked["Italia"] if r["order"] == "I ITA - NAR")["outcome"] == "fails"  # 1 against 1 + 1
