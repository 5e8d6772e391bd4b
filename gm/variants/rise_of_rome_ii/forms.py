"""Rise of Rome II's own orders as HELP ORDERS shows them, each with an example from a power's own
units and leader (gm.orders.forms)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.domain.position import Position
from gm.orders.forms import MOVEMENT, OrderForm
from gm.variants.rise_of_rome_ii import leaders
from gm.variants.rise_of_rome_ii.state import RomeState

if TYPE_CHECKING:
    from gm.variants.rise_of_rome_ii.rules import RiseOfRome


def order_forms(variant: RiseOfRome, leader_type: object) -> tuple[OrderForm, ...]:
    def name(province: str) -> str:
        return variant.map.provinces[province].name

    def sack(position: Position, power: str) -> str | None:
        units = [u for u in position.units_of(power) if u.type is not leader_type]
        sacked = RomeState.of(position).sacked
        barbarian = set(variant.map.powers[variant.barbarians].home)
        able = [u for u in units if u.location.province in variant.map.supply_centres
                and u.location.province not in sacked and u.location.province not in barbarian]
        unit = next((u for u in able if position.centres.get(u.location.province) != power), able[0] if able else None)
        return f"{unit.type.letter} {name(unit.location.province)} sack" if unit is not None else None

    def lead(position: Position, power: str) -> str | None:
        leader = variant.leaders.get(power)
        where = leaders.leader_at(variant, power, position)
        if leader is None or where is None:
            return None
        beside = next((u for u in position.units_of(power) if u.location.province == where.province
                       and u.type is not leader_type), None)
        if beside is None:
            return None
        return f"{leader} leads {beside.type.letter} {name(where.province)}"

    def start(position: Position, power: str) -> str | None:
        leader = variant.leaders.get(power)
        homes = variant.map.powers[power].home if power in variant.map.powers else ()
        if leader is None or not homes:
            return None
        return f"{leader} starts in {name(homes[-1])}"

    return (
        OrderForm("sack", "<unit> SACK", "an army or fleet holding a supply centre sacks it: the centre is gone for "
                  "good and the unit is a double unit for two movement phases (rule 6)", ("sack", "sacks"),
                  MOVEMENT, sack),
        OrderForm("lead", "<leader> LEADS <unit>", "the leader goes where its power's unit in its space goes and adds "
                  "1/2 to it (rule 3.4)", ("leads", "lead"), MOVEMENT, lead),
        OrderForm("starts in", "<leader> STARTS IN <home centre>", "where the leader comes onto the board, with the "
                  "first Spring orders (rule 3.3); without it, in its first home centre", ("starts", "start"),
                  MOVEMENT, start),
    )
