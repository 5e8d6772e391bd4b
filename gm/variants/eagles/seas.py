"""Rules 3 and 4: dice at sea. Fleets at sea share their sea whatever their powers; the
``Attack`` order is resolved before the land battles: where every fleet is once the moves are
judged with the attacks holding (a fleet whose move fails stays where it was, and its move stays
failed after the attacks), the attacks in the order of a die each (ties rolled again), each with
its die and the table; an attacked supporting fleet gives no support; an army whose convoy
failed because a convoying fleet was sunk goes down with it. At the end of every Fall each fleet
at sea rolls for the winter storms; damage is kept in ``extra.damaged`` until the end of the next
Spring move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gm.adjudicator.effects import Effects
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import Illegal, MovementOutcome
from gm.domain.geography import Terrain
from gm.domain.orders import Convoy, Hold, Move, SupportHold, SupportMove
from gm.domain.outcomes import Reason
from gm.domain.position import Position, sorted_units
from gm.domain.units import ARMY, FLEET, Unit
from gm.variants.eagles.orders import Attack
from gm.variants.eagles.setup import NEUTRAL
from gm.variants.eagles.state import EaglesState

if TYPE_CHECKING:
    from gm.variants.eagles.rules import Eagles

LIGHT, SEVERE = "light", "severe"


def review_attack(variant: Eagles, unit: Unit | None, order: Attack) -> Attack:
    """3: an attack as it counts (``Illegal``: why it may not be given)."""
    if unit is None or unit.type is not FLEET:
        raise Illegal("only a fleet attacks (fleets)")
    if order.target.type not in (None, FLEET):
        raise Illegal("a fleet attacks only fleets")
    here, there = unit.location.province, order.target.province
    if there not in variant.map.provinces or variant.map.provinces[there].terrain is Terrain.LAND:
        raise Illegal(f"no fleet can be in {variant.name_of(there) if there in variant.map.provinces else there}")
    if here == there and here not in variant.seas:
        raise Illegal("a fleet in port attacks along the coast, not its own port")
    if here != there and not variant.can_support_into(unit, there):
        raise Illegal(f"{variant.name_of(there)} is not within reach of {unit}: a fleet attacks in its own sea, "
                      "a port next to it, or (in port) along the coast")
    if here != there and here in variant.seas and there in variant.seas:
        raise Illegal("a fleet attacks fleets in its own sea, not in the next one")
    if order.owner is not None and order.owner == NEUTRAL:
        raise Illegal("there are no neutral fleets")
    return Attack(order.unit if order.unit.type else order.unit._replace(type=FLEET),
                  order.target._replace(type=FLEET), order.owner)


def attack_problem(variant: Eagles, position: Position, power: str, order: Attack) -> str | None:
    there = order.target.province
    owners = sorted({u.power for u in position.units if u.type is FLEET and u.location.province == there
                     and u.power != power} | ({order.owner} if order.owner else set()))
    if order.owner == power:
        return "a fleet does not attack its own power's fleets"
    if order.owner is None and not owners:
        return (f"no other power's fleet is in {variant.name_of(there)} to attack (to attack fleets sailing in, "
                f"name their power: {order.unit} attacks {order.target} (<power>))")
    if order.owner is not None and not any(
            u.power == order.owner and u.type is FLEET
            and (u.location.province == there or variant.destinations(u, there)) for u in position.units):
        return f"{order.owner} has no fleet in or next to {variant.name_of(there)} to attack"
    if order.owner is None and len(owners) != 1:
        return (f"say whose fleets in {variant.name_of(there)} are attacked: "
                f"{order.unit} attacks {order.target} (<power>)")
    return None


def damage_by_slot(position: Position) -> dict[int, str]:
    """4: which units are damaged; among identical fleets the damaged ones take the last slots
    (a player's first orders for them go to the sound ones)."""
    state = EaglesState.of(position)
    found: dict[int, str] = {}
    for (power, text) in {(p, u) for p, u, _ in state.damaged}:
        slots = [s for s, u in enumerate(position.units) if u.power == power and str(u) == text]
        marks = sorted((d for p, u, d in state.damaged if (p, u) == (power, text)), key=[LIGHT, SEVERE].index)
        for slot, mark in zip(slots[len(slots) - len(marks):] if len(marks) <= len(slots) else slots,
                              marks[-len(slots):] if slots else []):
            found[slot] = mark
    return found


def attacks(variant: Eagles, effects: Effects) -> None:
    """3: the attacks at sea, before the land battles."""
    position = effects.position
    units = position.units
    attacks: dict[tuple[str, str, str, str], list[int]] = {}
    for index, ruling in enumerate(effects.rulings):
        order = ruling.order
        if not ruling.counts or not isinstance(order, Attack) or ruling.unit is None:
            continue
        effects.resolve_as(index, Hold(order.unit))
        owner = order.owner or next(u.power for u in units if u.type is FLEET and u.power != ruling.power
                                    and u.location.province == order.target.province)
        key = (ruling.power, ruling.unit.location.province, order.target.province, owner)
        attacks.setdefault(key, []).append(ruling.slot)
    if not attacks:
        return
    after = _after_naval_movements(effects)
    for ruling in effects.rulings:  # the naval movements are made: a fleet's move that failed stays failed
        fleet = ruling.unit
        if ruling.counts and fleet is not None and fleet.type is FLEET and isinstance(ruling.order, Move) \
                and after[ruling.slot] == fleet.location.province:
            effects.fail(ruling.slot)
    attacked: dict[int, str] = {}
    for key in _order_of_attacks(effects, list(attacks), attacks):
        _attack(variant, effects, key, attacks[key], after, attacked)
    for slot, by in attacked.items():
        found = effects.ruling_for(slot)
        if found is not None and slot not in effects.destroyed \
                and isinstance(effects.rulings[found].order, (SupportHold, SupportMove)):
            effects.prevent(found, f"attacked at sea by {by}: an attacked fleet gives no support")

def _after_naval_movements(effects: Effects) -> dict[int, str]:
    """3: "All naval movements are made before attacks are resolved": where each fleet is once
    the phase's moves are judged with every order as given, the attacks holding (a fleet
    whose move failed stays where it was, and its move is not judged again after the
    attacks: ``Effects.fail``). Fleet slot -> its province."""
    moved = effects.preview().moved
    return {slot: (moved[slot] if slot in moved else unit.location).province
            for slot, unit in enumerate(effects.position.units) if unit.type is FLEET}

def _label(units: Sequence[Unit]) -> str:
    return ", ".join(str(u) for u in units) + f" ({units[0].power})"

def _order_of_attacks(effects: Effects, keys: list[tuple[str, str, str, str]],
                      attacks: dict[tuple[str, str, str, str], list[int]]) -> list[tuple[str, str, str, str]]:
    """3b: one die per attack, highest first; attacks that tie roll again among themselves."""
    if len(keys) < 2:
        return keys
    units = effects.position.units
    ranked: list[tuple[str, str, str, str]] = []
    last: dict[tuple[str, str, str, str], Any] = {}
    groups = [keys]
    while groups:
        group = groups.pop(0)
        if len(group) == 1:
            ranked.append(group[0])
            continue
        by_value: dict[int, list[tuple[str, str, str, str]]] = {}
        for key in group:
            _power, _here, there, owner = key
            attackers = tuple(units[s] for s in attacks[key])
            roll = effects.roll(f"order of attacks: {_label(attackers)} on fleets in {there} ({owner})",
                                units=attackers)
            roll.effect = "tie: rolled again"
            last[key] = roll
            by_value.setdefault(roll.value, []).append(key)
        groups = [by_value[v] for v in sorted(by_value, reverse=True)] + groups
    for rank, key in enumerate(ranked, 1):
        last[key].effect = f"attack {rank} of {len(ranked)}"
    return ranked

def _attack(variant: Eagles, effects: Effects, key: tuple[str, str, str, str], slots: list[int],
            after: dict[int, str], attacked: dict[int, str]) -> None:
    """3b: one attack: a D6, +1 for two attackers, +2 for three or more, and the table."""
    units = effects.position.units
    power, _here, there, owner = key
    attackers = [s for s in slots if s not in effects.destroyed]
    defenders = [s for s, p in after.items() if p == there and units[s].power == owner
                 and s not in effects.destroyed]
    if not attackers:
        return
    names = _label([units[s] for s in attackers])
    if not defenders:
        for slot in attackers:
            effects.note(slot, f"no fleet of {owner} in {variant.name_of(there)} to attack")
        return
    for slot in defenders:
        attacked.setdefault(slot, names)
    bonus = 2 if len(attackers) >= 3 else 1 if len(attackers) == 2 else 0
    targets = _label([units[s] for s in defenders])
    roll = effects.roll(f"attack by {names} on {targets}", units=tuple(units[s] for s in attackers + defenders))
    total = roll.value + bonus
    shown = f"{total} ({roll.value}+{bonus})" if bonus else str(total)
    sunk_attackers: list[int] = []
    sunk_defenders: list[int] = []
    if total == 1:
        sunk_attackers = attackers[-1:]
    elif total == 2:
        sunk_attackers = list(attackers)
    elif total == 3:
        each = 1
        if len(defenders) > 1:
            die = effects.roll(f"defender's die: {targets} against {names}",
                               units=tuple(units[s] for s in defenders))
            each = 2 if die.value % 2 == 0 else 1
            die.effect = f"{'even' if each == 2 else 'odd'}: {each} fleet{'s' * (each > 1)} of each side sunk"
        sunk_attackers, sunk_defenders = attackers[-each:], defenders[-each:]
    elif total == 6:
        sunk_defenders = defenders[-1:]
    elif total >= 7:
        sunk_defenders = defenders[-2:]
    for slot in sunk_attackers:
        effects.destroy(slot, f"sunk attacking {targets}")
    for slot in sunk_defenders:
        effects.destroy(slot, f"sunk by {names}")
    lost = [f"{units[s]} ({units[s].power})" for s in sunk_attackers + sunk_defenders]
    roll.effect = f"{shown}: " + (", ".join(lost) + " sunk" if lost else "no effect")
    for slot in attackers:
        effects.note(slot, f"attack on {targets}: {roll.effect}")


def naval_moves_failed(effects: Effects, outcome: MovementOutcome) -> None:
    """3: a fleet's move that failed with the naval movements says so where the attacks left
    its way open after all (nobody stands where it was going)."""
    failed, sunk = effects.failed, effects.destroyed
    moves = [(index, order.destination.province) for index, ruling in enumerate(effects.rulings)
             if ruling.slot in failed and ruling.slot not in sunk and ruling.counts
             and isinstance(order := ruling.order, Move)]
    if not moves:
        return
    standing = {u.location.province for u in outcome.units}
    for index, province in moves:
        if province not in standing:
            result = outcome.results[index]
            result.notes = (*result.notes, "it failed with the naval movements, made before the attacks at sea")

def lost_with_convoys(effects: Effects, outcome: MovementOutcome) -> list[Unit]:
    """3c: an army whose convoy failed for want of a fleet sunk at sea goes down with it."""
    lost = []
    sunk = set(effects.destroyed)
    for index, ruling in enumerate(effects.rulings):
        result = outcome.results[index]
        if not ruling.counts or ruling.unit is None or ruling.unit.type is not ARMY \
                or not isinstance(ruling.order, Move) or result.succeeded or result.reason is not Reason.NO_CONVOY:
            continue
        carried = [r.slot for r in effects.rulings if r.counts and isinstance(r.order, Convoy)
                   and r.order.army.province == ruling.unit.location.province
                   and r.order.destination.province == ruling.order.destination.province]
        if any(slot in sunk for slot in carried) and ruling.unit in outcome.units:
            lost.append(ruling.unit)
            result.notes = (*result.notes, "lost at sea: a fleet convoying it was sunk")
    return lost


def storms(variant: Eagles, position: Position, log: PhaseLog) -> Position:
    """4: every fleet at sea rolls: 1 severely damaged, 2 destroyed, 3 lightly damaged."""
    state = EaglesState.of(position)
    units = list(position.units)
    damaged: list[tuple[str, str, str]] = []
    phase = str(position.phase)
    for unit in position.units:
        if unit.type is not FLEET or unit.location.province not in variant.seas:
            continue
        roll = log.roll(phase, f"storm: {unit} ({unit.power})", units=(unit,))
        if roll.value == 2:
            units.remove(unit)
            roll.effect = f"{unit} ({unit.power}) destroyed"
        elif roll.value in (1, 3):
            mark = SEVERE if roll.value == 1 else LIGHT
            damaged.append((unit.power, str(unit), mark))
            roll.effect = f"{unit} ({unit.power}) {'severely' if mark == SEVERE else 'lightly'} damaged"
        else:
            roll.effect = "no effect"
    board = position.replace(units=sorted_units(units))
    return board.replace(extra=state.changed(damaged=tuple(damaged)).extra(board))
