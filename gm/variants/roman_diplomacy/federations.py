"""Rules 5 and 6: federations and gifts. ``FEDERATE``/``DEFEDERATE`` make and leave federations,
each one side in battle (a support against a partner counts for nothing, and is reported void)
and for victory; ``GIVE`` hands units, centres and builds to a partner: the units given follow
their moves, and gifts are carried out after the Fall retreats, or before the builds when made
in the build phase."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gm.adjudicator.effects import Effects
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import MovementOutcome
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Move, Order, SupportHold, SupportMove
from gm.domain.outcomes import OrderResult, Reason
from gm.domain.phases import PhaseKind
from gm.domain.position import Position, sorted_units
from gm.domain.units import Unit
from gm.variants.roman_diplomacy.orders import Defederate, Federate, Give
from gm.variants.roman_diplomacy.state import RomanState

if TYPE_CHECKING:
    from gm.variants.roman_diplomacy.rules import RomanDiplomacy


def declarations(variant: RomanDiplomacy, position: Position, state: RomanState, results: Sequence[OrderResult],
                 log: PhaseLog) -> RomanState:
    """The phase's FEDERATE, DEFEDERATE and (in a retreat phase) GIVE, at its end."""
    asked = {e: set(o) for e, o in state.asked.items()}
    federations = [set(f) for f in state.federations]
    gifts = list(state.gifts)
    for result in results:
        order, power = result.order, result.power
        if not result.succeeded:
            continue
        if isinstance(order, Federate):
            problem = federate_problem(variant, position, state, power, order)
            if problem:
                result.succeeded, result.detail = False, problem
                continue
            asked.setdefault(power, set()).add(empire_named(variant, position, state, order.empire))
        elif isinstance(order, Defederate):
            for federation in federations:
                if power in federation:
                    federation.discard(power)
                    log.announce(f"{power} leaves its federation")
        elif isinstance(order, Give) and position.phase.kind is PhaseKind.RETREATS:
            # (a movement phase's gifts are recorded with its moves, in after_movement; an
            # adjustment phase's are carried out before its builds, in before_builds)
            gifts.append(gift(variant, position, state, power, order))
    federations = _agreements(federations, asked, log)
    kept = tuple(tuple(sorted(f)) for f in federations if len(f) > 1)
    return state.changed(asked={e: tuple(sorted(o)) for e, o in asked.items() if o}, federations=kept,
                         gifts=tuple(gifts))


def _agreements(federations: list[set[str]], asked: dict[str, set[str]], log: PhaseLog) -> list[set[str]]:
    """5: two empires (or federations) become one when every member of each has asked to
    federate with the other."""
    merged = True
    while merged:
        merged = False
        groups = federations + [{e} for e in sorted(set(asked) | {x for o in asked.values() for x in o})
                                if not any(e in f for f in federations)]
        for index, one in enumerate(groups):
            for other in groups[index + 1:]:
                if all(asked.get(m, set()) & other for m in one) and all(asked.get(m, set()) & one for m in other):
                    federations = [f for f in federations if f is not one and f is not other] + [one | other]
                    for member in one | other:
                        asked.pop(member, None)
                    log.announce(f"{' and '.join(sorted(one | other))} federate: one empire in battle and "
                                 "for victory")
                    merged = True
                    break
            if merged:
                break
    return federations


def empires(variant: RomanDiplomacy, position: Position, state: RomanState) -> set[str]:
    """Every empire on the board or founded (a board given without ``empires`` has them too)."""
    return (set(state.empires) | Variant.in_play(variant, position)) - set(variant.unplayed_powers)


def empire_named(variant: RomanDiplomacy, position: Position, state: RomanState, text: str) -> str:
    """The empire a player means, however the name is written (or the text as written)."""
    wanted = text.strip().casefold()
    known = sorted(empires(variant, position, state) | set(state.joining))
    return next((e for e in known if e.casefold() == wanted), text.strip())


def federate_problem(variant: RomanDiplomacy, position: Position, state: RomanState, asker: str,
                     order: Federate) -> str | None:
    other = empire_named(variant, position, state, order.empire)
    if other not in empires(variant, position, state):
        return f"there is no empire {order.empire!r} in the game"
    if other == asker:
        return "an empire cannot federate with itself"
    return None


def gift_problem(variant: RomanDiplomacy, position: Position, state: RomanState, giver: str, order: Give) -> str | None:
    receiver = empire_named(variant, position, state, order.to)
    if receiver not in state.federation_of(giver) or receiver == giver:
        return f"{giver} gives only to an empire of its own federation"
    if order.what == "centre" and order.where is not None and position.centres.get(order.where.province) != giver:
        return f"{variant.map.provinces[order.where.province].name} is not {giver}'s"
    if order.what == "unit" and order.unit is not None and not any(
            u.power == giver and u.location == order.unit.location for u in position.units):
        return f"{giver} has no unit in {variant.map.provinces[order.unit.province].name}"
    return None


def gift(variant: RomanDiplomacy, position: Position, state: RomanState, giver: str, order: Give,
         where: Location | None = None) -> dict[str, str]:
    """A gift as kept in ``extra.gifts``; ``where``: where the unit given stands now."""
    place = where or order.where or (order.unit.location if order.unit else None)
    return {"from": giver, "to": empire_named(variant, position, state, order.to), "what": order.what,
            "where": str(place or "")}


# -- gifts: "Such trades occur after retreats, but before builds" (5) --------------------------

def after_movement(variant: RomanDiplomacy, effects: Effects, outcome: MovementOutcome) -> MovementOutcome:
    """The units given follow their moves; this phase's gifts are recorded where their units
    went; a support the federation makes void fails (reported, not only ignored)."""
    position = effects.position
    state = RomanState.of(position)
    if state.federations:
        void_supports(effects, outcome, state)
    given = [r for r in effects.rulings if isinstance(r.order, Give) and r.counts]
    if not given and not state.gifts:
        return outcome
    went = {(u.power, u.location): where for u, where in outcome.moves}
    gifts = [_followed(g, went) for g in state.gifts]
    for ruling in given:
        order = ruling.order
        assert isinstance(order, Give)
        unit_at = order.unit.location if order.what == "unit" and order.unit is not None else None
        gifts.append(gift(variant, position, state, ruling.power, order,
                          went.get((ruling.power, unit_at), unit_at) if unit_at else None))
    board = position.replace(extra=dict(outcome.extra if outcome.extra is not None else position.extra))
    outcome.extra = RomanState.of(board).changed(gifts=tuple(gifts)).extra(board)
    return outcome


def _followed(gift: Mapping[str, str], went: Mapping[tuple[str, Location], Location | None]) -> Mapping[str, str]:
    if gift["what"] != "unit" or not gift["where"]:  # not a unit, or one gone already
        return gift
    key = (gift["from"], Location.parse(gift["where"]))
    if key not in went:
        return gift
    now = went[key]
    return {**gift, "where": str(now) if now is not None else ""}


def after_retreats(position: Position, moves: Sequence[tuple[Unit, Location | None]]) -> Position:
    """A unit given that was dislodged: its gift follows its retreat (or goes with it)."""
    state = RomanState.of(position)
    if not any(g["what"] == "unit" for g in state.gifts):
        return position
    went = {(u.power, u.location): where for u, where in moves}
    gifts = tuple(_followed(g, went) for g in state.gifts)
    return position.replace(extra=state.changed(gifts=gifts).extra(position))


def before_builds(variant: RomanDiplomacy, position: Position, declarations: Sequence[tuple[str, Order]],
                  log: PhaseLog) -> Position:
    """5: a gift made in the build phase is carried out before its builds."""
    state = RomanState.of(position)
    given = [gift(variant, position, state, power, order) for power, order in declarations
             if isinstance(order, Give) and gift_problem(variant, position, state, power, order) is None]
    if not given:
        return position
    for made in given:
        if made["what"] == "build":
            log.announce(f"{made['from']} gives a build to {made['to']}")
    board = position.replace(extra=state.changed(gifts=(*state.gifts, *given)).extra(position))
    return hand_over(variant, board, log)


def hand_over(variant: RomanDiplomacy, position: Position, log: PhaseLog) -> Position:
    """5: units and centres handed over after the retreats, before the builds, for good (builds
    are counted in ``adjustments``)."""
    state = RomanState.of(position)
    units, centres = list(position.units), position.centres_dict()
    name = variant.map.provinces
    for made in state.gifts:
        giver, taker = made["from"], made["to"]
        if made["what"] == "unit":
            where = Location.parse(made["where"]) if made["where"] else None
            found = next((u for u in units if u.power == giver and u.location == where), None)
            if found is not None:
                units[units.index(found)] = Unit(taker, found.type, found.location)
                log.announce(f"{giver} gives its unit in {name[found.location.province].name} to {taker}")
            else:
                log.announce(f"{giver}'s gift of a unit to {taker} is not carried out: the unit is gone")
        elif made["what"] == "centre" and centres.get(made["where"]) == giver:
            centres[made["where"]] = taker
            log.announce(f"{giver} gives {name[made['where']].name} to {taker}")
    kept = tuple(g for g in state.gifts if g["what"] == "build")
    board = position.replace(units=sorted_units(units), centres=centres)
    return board.replace(extra=state.changed(gifts=kept).extra(board))


def void_supports(effects: Effects, outcome: MovementOutcome, state: RomanState) -> None:
    """5: "Units belonging to the same empire may not support against [each] other": a
    support counts for nothing against a federation partner of the supporting empire (the
    resolution leaves it out of that battle), and its result says so: void when the battles
    it was given for are all against partners (a move into a province where a partner stays,
    a hold against a partner's attack, a move a partner's move into the same province meets),
    else a note of what it did not count against."""
    side_of = {member: " + ".join(federation) for federation in state.federations for member in federation}
    results = outcome.results
    supports: list[tuple[int, SupportMove | SupportHold]] = []
    moving: dict[str, list[Unit]] = {}  # province -> the units ordered to move into it
    for index, ruling in enumerate(effects.rulings):
        if not ruling.acts:
            continue
        order = ruling.acting or ruling.order
        if isinstance(order, Move):
            if ruling.unit is not None:
                moving.setdefault(order.destination.province, []).append(ruling.unit)
        elif isinstance(order, (SupportMove, SupportHold)) and ruling.power in side_of and results[index].succeeded:
            supports.append((index, order))
    if not supports:
        return
    staying: dict[str, list[Unit]] = {}  # province -> the units that did not move out of it
    if any(isinstance(order, SupportMove) for _, order in supports):
        for slot, unit in enumerate(effects.position.units):
            if slot not in outcome.moved:
                staying.setdefault(unit.location.province, []).append(unit)
    for index, order in supports:
        power = effects.rulings[index].power
        result = outcome.results[index]
        side = side_of[power]
        if isinstance(order, SupportMove):
            there = order.destination.province
            kept = [u for u in staying.get(there, ()) if u.power != power and side_of.get(u.power) == side]
            if kept:
                result.succeeded, result.reason = False, Reason.VOID
                result.detail = (f"{kept[0]} is {kept[0].power}'s, of {power}'s own federation: "
                                 "no support against it counts")
                continue
            against = [u for u in moving.get(there, ()) if u.location.province != order.supported.province]
        else:
            there = order.supported.province
            against = [u for u in moving.get(there, ()) if u.location.province != there]
        partners = [u for u in against if u.power != power and side_of.get(u.power) == side]
        if not partners:
            continue
        named = ", ".join(f"{u} ({u.power})" for u in partners)
        if len(partners) == len(against):
            result.succeeded, result.reason = False, Reason.VOID
            result.detail = f"given against {named}, of {power}'s own federation: no support against it counts"
        else:
            result.notes = (*result.notes, f"it counts for nothing against {named}, of {power}'s own federation")
