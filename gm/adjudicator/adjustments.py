"""Resolving an adjustment phase: builds, removals, waives and civil disorder.

Orders are taken one by one in the order given (DATC 4.D.4–4.D.6: the first legal ones
count). A power that removes too few loses the units farthest from its nearest owned supply
centre, counting steps over land and sea alike; fleets go before armies at equal distance,
then alphabetically by province name (2023 rules, DATC 6.J).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gm.adjudicator.refusals import refusals_of
from gm.adjudicator.variant import Adjustment, Variant
from gm.domain.geography import Location, Terrain
from gm.domain.orders import Build, Disband, Order, UnitRef, Waive
from gm.domain.outcomes import Reason
from gm.domain.position import Position
from gm.domain.units import Mobility, Unit, UnitType


# Constructors written out, not generated (nor frozen): compiled (setup.py), they then run no
# Python, and an adjustment phase makes an outcome per order.
@dataclass(slots=True, init=False)
class AdjustmentOutcome:
    index: int  # into the submitted orders
    order: Order
    unit: Unit | None
    succeeded: bool
    reason: Reason | None
    detail: str

    def __init__(self, index: int, order: Order, unit: Unit | None, succeeded: bool,
                 reason: Reason | None = None, detail: str = "") -> None:
        self.index = index
        self.order = order
        self.unit = unit
        self.succeeded = succeeded
        self.reason = reason
        self.detail = detail


@dataclass(slots=True, init=False)
class AdjustmentResult:
    outcomes: list[AdjustmentOutcome]
    units: list[Unit]
    civil_disorder: list[Unit]  # units removed because too few removals were ordered

    def __init__(self, outcomes: list[AdjustmentOutcome], units: list[Unit], civil_disorder: list[Unit]) -> None:
        self.outcomes = outcomes
        self.units = units
        self.civil_disorder = civil_disorder


def resolve_adjustments(
    variant: Variant, position: Position, submitted: Sequence[tuple[str, Order]]
) -> AdjustmentResult:
    plan = {a.power: a for a in variant.adjustments(position)}
    state = _State(variant, position, plan)
    outcomes = [state.take(index, power, order) for index, (power, order) in enumerate(submitted)]
    if variant.rival_builds_fail:
        outcomes = state.rivals_fail(outcomes)
    disorder = state.civil_disorder()
    removed = state.removed | set(disorder)
    kept = [u for slot, u in enumerate(position.units) if slot not in removed] if removed else list(position.units)
    units = kept + state.built
    return AdjustmentResult(outcomes, units, [position.units[slot] for slot in disorder])


class _State:
    def __init__(self, variant: Variant, position: Position, plan: Mapping[str, Adjustment]):
        self.variant = variant
        self.position = position
        self.plan = plan
        self.used: dict[str, int] = {}
        self.built: list[Unit] = []
        self.built_in: dict[str, set[str]] = {}  # power -> provinces it builds in
        self.removed: set[int] = set()  # slots: indexes in the position's units

    def take(self, index: int, power: str, order: Order) -> AdjustmentOutcome:
        adjustment = self.plan.get(power)
        count = adjustment.count if adjustment else 0
        if not isinstance(order, (Build, Waive, Disband)):
            return _refused(index, order, "only builds, removals and waives in an adjustment phase")
        if isinstance(order, Disband):
            return self._remove(index, power, order, count)
        if adjustment is None or count <= 0 or self.used.get(power, 0) >= count:
            return _refused(index, order, refusals_of(self.variant).builds_refusal(self.position, power, max(count, 0)))
        if isinstance(order, Waive):
            self.used[power] = self.used.get(power, 0) + 1
            return AdjustmentOutcome(index, order, None, True)
        return self._build(index, power, order, adjustment)

    def _build(self, index: int, power: str, order: Build, adjustment: Adjustment) -> AdjustmentOutcome:
        location = order.unit.location
        province = self.variant.map.provinces[location.province]
        taken = self._taken(power, location.province)
        if location.province not in adjustment.build_sites or taken:
            if taken:
                return _refused(index, order, f"a unit is already being built in {province.name}")
            return _refused(index, order, refusals_of(self.variant).build_site_refusal(self.position, power, location.province))
        unit_type = order.unit.type or self._implied_type(location)
        if unit_type is None:
            return _refused(index, order, f"say whether to build an army or a fleet in {province.name}")
        if unit_type not in self.variant.buildable_types_at(self.position, power, location.province):
            article = "an" if unit_type.name[:1] in "aeiou" else "a"
            return _refused(index, order, f"{power} cannot build {article} {unit_type.name} in {province.name}")
        if unit_type.needs_coast and province.coasts and location.coast not in province.coasts:
            return _refused(index, order, f"say which coast of {province.name}")
        if unit_type.mobility is Mobility.LAND:
            location = location.whole  # DATC 4.B.6: a coast means nothing to an army
        if not self.variant.can_stand(unit_type, location):
            return _refused(index, order, f"a {unit_type.name} cannot stand in {province.name}")
        unit = Unit(power, unit_type, location)
        self.used[power] = self.used.get(power, 0) + 1
        self.built.append(unit)
        provinces = self.built_in.get(power)
        if provinces is None:
            self.built_in[power] = {location.province}
        else:
            provinces.add(location.province)
        return AdjustmentOutcome(index, _as_written(order, Build, unit), unit, True)

    def _taken(self, power: str, province: str) -> bool:
        """Is a unit already being built there (by this power, where rival builds clash later)?"""
        if self.variant.rival_builds_fail:
            return province in self.built_in.get(power, ())
        return any(province in provinces for provinces in self.built_in.values())

    def rivals_fail(self, outcomes: list[AdjustmentOutcome]) -> list[AdjustmentOutcome]:
        """Builds of two powers in one province both fail (``Variant.rival_builds_fail``)."""
        builders: dict[str, set[str]] = {}
        for outcome in outcomes:
            if outcome.succeeded and outcome.unit is not None and isinstance(outcome.order, Build):
                builders.setdefault(outcome.unit.location.province, set()).add(outcome.unit.power)
        clashes = {p for p, powers in builders.items() if len(powers) > 1}
        if not clashes:
            return outcomes
        self.built = [u for u in self.built if u.location.province not in clashes]
        return [AdjustmentOutcome(o.index, o.order, o.unit, False, Reason.BOUNCED, "another power builds there too")
                if o.succeeded and o.unit is not None and isinstance(o.order, Build) and o.unit.location.province in clashes
                else o for o in outcomes]

    def _implied_type(self, location: Location) -> UnitType | None:
        """DATC 4.C.3: an army inland; a fleet where a coast is named; otherwise ask."""
        terrain = self.variant.map.provinces[location.province].terrain
        wanted = Mobility.LAND if terrain is Terrain.LAND else Mobility.SEA if location.coast else None
        return next((t for t in self.variant.unit_types if t.mobility is wanted), None) if wanted else None

    def _remove(self, index: int, power: str, order: Disband, count: int) -> AdjustmentOutcome:
        slot = self._named(power, order.unit)
        name = self.variant.map.provinces[order.unit.province].name
        if slot is None:
            return _refused(index, order, f"{power} has no unit in {name}")
        unit = self.position.units[slot]
        if not self.variant.supplied(unit):
            return _refused(index, order,
                            f"the {unit.type.name} in {name} needs no supply centre and is never removed for supply", unit)
        if slot in self.removed:
            return _refused(index, order, "that unit is already being removed", unit)
        owed = count < 0 and self.used.get(power, 0) < -count
        if not owed and not self.variant.kept_by_choice(unit):
            if count >= 0:
                return _refused(index, order, f"{power} has no units to remove", unit)
            return _refused(index, order, f"{power} has only {-count} unit{'s' if count < -1 else ''} to remove", unit)
        if owed:
            self.used[power] = self.used.get(power, 0) + 1
        self.removed.add(slot)
        return AdjustmentOutcome(index, _as_written(order, Disband, unit), unit, True)

    def _named(self, power: str, ref: UnitRef) -> int | None:
        """The slot of the unit of ``power`` a removal names: of the type written, if several
        share the province (else one that needs supply); one not already being removed first."""
        units = self.position.units
        province = ref.location.province  # not the property, once per unit
        mine = [s for s, u in enumerate(units) if u.location.province == province and u.power == power]
        typed = [s for s in mine if units[s].type is ref.type] or [s for s in mine if self.variant.supplied(units[s])] or mine
        return next((s for s in typed if s not in self.removed), typed[0] if typed else None)

    def civil_disorder(self) -> list[int]:
        """The slots of the units removed for lack of removal orders."""
        removed: list[int] = []
        for power, adjustment in self.plan.items():
            missing = -adjustment.count - self.used.get(power, 0)
            if adjustment.count >= 0 or missing <= 0:
                continue
            supplied = self.variant.supplied
            keep = [s for s, u in enumerate(self.position.units)
                    if u.power == power and s not in self.removed and supplied(u)]
            owned = {c for c, owner in self.position.centres.items() if owner == power}
            distance = _distances(self.variant.removal_distance_graph(), owned)
            names = self.variant.map.provinces

            def priority(slot: int) -> tuple[float, int, str]:
                unit = self.position.units[slot]
                far = distance.get(unit.location.province, float("inf"))
                return (-far, 0 if unit.type.mobility is Mobility.SEA else 1, names[unit.location.province].name.casefold())

            removed.extend(sorted(keep, key=priority)[:missing])
        return removed


def _refused(index: int, order: Order, detail: str, unit: Unit | None = None) -> AdjustmentOutcome:
    return AdjustmentOutcome(index, order, unit, False, Reason.ILLEGAL, detail)


def _as_written(order: Build | Disband, kind: type[Build] | type[Disband], unit: Unit) -> Order:
    """The order naming ``unit`` exactly: the one given when it does (most do), else a new one."""
    written = order.unit
    if type(order) is kind and written.type is unit.type and written.location == unit.location:
        return order
    return kind(UnitRef(unit.location, unit.type))


def _distances(graph: Mapping[str, frozenset[str]], sources: set[str]) -> dict[str, int]:
    """Steps from the nearest of ``sources`` to every province (breadth first)."""
    distance = {s: 0 for s in sources}
    queue = deque(sources)
    while queue:
        here = queue.popleft()
        for nxt in graph.get(here, ()):
            if nxt not in distance:
                distance[nxt] = distance[here] + 1
                queue.append(nxt)
    return distance
