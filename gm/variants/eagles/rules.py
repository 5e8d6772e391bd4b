"""Eagles (Ed Greenwood): generals of A.D. 117, dice at sea and in barbarian lands, as a delta on
the engine.

Rules: *Eagles* (docs/rules/eagles.md); the rulings this judge applies where the text is open are
written for players in templates/rules/eagles.txt.j2, and each rule is traced to its tests in
docs/rules/eagles.md. Each rule, and where it lives:

- 1 setup (``setup``): ``powers_in_play`` draws the generals (a die over the general centres
  left), ``opening`` then two allied centres each, player by player (20 centres; 24 with more
  than ten players), an army in each of the three original centres (``extra.original_centres``).
- 2 neutral centres (``setup``): every other centre in play but Roma holds a defending army
  ``A X`` of ``Neutral`` (strength 1, holds, never supports, no retreat: gone once beaten).
- 3 sea warfare (``seas``): fleets at sea share their sea whatever their powers (``may_share``);
  the ``Attack`` order (``orders``) is resolved in ``before_movement``: where every fleet is once
  the moves are judged with the attacks holding (``Effects.preview``: a fleet whose move fails
  stays where it was, and its move stays failed after the attacks: ``Effects.fail``), the
  attacks in the order of a die each (ties rolled again), each with its die and the table; an
  attacked supporting fleet gives no support; in ``after_movement`` an army whose convoy failed
  because a convoying fleet was sunk goes down with it.
- 4 winter storms (``seas``): at the end of every Fall each fleet at sea rolls
  (``end_of_season``); damage is kept in ``extra.damaged`` until the end of the next Spring move
  and read by ``review_on_board``.
- 5 barbarian lands (``lands``): a unit that moved into one rolls at once (``after_movement``);
  one repelled or retreated there waits in ``extra.barbarian_wait`` and rolls at the end of the
  next move if it is still there.
- 6 reinforcements: ``build_sites``: the original centres, and Roma, Herculaneum, Pompeii and
  Brundisium; the unit in Roma is removed first (``end_of_season``, before the Winter orders).
- 7 victory: a majority of the centres in play (``victory_threshold``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet

from gm.adjudicator.effects import Effects
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import MoveChecks, MovementOutcome, Ruling
from gm.adjudicator.variant import Adjustment, Variant
from gm.domain.geography import Location, Terrain
from gm.domain.orders import Hold, Order, SupportHold, SupportMove
from gm.domain.phases import PhaseKind
from gm.domain.position import Position, sorted_units
from gm.domain.units import FLEET, Unit
from gm.maps.model import GameMap
from gm.variants.eagles import lands, seas, setup
from gm.variants.eagles.orders import Attack
from gm.variants.eagles.seas import LIGHT, SEVERE
from gm.variants.eagles.setup import NEUTRAL
from gm.variants.eagles.state import EaglesState
from gm.variants.standard import ANCIENT_CALENDAR as CALENDAR
from gm.variants.standard import first_year

__all__ = ["NEUTRAL", "Eagles", "make"]

class Eagles(Variant):
    def __init__(self, name: str, game_map: GameMap):
        super().__init__(name, game_map, CALENDAR, first_year(game_map, CALENDAR, 118))
        self.stacks = True
        self.rolls_dice = True
        rules = game_map.rules
        provinces = game_map.provinces.values()
        self.general_centres: tuple[str, ...] = tuple(rules["general_centres"])
        self.general_of = {centre: power for power, centre in rules["general_centre_of_power"].items()}
        self.allied_centres: tuple[str, ...] = tuple(rules["allied_centres"])
        self.extra_allied: tuple[str, ...] = tuple(rules["extra_allied_centres_over_ten_players"])
        self.extra_from = int(rules["extra_allied_centres_min_players"])
        self.per_player = int(rules["allied_centres_per_player"])
        self.central_cities = frozenset(rules["special_build_centres"])
        self.undefended = frozenset(rules["no_defending_army"])
        self.removed_first: tuple[str, ...] = tuple(rules["removed_first"])
        fewest, most = rules["players"]["min"], rules["players"]["max"]
        self.players = (int(fewest), int(most))
        self.seas = frozenset(p.id for p in provinces if p.terrain is Terrain.SEA)
        self.barbarian = frozenset(p.id for p in provinces if p.extra.get("barbarian"))
        self.desert = frozenset(p.id for p in provinces if p.extra.get("desert"))

    # -- vocabulary ----------------------------------------------------------------------

    def name_of(self, province: str) -> str:
        return self.map.provinces[province].name

    # -- the start (rules 1, 2) ------------------------------------------------------------

    def centres_in_play(self, players: int) -> frozenset[str]:
        """Every centre, but the four extra allied centres only with more than ten players
        (with fewer they are not supply centres at all: nobody owns them, no army defends them)."""
        centres = self.map.supply_centres
        return frozenset(centres if players >= self.extra_from else centres - set(self.extra_allied))

    def initial_position(self) -> Position:
        return setup.sample_start(self)

    def in_play(self, position: Position) -> set[str]:
        return super().in_play(position) - {NEUTRAL}

    # -- units sharing a sea (rule 3) ----------------------------------------------------------

    def may_share(self, a: Unit, b: Unit) -> bool:
        return a.type is FLEET and b.type is FLEET and a.location.province in self.seas

    def retreat_options(self, dislodged: Unit, attacker_from: str | None, attacker_convoyed: bool,
                        standing: Mapping[str, Sequence[Unit]], contested: AbstractSet[str],
                        sides: Mapping[str, str] | None = None) -> tuple[Location, ...]:
        """2: a beaten defending army is gone. A fleet retreats into a sea whatever fleets are
        there, by the rule of sharing a move in follows (``may_share``)."""
        if dislodged.power == NEUTRAL:
            return ()
        return super().retreat_options(dislodged, attacker_from, attacker_convoyed, standing, contested, sides)

    # -- orders (rules 3, 4) ---------------------------------------------------------------------

    def review_order(self, review: MoveChecks, unit: Unit | None, order: Order) -> Order:
        if isinstance(order, Attack):
            return seas.review_attack(self, unit, order)
        return super().review_order(review, unit, order)

    def review_on_board(self, position: Position, rulings: Sequence[Ruling]) -> None:
        """2: nobody commands a defending army; 3: an attack names another power's fleets; 4: a
        damaged fleet's orders."""
        damage = seas.damage_by_slot(position)
        for ruling in rulings:
            if ruling.illegal is not None or ruling.unit is None:
                continue
            order = ruling.order
            if ruling.unit.power == NEUTRAL and not isinstance(order, Hold):
                ruling.illegal = "a neutral defending army only holds"
                continue
            if isinstance(order, Attack):
                ruling.illegal = seas.attack_problem(self, position, ruling.power, order)
            state = damage.get(ruling.slot)
            if ruling.illegal is None and state == SEVERE and not isinstance(order, Hold):
                ruling.illegal = (f"{ruling.unit} is severely damaged by a winter storm: this Spring it only "
                                  "holds and defends itself")
            elif ruling.illegal is None and state == LIGHT and isinstance(order, (Attack, SupportHold, SupportMove)):
                ruling.illegal = (f"{ruling.unit} is lightly damaged by a winter storm: this Spring it may not "
                                  "attack or support")

    def before_movement(self, effects: Effects) -> None:
        seas.attacks(self, effects)

    def after_movement(self, effects: Effects, outcome: MovementOutcome) -> MovementOutcome:
        position = effects.position
        if effects.failed:
            seas.naval_moves_failed(effects, outcome)
        lost = seas.lost_with_convoys(effects, outcome)
        outcome.units = tuple(u for u in outcome.units if u not in lost)
        outcome.destroyed.extend((u, "lost at sea with the fleet convoying it") for u in lost)
        return lands.barbarian_lands(self, effects, outcome, position)

    def after_retreats(self, position: Position, moves: Sequence[tuple[Unit, Location | None]],
                       log: PhaseLog) -> Position:
        return lands.retreated_into(self, position, moves)

    # -- damage ends with the Spring move (rule 4) -----------------------------------------------

    def end_of_phase(self, position, results, log: PhaseLog) -> Position:  # type: ignore[no-untyped-def]
        season = self.calendar.season_of(position.phase)
        if position.phase.kind is PhaseKind.MOVEMENT and season.code == "S" and position.extra.get("damaged"):
            state = EaglesState.of(position)
            return position.replace(extra=state.changed(damaged=()).extra(position))
        return position

    # -- the end of the Fall: captures, storms, Roma (rules 2, 4, 6) ------------------------------

    def update_ownership(self, position: Position) -> dict[str, str]:
        """Defending armies take nothing; the extra allied centres are no centres with ten players
        or fewer."""
        in_play = self.centres_in_play(max(EaglesState.of(position).players, 1))
        centres = position.centres_dict()
        for unit in position.units:
            province = unit.location.province
            if province in in_play and unit.power != NEUTRAL:
                centres[province] = unit.power
        return centres

    def end_of_season(self, position: Position, log: PhaseLog) -> Position:
        position = super().end_of_season(position, log)
        if not self.calendar.season_of(position.phase).updates_ownership:
            return position
        position = seas.storms(self, position, log)
        return self._roma_first(position, log)

    def _roma_first(self, position: Position, log: PhaseLog) -> Position:
        """6: a power that must remove units loses its unit in Roma first, at once."""
        units = list(position.units)
        for adjustment in self.adjustments(position):
            owed = -adjustment.count
            for city in self.removed_first:
                found = next((u for u in units if u.power == adjustment.power and u.location.province == city), None)
                if owed > 0 and found is not None:
                    units.remove(found)
                    owed -= 1
                    log.announce(f"{adjustment.power} must remove a unit: its {found} in {self.name_of(city)} "
                                 "goes first")
        return position.replace(units=sorted_units(units))

    # -- reinforcements (rule 6) --------------------------------------------------------------------

    def adjustments(self, position: Position) -> list[Adjustment]:
        powers = sorted(self.in_play(position) | set(EaglesState.of(position).original_centres))
        result = []
        for power in powers:
            count = sum(1 for o in position.centres.values() if o == power) \
                - sum(1 for u in position.units if u.power == power)
            result.append(Adjustment(power, count, self.build_sites(position, power) if count > 0 else frozenset()))
        return result

    def build_sites(self, position: Position, power: str) -> frozenset[str]:
        """6: the power's original centres, and Roma, Herculaneum, Pompeii and Brundisium: owned
        and vacant."""
        originals = set(EaglesState.of(position).original_centres.get(power, ()))
        occupied = {u.location.province for u in position.units}
        return frozenset(c for c in originals | self.central_cities
                         if position.centres.get(c) == power and c not in occupied)

    # -- victory (rule 7) ---------------------------------------------------------------------

    def victory_threshold(self, position: Position) -> int:
        """7: a majority of the centres in play for the game's number of players: 19 of 36 with
        ten players or fewer, 21 of 40 with more."""
        return len(self.centres_in_play(max(EaglesState.of(position).players, 1))) // 2 + 1


def make(game_map: GameMap) -> Variant:
    return Eagles("eagles", game_map)
