"""HELP rise-of-rome-ii: every ruling this judge applies, the order forms with an example each
(read by the parser, on the board), in lines of 72 columns at most."""

from __future__ import annotations

from gm.domain.geography import Location
from gm.domain.position import Position
from gm.domain.units import Unit
from gm.orders import OrderGrammar, parse_line
from gm.variants.rise_of_rome_ii.rules import LEADER
from tests.commands.test_help import answer, example_orders
from tests.mail.conftest import Post
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

WIDTH = 72


def test_the_rules_of_rise_of_rome_ii_as_this_judge_reads_them(world: World) -> None:  # noqa: F811
    lines = answer(Post(world), "someone@example.org", "HELP rise-of-rome-ii\n")
    text = "\n".join(lines)
    assert lines[0] == "RISE OF ROME II (Stephen Agar), as this judge reads its rules"
    for heading in ("The calendar (rule 9)", "Leaders (rule 3)", "The Barbarians (rules 4, 5.1)", "Builds (rule 5.2)",
                    "Sacking (rule 6)", "Land bridges (rule 7)", "The map (rule 8)", "Victory (rule 10)",
                    "What the results show"):
        assert heading in lines, heading
    for ruling in ("strength 1/2", "names the home centre its", "a led\n  army attacking with one support has 2 1/2",
                   "two Autumns in a row", "next two\n  movement phases", "an army's\n  attack alone leaves 1 of its 2",
                   "its own supports counted", "even an attack from the space a support goes into",
                   "a\n  leader crosses a bridge so closed", "its leader counts", "not\n  where its own leader stands",
                   "a double\n  unit's gets in", "results of the Winter\n  adjustments",
                   "Zama - Syracuse (across African Sea)", "sacked centres no longer count", "  Caucasus, Dacia, Gaul, Germania.",
                   "A unit may retreat into a space where it could", "a leader and a unit of its own retreating into one",
                   "a support to hold it is void", "Orders (retreats too) may name a"):
        assert ruling in text, ruling
    assert all(len(line) <= WIDTH for line in lines), [line for line in lines if len(line) > WIDTH]


def test_every_example_order_of_rise_of_rome_ii_reads(world: World) -> None:  # noqa: F811
    variant = world.services.catalog.get("rise-of-rome-ii")
    grammar = OrderGrammar.for_variant(variant)
    start = variant.initial_position()
    board = Position(start.phase, start.units + (Unit("Carthage", LEADER, Location("CAR")),
                                                  Unit("Rome", LEADER, Location("ROM"))), start.centres)
    examples = example_orders(answer(Post(world), "someone@example.org", "HELP rise-of-rome-ii\n"))
    assert len(examples) >= 12
    kinds = set()
    for text in examples:
        parsed = parse_line(text, grammar, context=board)
        assert parsed.ok, f"{text}: {parsed.diagnostics}"
        kinds.add(type(parsed.order).__name__)
    assert kinds >= {"Move", "StartsIn", "Lead", "Sack", "SupportMove", "Retreat", "Build", "Disband", "Waive"}
