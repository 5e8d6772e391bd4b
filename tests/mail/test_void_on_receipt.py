"""A support, convoy or move that the power's own other orders make void is answered when the
orders arrive, with why; it still counts if the other order changes."""

from __future__ import annotations

import pytest

from gm.domain.geography import Location
from gm.domain.units import ARMY, FLEET, Unit
from gm.games.lifecycle import find_game
from gm.store.codec import encode_position
from tests.mail.conftest import Post, post, secret_of  # noqa: F401  (fixture)

SIGNON = f"SIGNON France g {secret_of('France')}\n"
FRANCE = "france@example.test"


@pytest.fixture
def sea(post: Post) -> Post:
    """France with an army in Brest and fleets in the Mid-Atlantic and the English Channel."""
    services = post.world.services
    with services.db.unit_of_work() as session:
        game = find_game(session, "g")
        position = services.position_of(game)
        units = [u for u in position.units if u.power != "France"] + [
            Unit("France", ARMY, Location("BRE")), Unit("France", ARMY, Location("PAR")),
            Unit("France", FLEET, Location("MAO")), Unit("France", FLEET, Location("ENG")),
        ]
        game.position = encode_position(position.replace(units=tuple(units)))
    return post


def answer_to(post: Post, body: str) -> str:
    post.send(FRANCE, SIGNON + body)
    return post.reply(FRANCE)


def folded(text: str) -> str:
    return " ".join(text.split())


def test_a_convoy_of_an_army_ordered_elsewhere_is_answered_void_with_why(sea: Post) -> None:
    reply = folded(answer_to(sea, "F MAO convoy A Brest - Portugal\nA Brest - Gascony\n"))
    assert ("= Fleet Mid-Atlantic Ocean CONVOY Army Brest -> Portugal note: void as your orders stand: "
            "Army Brest is ordered to Gascony, not to Portugal") in reply
    assert reply.count("void as your orders stand") == 1  # said on its line, not again in the summary


def test_a_later_order_that_voids_an_earlier_one_is_said_in_the_current_orders(sea: Post) -> None:
    assert "void" not in answer_to(sea, "F MAO C A Brest - Portugal\nA Brest - Portugal\n")
    reply = folded(answer_to(sea, "A Brest - Picardy\n"))
    assert ("Fleet Mid-Atlantic Ocean CONVOY Army Brest -> Portugal (void as your orders stand: "
            "Army Brest is ordered to Picardy, not to Portugal)") in reply
    assert "(void as your orders stand: Army Brest is ordered to Picardy" in folded(answer_to(sea, "STATUS\n"))


def test_supports_of_own_units_that_do_otherwise(sea: Post) -> None:
    reply = folded(answer_to(sea, "A Paris S A Brest - Picardy\n"))
    assert "void as your orders stand: Army Brest has no order (so it holds), not a move to Picardy" in reply
    reply = folded(answer_to(sea, "A Paris S A Brest\nA Brest - Gascony\n"))
    assert ("void as your orders stand: Army Brest is ordered to move, and a support to hold helps a unit "
            "that stays") in reply
    reply = folded(answer_to(sea, "A Paris S F ENG - Picardy\nF ENG S F MAO\n"))
    assert ("void as your orders stand: Fleet English Channel is ordered to stay (Fleet English Channel "
            "SUPPORT Fleet Mid-Atlantic Ocean), not to move to Picardy") in reply


def test_matching_orders_and_other_powers_units_get_no_note(sea: Post) -> None:
    assert "void" not in answer_to(sea, "A Paris S A Brest - Picardy\nA Brest - Picardy\nF MAO H\n"
                                        "F ENG S F London\nA Paris S A Brest - Picardy\n")


def test_a_move_only_own_fleets_could_carry_is_answered_until_they_are_ordered(sea: Post) -> None:
    reply = folded(answer_to(sea, "A Brest - Portugal\n"))
    assert ("= Army Brest -> Portugal note: no convoy as your orders stand: only your own fleets could "
            "carry it, and not all are ordered to") in reply
    reply = folded(answer_to(sea, "F MAO C A Brest - Portugal\n"))
    assert "no convoy" not in reply and "void" not in reply


def test_where_the_power_has_two_units_in_one_province_the_deadline_judges() -> None:
    """Which of two units a support names is not known on receipt (a garrison beside an army,
    fleets sharing a sea): no note is made for them; one unit alone in its province still gets it."""
    from gm.domain.orders import SupportMove, UnitRef
    from gm.games.voids import void_by_own_orders
    from gm.reports.names import Namer
    from gm.variants.catalog import VariantCatalog

    variant = VariantCatalog().get("standard")
    start = variant.initial_position()
    units = [u for u in start.units if u.power != "France"] + [
        Unit("France", ARMY, Location("PAR")), Unit("France", FLEET, Location("PAR")),
        Unit("France", ARMY, Location("BUR")), Unit("France", ARMY, Location("GAS"))]
    board = start.replace(units=tuple(units))
    orders = [SupportMove(UnitRef(Location("BUR")), UnitRef(Location("PAR")), Location("PIC")),
              SupportMove(UnitRef(Location("BUR")), UnitRef(Location("GAS")), Location("MAR"))]
    found = void_by_own_orders(variant, board, "France", orders, Namer(variant, board))
    assert list(found) == [1] and "Army Gascony has no order" in found[1]
