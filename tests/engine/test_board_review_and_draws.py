"""Two hooks of a variant whose rules read the board or draw the start with the game's dice:
``review_on_board`` (orders refused because of the state of the board, on submission as at the
deadline) and ``powers_in_play`` (the powers a game of fewer players plays); and the flag
``rolls_dice`` by which such a game's mails publish its dice commitment."""

from __future__ import annotations

from collections.abc import Sequence

from gm.adjudicator.legality import review_movement
from gm.adjudicator.parts import Parts
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import Ruling
from gm.domain.orders import Hold, Move
from gm.domain.outcomes import Reason
from gm.domain.position import Position
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import SETUP, Setup, setup_of

from .deltas import Seas, loc, position, ref
from .helpers import result_of, run


class Anchored(Seas):
    """Fleets listed in ``extra.anchored`` may only hold."""

    def review_on_board(self, position: Position, rulings: Sequence[Ruling]) -> None:
        anchored = set(position.extra.get("anchored", ()))
        for ruling in rulings:
            if ruling.illegal is None and ruling.unit is not None and str(ruling.unit) in anchored \
                    and not isinstance(ruling.order, Hold):
                ruling.illegal = f"{ruling.unit} is anchored: it only holds"


ANCHORED = Anchored()


def test_an_order_the_board_forbids_is_refused_and_the_unit_follows_its_last_legal_order() -> None:
    board = position(ANCHORED, "S118M", {"Roma": ["F MIN", "F MSA"]}, extra={"anchored": ["F MIN"]})
    orders = [("Roma", Hold(ref(ANCHORED, "F MIN"))), ("Roma", Move(ref(ANCHORED, "F MIN"), loc("CAR"))),
              ("Roma", Move(ref(ANCHORED, "F MSA"), loc("CAR")))]
    report = run(ANCHORED, board, orders)
    refused = result_of(report, "F MIN - CAR")
    assert (refused.reason, refused.detail) == (Reason.ILLEGAL, "F MIN is anchored: it only holds")
    assert result_of(report, "F MIN H").succeeded  # the earlier legal order still counts
    assert result_of(report, "F MSA - CAR").succeeded


def test_the_board_is_read_in_the_review_that_checks_orders_on_submission() -> None:
    board = position(ANCHORED, "S118M", {"Roma": ["F MIN"]}, extra={"anchored": ["F MIN"]})
    (ruling,) = review_movement(ANCHORED, board, [("Roma", Move(ref(ANCHORED, "F MIN"), loc("CAR")))])
    assert ruling.illegal == "F MIN is anchored: it only holds"


class Drawing(Setup):
    """Powers in play drawn one by one with the dice, from the map's powers in their order."""

    def powers_in_play(self, count: int, log: PhaseLog) -> list[str]:
        left, drawn = list(self.variant.map.powers), []
        for number in range(count):
            roll = log.roll("setup", f"power {number + 1}", len(left))
            drawn.append(left.pop(roll.value - 1))
            roll.effect = drawn[-1]
        return drawn


def test_a_variant_may_draw_its_powers_in_play_with_the_games_dice() -> None:
    variant = Seas()
    variant.parts = Parts({SETUP.name: lambda: Drawing(variant)})
    first, again = PhaseLog("seed a"), PhaseLog("seed a")
    drawn = setup_of(variant).powers_in_play(4, first)
    assert drawn == setup_of(variant).powers_in_play(4, again) and len(set(drawn)) == 4
    assert [r.sides for r in first.rolls] == [12, 11, 10, 9] and [r.effect for r in first.rolls] == drawn
    assert any(setup_of(variant).powers_in_play(4, PhaseLog(f"seed {n}")) != drawn for n in "bcd")


def test_standard_play_plays_every_power_and_rolls_no_dice() -> None:
    standard = VariantCatalog().get("standard")
    log = PhaseLog(None)  # no seed: a die rolled would be refused
    assert setup_of(standard).powers_in_play(7, log) == list(standard.map.powers) and log.rolls == []
    assert standard.rolls_dice is False
