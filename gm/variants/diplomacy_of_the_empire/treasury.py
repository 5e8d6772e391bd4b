"""Rules 4, 5 and 10: control, tribute and inflation, and payments. Blank land is taken in any
season, another's only in the Fall; after the Fall each claimant collects the tribute of what
it controls (without its home: only where its units stand; the taker of a home takes its
treasury, once); inflation doubles and triples prices past the marks; PAY goes to the payee's
home, intercepted by whoever holds it, or stands in it at the end of a Fall phase."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gm.adjudicator.phaselog import PhaseLog
from gm.domain.outcomes import OrderResult, Reason
from gm.domain.position import Position
from gm.variants.diplomacy_of_the_empire import economy
from gm.variants.diplomacy_of_the_empire.economy import talents
from gm.variants.diplomacy_of_the_empire.orders import Pay
from gm.variants.diplomacy_of_the_empire.state import City, EmpireState

if TYPE_CHECKING:
    from gm.variants.diplomacy_of_the_empire.rules import DiplomacyOfTheEmpire

DOUBLE_AT, TRIPLE_AT = "inflation_double_at", "inflation_triple_at"  # the game's options (rules:)


def _option(variant: DiplomacyOfTheEmpire, position: Position, name: str) -> int:
    return int(position.extra.get(name, variant.options[name]))  # type: ignore[call-overload]


def payment_problem(position: Position, state: EmpireState, payer: str, order: Pay) -> str | None:
    if order.to == payer:
        return f"{payer} cannot pay itself"
    if order.to not in state.treasury:
        return f"{order.to} is not a claimant of this game"
    have = state.treasury.get(payer, 0)
    if order.amount > have:
        return f"{payer} has {talents(have)}, not {order.amount}"
    return None


def payments(variant: DiplomacyOfTheEmpire, position: Position, state: EmpireState,
             results: Sequence[OrderResult], log: PhaseLog) -> EmpireState:
    """10: each payment in the order given, never more than the payer has then; paid to the
    payee's home province, so whoever holds it (or, at the end of a Fall phase, stands in
    it) takes it."""
    treasury = dict(state.treasury)
    fall = variant.calendar.season_of(position.phase).code == "F"
    for result in results:
        order = result.order
        if not isinstance(order, Pay) or not result.succeeded:
            continue
        payer = result.power
        if order.amount > treasury.get(payer, 0):
            fail(result, f"{payer} has only {talents(treasury.get(payer, 0))} left")
            continue
        home = variant.homes[order.to]
        standing = {u.power for u in position.units if u.location.province == home} if fall else set()
        taker = next(iter(standing - {order.to}), None) or state.control.get(home, order.to)
        treasury[payer] -= order.amount
        treasury[taker] = treasury.get(taker, 0) + order.amount
        if taker != order.to:
            result.notes = (*result.notes, f"intercepted by {taker}, who holds {variant.name_of(home)}")
            log.announce(f"{taker} intercepts {talents(order.amount)} paid by {payer} to {order.to}")
    return state.changed(treasury=treasury)


def season_end(variant: DiplomacyOfTheEmpire, position: Position, log: PhaseLog) -> Position:
    """4, 5: control after a Spring or a Fall; tribute and inflation after a Fall."""
    season = variant.calendar.season_of(position.phase).code
    if season == "W":
        return position
    state = EmpireState.of(position)
    control = dict(state.control)
    for unit in position.units:
        province = unit.location.province
        if province in variant.tribute_of and (season == "F" or province not in control):
            control[province] = unit.power  # 4: blank land any season; another's only in the Fall
    taken = {p: control[h] for p, h in variant.homes.items()
             if p in state.treasury and state.control.get(h) == p and control.get(h) not in (p, None)}
    was = state.cities
    cities = {p: City(control.get(p, c.owner), c.fort, c.capital) for p, c in was.items()}
    state = state.changed(control=control, cities=cities)
    for province, city in sorted(cities.items()):
        if city.owner != was[province].owner:
            state = state.changed(roads=variant.roads.with_city(state, province))
            log.announce(f"{city.owner} takes the {'fortified ' * city.fort}city of {variant.name_of(province)}")
    if season == "F":
        state = _collect(variant, position, state, taken, log)
    return position.replace(extra=state.extra(position))

def _collect(variant: DiplomacyOfTheEmpire, position: Position, state: EmpireState, taken: Mapping[str, str],
             log: PhaseLog) -> EmpireState:
    """4, 5, 7: each claimant's tribute after the Fall; a claimant without its home only where
    its units stand; the taker of a home takes its treasury and the tribute of its
    territories without its units, once (not counted for inflation)."""
    occupied = {(u.power, u.location.province) for u in position.units}
    collected: dict[str, int] = {}

    def tribute(power: str, province: str) -> int:  # a territory's, with its city's if the power's
        city = state.cities.get(province)
        return variant.tribute_value(position, province) + (
            economy.CITY_TRIBUTE if city is not None and city.owner == power else 0)

    for power in sorted(state.treasury):
        mine = [p for p, owner in state.control.items() if owner == power
                and (not home_lost(variant, state, power) or (power, p) in occupied)]
        collected[power] = sum(tribute(power, p) for p in mine)
    treasury = {p: t + collected[p] for p, t in state.treasury.items()}
    for loser, taker in sorted(taken.items()):
        lost = [p for p, owner in state.control.items() if owner == loser and (loser, p) not in occupied]
        bonus = state.treasury[loser] + sum(tribute(loser, p) for p in lost)
        treasury[taker] = treasury.get(taker, 0) + bonus
        treasury[loser] -= state.treasury[loser]
        log.announce(f"{taker} takes {variant.name_of(variant.homes[loser])}, {loser}'s home, and with it "
                     f"{talents(bonus)} of its treasury and tribute")
    for power in sorted(collected):
        if collected[power] or power in variant.in_play(position):
            log.announce(f"{power} collects {talents(collected[power])} of tribute "
                         f"(treasury {talents(treasury[power])})")
    stage = economy.inflation_after(state.inflation, collected, _option(variant, position, DOUBLE_AT),
                                    _option(variant, position, TRIPLE_AT))
    if stage > state.inflation:
        log.announce(f"inflation: from this build phase every price and the upkeep are "
                     f"{'doubled' if stage == 2 else 'tripled'}")
    return state.changed(treasury=treasury, tribute=collected, inflation=stage)


def home_lost(variant: DiplomacyOfTheEmpire, state: EmpireState, power: str) -> bool:
    return state.control.get(variant.homes[power]) != power


def fail(result: OrderResult, why: str) -> None:
    result.succeeded = False
    result.reason = Reason.PREVENTED
    result.detail = why
