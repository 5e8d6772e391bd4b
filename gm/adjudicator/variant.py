"""The plug-in interface every variant implements, with standard Diplomacy as its defaults.

A variant is a map file plus a subclass of ``Variant`` that overrides only the decisions in
which its rules differ; what other layers use of it beyond the rules are its declared parts
(gm.adjudicator.parts). The adjudicator asks these questions and never names a power,
province or season itself; docs/design/variants.md says how each kind of rule plugs in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from mypy_extensions import mypyc_attr

from gm.adjudicator.effects import Effects
from gm.adjudicator.parts import Parts
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import Illegal, MoveChecks, MovementOutcome, Ruling
from gm.adjudicator.supply import SupplyCounts
from gm.domain.geography import Location, Terrain
from gm.domain.orders import Order
from gm.domain.outcomes import OrderResult
from gm.domain.phases import Calendar, Phase, PhaseKind
from gm.domain.position import Position, sorted_units
from gm.domain.units import STANDARD_UNIT_TYPES, Mobility, Unit, UnitType
from gm.maps.model import GameMap


@dataclass(frozen=True, slots=True, init=False)
class Adjustment:
    """What a power does in an adjustment phase: build (positive) or remove (negative)."""

    power: str
    count: int
    build_sites: frozenset[str]

    def __init__(self, power: str, count: int, build_sites: frozenset[str]) -> None:
        # Written out: compiled (setup.py), the constructor then runs no Python.
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "build_sites", build_sites)


class SupportCut(Enum):
    """What an attack on a supporting unit does to its support."""

    WHOLE = "whole"  # any attack that cuts removes the support (standard)
    BY_ATTACK = "by attack"  # it takes away only the attack's value: its strength with its supports


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
class Variant:
    """Standard Diplomacy rules; subclass and override to make a variant."""

    def __init__(self, name: str, game_map: GameMap, calendar: Calendar, first_year: int,
                 unit_types: tuple[UnitType, ...] = STANDARD_UNIT_TYPES):
        self.name = name
        self.map = game_map
        self.calendar = calendar
        self.first_year = first_year
        self.unit_types = unit_types
        # What other layers use beyond its rules, as the catalog declares it (gm.adjudicator.parts).
        self.parts = Parts()
        # What the standard rules build anywhere they build (every build asks).
        self._armies_and_fleets = tuple([t for t in unit_types if t.mobility is Mobility.LAND or t.mobility is Mobility.SEA])
        # Answers that depend on the map only, kept because every phase asks them again.
        self._destinations: dict[tuple[UnitType, str, str | None, str], tuple[Location, ...]] = {}
        self.counts = SupplyCounts()  # what the builds and the look for a winner count, once a position
        # Rules a subclass switches on in its own __init__ (after calling this one):
        self.stacks = False  # units may share a province: ``may_share`` says which
        self.partial_cuts = False  # some units' supports are cut by amounts: ``support_cut`` says whose
        self.sides_share = False  # units of one side (``sides``) share a province as one power's may
        self.legality_cacheable = True  # False when legality also depends on ``Position.extra``
        # Owners of units no player plays: neutral garrisons and defenders; a variant adds its own
        # (unplayed barbarians). They hold, and take no part in adjustments.
        self.unplayed_powers: tuple[str, ...] = ("Neutral",)
        # Rules a GM may choose per game (a settings file's ``rules:``), with their defaults; a
        # game's choices are kept in ``Position.extra`` under the same names.
        self.options: dict[str, object] = {}
        # Rules that roll dice: the mails publish the seed's SHA-256, then the seed (gm.adjudicator.dice).
        self.rolls_dice = False
        # Two powers' builds in one province both fail (standard: none builds in another's centre).
        self.rival_builds_fail = False

    # -- vocabulary ----------------------------------------------------------------

    @cached_property
    def unit_types_by_letter(self) -> Mapping[str, UnitType]:
        return {t.letter: t for t in self.unit_types}

    def unit_type(self, letter: str) -> UnitType | None:
        return self.unit_types_by_letter.get(letter.upper())

    @property
    def powers(self) -> list[str]:
        return list(self.map.powers)

    def power_named(self, name: str) -> str | None:
        """The canonical name of a power that may own units: one of the map's, or one of
        ``unplayed_powers`` (units that belong to no player)."""
        found = self.map.power_named(name)
        if found is not None:
            return found.name
        wanted = name.strip().casefold()
        return next((p for p in self.unplayed_powers if p.casefold() == wanted), None)

    def title(self, phase: Phase) -> str:
        return self.calendar.title(phase)

    # -- the start -----------------------------------------------------------------

    def initial_position(self) -> Position:
        units = []
        centres: dict[str, str] = {}
        for power in self.map.powers.values():
            for start in power.units:
                unit_type = self.unit_type(start.letter)
                if unit_type is None:
                    raise ValueError(f"{self.name}: unknown unit type {start.letter} for {power.name}")
                units.append(Unit(power.name, unit_type, start.location))
            for centre in power.home + power.owns:
                centres[centre] = power.name
        return Position(self.calendar.first_phase(self.first_year), sorted_units(units), centres)

    def default_centres(self, units: Iterable[Unit]) -> dict[str, str]:
        """Ownership when none is given: home centres not occupied by another power's unit."""
        occupied = {u.location.province: u.power for u in units}
        centres = {}
        for power in self.map.powers.values():
            for centre in power.home + power.owns:
                if occupied.get(centre, power.name) == power.name:
                    centres[centre] = power.name
        return centres

    # -- geography -----------------------------------------------------------------

    def can_stand(self, unit_type: UnitType, location: Location) -> bool:
        province = self.map.provinces.get(location.province)
        if province is None:
            return False
        if unit_type.mobility is Mobility.LAND:
            return province.holds_armies and location.coast is None
        if unit_type.mobility is Mobility.SEA:
            if province.coasts:
                return location.coast in province.coasts
            return province.holds_fleets and location.coast is None
        return province.terrain is not Terrain.IMPASSABLE

    def destinations(self, unit: Unit, province: str) -> tuple[Location, ...]:
        """The locations in ``province`` the unit may reach in one ordinary move (no convoy)."""
        # Flat, of interned strings and a unit type: hashed and compared without Python code.
        key = (unit.type, unit.location.province, unit.location.coast, province)
        found = self._destinations.get(key)
        if found is None:
            found = self._destinations[key] = _map_destinations(self.map, unit.type.mobility, unit.location, province)
        return found

    def can_support_into(self, unit: Unit, province: str) -> bool:
        """Support reaches a province, whatever its coasts (DATC 6.B.4)."""
        if unit.type.mobility is Mobility.LAND:
            return province in self.map.army_adjacency.get(unit.location.province, frozenset())
        if unit.type.mobility is Mobility.SEA:
            near = self.map.fleet_adjacency.get(unit.location, frozenset())
            return any(loc.province == province for loc in near)
        if unit.type.mobility is Mobility.ANY:
            return bool(_map_destinations(self.map, Mobility.ANY, unit.location, province))
        return False

    def convoy_province(self, province: str) -> bool:
        return self.map.provinces[province].convoys

    def reaches_otherwise(self, unit: Unit, province: str, position: Position) -> bool:
        """May ``unit`` reach ``province`` in one move by a way the map does not show (a road)?
        Asked only where the map says no, for supports of such moves; set
        ``legality_cacheable = False`` when the answer depends on the position."""
        return False

    # -- units sharing a province ---------------------------------------------------------

    def may_share(self, a: Unit, b: Unit) -> bool:
        """May these two units stand in one province (only asked when ``stacks`` is on)? Units
        that may share do not fight: a move into a province meets no resistance from them, cuts
        no support of theirs, and two that may share enter a province together. The one rule of
        sharing: moves (gm.adjudicator.movement), retreats (``may_stand_with``) and a board read
        whole (``stack_problem``) all ask it, through ``may_share_on_side``."""
        return False

    def may_stand_with(self, unit: Unit, there: Iterable[Unit], sides: Mapping[str, str] | None = None) -> bool:
        """May ``unit``, as it would stand in a province, join the units standing there (none:
        yes)? What a retreat asks of the province it goes to: the rule a move in follows, each
        pair of units by ``may_share_on_side``."""
        for other in there:
            if not self.stacks or not self.may_share_on_side(unit, other, sides):
                return False
        return True

    def stack_problem(self, units: Sequence[Unit], sides: Mapping[str, str] | None = None) -> str | None:
        """Why these units (all in one province) may not stand together (None: they may);
        ``sides``: the position's ``sides()``, where ``sides_share`` is on."""
        for index, unit in enumerate(units):
            for other in units[index + 1:]:
                if not self.stacks:
                    return f"two units in {unit.location.province}: {unit} and {other}"
                if not self.may_share_on_side(unit, other, sides):
                    return f"{unit} ({unit.power}) and {other} ({other.power}) may not stand together"
        return None

    def may_share_on_side(self, a: Unit, b: Unit, sides: Mapping[str, str] | None) -> bool:
        """``may_share``, where units of powers that fight as one side (``sides_share``) may
        share as if they were of one power."""
        if self.may_share(a, b):
            return True
        if not self.sides_share or not sides or a.power == b.power:
            return False
        side = sides.get(a.power, a.power)
        return side == sides.get(b.power, b.power) and self.may_share(a, Unit(a.power, b.type, b.location))

    def retreat_strength(self, unit: Unit) -> float:
        """What a unit weighs when retreats (and second moves) claim one province: the one
        strictly strongest gets in, the others are destroyed. Standard: all alike, all fail."""
        return 1

    def support_cut(self, unit: Unit) -> SupportCut:
        """What an attack does to the support ``unit`` gives (only asked when ``partial_cuts`` is on)."""
        return SupportCut.WHOLE

    def sides(self, position: Position) -> Mapping[str, str] | None:
        """Powers that fight as one (a federation): power -> side. None: every power alone.
        A side never dislodges its own units, and its supports never count against them."""
        return None

    # -- strength --------------------------------------------------------------------

    def strength(self, unit: Unit) -> float:
        """What a unit weighs in attack, hold, defence and support. Amounts are halves and their
        sums (1/2, 1, 3/2, 2...): exact in binary floating point, so sums never drift."""
        return 1

    # -- rules around a movement phase -------------------------------------------------------

    def review_order(self, review: MoveChecks, unit: Unit | None, order: Order) -> Order:
        """Legality of an order of the variant's own kind: the order as it counts, or raise
        ``Illegal`` with the reason; ``review`` offers the standard checks. ``unit`` is the unit
        the order commands (for a ``Declaration``: the power's unit it names, or None)."""
        raise Illegal(f"'{order}' is not a movement-phase order")

    def review_on_board(self, position: Position, rulings: Sequence[Ruling]) -> None:
        """Refuse (``ruling.illegal = why``) the orders the variant's rules forbid because of the
        state of the board (a fleet damaged by a storm, a unit no player commands). Asked once
        per review of a movement phase, each order already reviewed alone (the last legal order
        for a unit then counts), and of the declarations of a retreat or adjustment phase.
        Orders are checked so on submission too."""

    def prepare_movement(self, position: Position, submitted: Sequence[tuple[str, Order]]
                         ) -> tuple[Position, Sequence[tuple[str, Order]]]:
        """Change the board before the orders are reviewed (a leader placed where its player
        says, and the orders for it rewritten to match): the same number of orders, in the same
        order. Also asked when orders are checked on submission."""
        return position, submitted

    def prepare_adjustments(self, position: Position, declarations: Sequence[tuple[str, Order]],
                            log: PhaseLog) -> Position:
        """The board on which an adjustment phase's builds and removals are judged: what the
        phase's own declarations do before the builds (a build given to an ally)."""
        return position

    def before_movement(self, effects: Effects) -> None:
        """Turn orders into changes of the phase before it is resolved (gm.adjudicator.effects)."""

    def after_movement(self, effects: Effects, outcome: MovementOutcome) -> MovementOutcome:
        """Finish the variant's own orders once the moves are resolved (a sack that was not
        attacked succeeds), and update ``Position.extra`` through ``outcome.extra``."""
        return outcome

    def after_retreats(self, position: Position, moves: Sequence[tuple[Unit, Location | None]],
                       log: PhaseLog) -> Position:
        """The board after a retreat phase; ``moves``: each dislodged unit with where it went
        (None: destroyed or disbanded), then each second move made, to carry state kept by
        province along with the units."""
        return position

    def end_of_phase(self, position: Position, results: Sequence[OrderResult], log: PhaseLog) -> Position:
        """The board when any phase has been resolved (dislodged units still listed), with the
        phase's results (its declarations among them): what a variant does after every phase."""
        return position

    def in_play(self, position: Position) -> set[str]:
        """The powers still in the game: with units or centres (a variant adds those waiting to
        join)."""
        return {u.power for u in position.units} | set(position.centres.values())

    # -- retreats ------------------------------------------------------------------

    def retreat_options(
        self,
        dislodged: Unit,
        attacker_from: str | None,
        attacker_convoyed: bool,
        standing: Mapping[str, Sequence[Unit]],
        contested: AbstractSet[str],
        sides: Mapping[str, str] | None = None,
    ) -> tuple[Location, ...]:
        """Where a dislodged unit may retreat: each neighbouring place it could move to
        (``destinations``), beside nothing it may not stand with (``standing``: province -> the
        units there once the moves are made; ``may_stand_with``, the rule a move in follows: a
        leader beside its own army, an army beside its own garrison, fleets together at sea), but
        not where its attacker came from (unless by convoy) nor where a standoff left a province
        empty."""
        options: list[Location] = []
        stacks = self.stacks
        for province in sorted(self.map.neighbours.get(dislodged.location.province, ())):
            if province in contested:
                continue
            if province == attacker_from and not attacker_convoyed:
                continue  # DATC 4.A.5: only an attack by convoy leaves its origin open
            there = standing.get(province)
            if not there:
                options.extend(self.destinations(dislodged, province))
            elif stacks:
                options.extend(_retreat_beside(self, dislodged, province, there, sides))
        return tuple(options)

    # -- adjustments ---------------------------------------------------------------

    def supplied(self, unit: Unit) -> bool:
        """Does the unit need a supply centre (count in adjustments, and may be removed for
        supply)? A leader or a garrison may not. Of the unit alone: the counts made from it are
        kept with the units counted."""
        return True

    def kept_by_choice(self, unit: Unit) -> bool:
        """May its power remove the unit in any adjustment phase, beyond the removals it owes
        (a hired army it no longer wants)?"""
        return False

    def orders_owed(self, adjustment: Adjustment) -> int:
        """How many orders a power must give in an adjustment phase (builds or waives, removals):
        one per build it may make where it has room, one per removal it owes."""
        if adjustment.count < 0:
            return -adjustment.count
        return min(adjustment.count, len(adjustment.build_sites))

    def adjustments(self, position: Position) -> list[Adjustment]:
        return [Adjustment(power, count, self.build_sites(position, power) if count > 0 else frozenset())
                for power, count in self.counts.balance(position, self.map.powers, self.supplied)]

    def build_sites(self, position: Position, power: str) -> frozenset[str]:
        home = self.map.powers[power].home
        occupied = self.counts.occupied(position)
        return frozenset([c for c in home if position.centres.get(c) == power and c not in occupied])

    def buildable_types(self, power: str, province: str) -> tuple[UnitType, ...]:
        return self._armies_and_fleets

    def buildable_types_at(self, position: Position, power: str, province: str) -> tuple[UnitType, ...]:
        """``buildable_types`` where the answer depends on the board (a province that raises one
        kind of unit or another as the variant's state says)."""
        return self.buildable_types(power, province)

    def removal_distance_graph(self) -> Mapping[str, frozenset[str]]:
        """Civil disorder (2023 rules): distances cross land and sea for every unit."""
        return self.map.neighbours

    def has_adjustments(self, position: Position) -> bool:
        if type(self).adjustments is not Variant.adjustments:  # a variant's own plan: asked whole
            return any(a.count < 0 or (a.count > 0 and a.build_sites) for a in self.adjustments(position))
        # The standard plan, power by power until one has something to do (every Fall asks).
        for power, count in self.counts.balance(position, self.map.powers, self.supplied):
            if count < 0 or (count > 0 and self.build_sites(position, power)):
                return True
        return False

    # -- ownership and victory -----------------------------------------------------

    def update_ownership(self, position: Position) -> dict[str, str]:
        """At the end of an ownership season a centre belongs to the power whose unit is in it."""
        centres = position.centres_dict()
        supply_centres = self.map.supply_centres
        for unit in position.units:
            province = unit.location.province
            if province in supply_centres:
                centres[province] = unit.power
        return centres

    def victory_threshold(self, position: Position) -> int:
        return len(self.map.supply_centres) // 2 + 1

    def winner(self, position: Position) -> str | None:
        need = self.victory_threshold(position)
        leaders = [p for p, n in self.counts.centres_held(position).items() if n >= need]
        return leaders[0] if len(leaders) == 1 else None

    def draw_problem(self, powers: Sequence[str]) -> str | None:
        """Why the rules allow no draw among these powers (all still in the game), or None."""
        return None

    def drawn(self, position: Position) -> tuple[str, ...]:
        """The powers the game ends in a draw between, when the variant's rules end it so (several
        reaching victory at once, say); none: the game goes on."""
        return ()

    # -- phase sequencing ----------------------------------------------------------

    def has_work(self, position: Position) -> bool:
        kind = position.phase.kind
        if kind is PhaseKind.MOVEMENT:
            return True
        if kind is PhaseKind.RETREATS:  # a decision to make: some dislodged unit can go somewhere
            return any(d.retreats for d in position.dislodged)
        return self.has_adjustments(position)

    def end_of_season(self, position: Position, log: PhaseLog) -> Position:
        """Called when a season is over (all its phases done or skipped); may roll dice and
        announce what it did through ``log``."""
        season = self.calendar.season_of(position.phase)
        if season.updates_ownership:
            return position.replace(centres=self.update_ownership(position))
        return position


def _map_destinations(game_map: GameMap, mobility: Mobility, origin: Location, province: str) -> tuple[Location, ...]:
    """Where in ``province`` a unit of ``mobility`` at ``origin`` moves to, by the map alone."""
    if mobility is Mobility.LAND:
        near = game_map.army_adjacency.get(origin.province, frozenset())
        return (Location(province),) if province in near else ()
    if mobility is Mobility.SEA:
        return game_map.fleet_targets(origin, province)
    if mobility is Mobility.ANY and (province in game_map.army_adjacency.get(origin.province, frozenset())
                                     or province in game_map.fleet_province_adjacency.get(origin.province, frozenset())):
        return (Location(province),)  # by any border an army or a fleet could use, coasts aside
    return ()


def _retreat_beside(variant: Variant, dislodged: Unit, province: str, there: Sequence[Unit],
                    sides: Mapping[str, str] | None) -> tuple[Location, ...]:
    """The places of ``province``, where ``there`` stand, a dislodged unit may retreat to."""
    if not variant.may_stand_with(dislodged.moved_to(there[0].location.whole), there, sides):
        return ()  # asked of the province first: most occupied ones are closed, their places unasked
    return tuple([loc for loc in variant.destinations(dislodged, province)
                  if variant.may_stand_with(dislodged.moved_to(loc), there, sides)])

