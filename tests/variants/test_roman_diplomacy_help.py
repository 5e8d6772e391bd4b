"""HELP roman-diplomacy-i and -ii: every ruling this judge applies, the order forms with an example
each (read by the parser, on the board), in lines of 72 columns at most."""

from __future__ import annotations

import pytest

from gm.domain.geography import Location
from gm.domain.units import ARMY, Unit
from gm.orders import OrderGrammar, parse_line
from gm.variants.roman_diplomacy.rules import GARRISON
from tests.commands.test_help import answer, example_orders
from tests.mail.conftest import Post
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

WIDTH = 72
HEADINGS = ("The start (rule 1)", "Joining (rule 2)", "Imperial Cities (rule 3)", "Fleets (rule 4)",
            "Federations (rules 5, 6)", "Barbarians (rule 7)", "Barbarian armies (rule 8)", "Civil disorder (rule 9)",
            "Victory (rule 10)", "What the results show")


@pytest.mark.parametrize(("name", "title", "rulings"), [
    ("roman-diplomacy-i", "ROMAN DIPLOMACY I (Pete Calcraft), as this judge reads its rules",
     ("34 supply centres, without the Kiel canal", "Winter A.D. 99 adjustments", "Spring A.D. 100", "owning 15 supply")),
    ("roman-diplomacy-ii", "ROMAN DIPLOMACY II (Pete Calcraft and Andrew Poole), as this judge reads its rules",
     ("50 supply centres", "reconstructed", "Winter 241 B.C. adjustments", "Spring 240 B.C.", "owning 24 supply",
      "Special build centres (board II)", "may build an army or a fleet\n  there", "in its special build centres")),
])
def test_the_rules_of_roman_diplomacy_as_this_judge_reads_them(world: World, name: str, title: str,  # noqa: F811
                                                                rulings: tuple[str, ...]) -> None:
    lines = answer(Post(world), "someone@example.org", f"HELP {name}\n")
    text = "\n".join(lines)
    assert " ".join(lines[:lines.index("")]) == title
    for heading in HEADINGS:
        assert heading in lines, heading
    for ruling in (*rulings, "the first mail wins", "both must be beaten", "an attack needs a support",
                   "a step too many is refused", "A step that fails ends the journey", "never capture each other's",
                   "at the end of the\n  current phase", "borders barbarian land or the edge of the map",
                   "Two empires raising one in the same province both fail", "in two movement\n  phases in a row, or in three",
                   "Several reaching it at once draw", "JOIN <game> ",
                   # the rulings where the text is open
                   "or of an empire\n  federated with it", 'its result says "void"', "a member's fleet does",
                   "passes where it then stands", "carried out before that phase's builds",
                   "each Spring and each Fall, once its\n  retreats are made", "clears it at once",
                   # sharing a province in retreats, supports against a partner
                   "never beside a neutral garrison or another", "A retreat order is judged by these rules",
                   "a support to hold against a partner's attack", "rules hold: an empire's own support"):
        assert ruling in text, ruling
    assert all(len(line) <= WIDTH for line in lines), [line for line in lines if len(line) > WIDTH]


@pytest.mark.parametrize("name", ["roman-diplomacy-i", "roman-diplomacy-ii"])
def test_every_example_order_of_roman_diplomacy_reads(world: World, name: str) -> None:  # noqa: F811
    variant = world.services.catalog.get(name)
    grammar = OrderGrammar.for_variant(variant)
    start = variant.initial_position()
    board = start.replace(units=(Unit("Latium", GARRISON, Location("ROM")), Unit("Latium", ARMY, Location("ROM")),
                                 *(u for u in start.units if u.location.province != "ROM")))
    examples = example_orders(answer(Post(world), "someone@example.org", f"HELP {name}\n"))
    assert len(examples) >= 14
    kinds = set()
    for text in examples:
        parsed = parse_line(text, grammar, context=board)
        assert parsed.ok, f"{text}: {parsed.diagnostics}"
        kinds.add(type(parsed.order).__name__)
    assert kinds >= {"Move", "MoveInRounds", "SupportMove", "Federate", "Defederate", "Give", "Retreat", "Build",
                     "Disband", "Waive"}
