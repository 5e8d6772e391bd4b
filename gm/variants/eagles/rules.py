"""Eagles (Ed Greenwood): generals of A.D. 117, dice at sea and in barbarian lands, as a delta on
the engine.

Rules: shared/rules/eagles.txt; issue 15's rulings, and this judge's where the text is open, are
written for players in templates/rules/eagles.txt.j2, and each rule is traced to its tests in
docs/rules/eagles.md. Each rule, and where it lives:

- 1 setup: ``powers_in_play`` draws the generals (a die over the general centres left),
  ``opening`` then two allied centres each, player by player (20 centres; 24 with more than
  ten players), an army in each of the three original centres (``extra.original_centres``).
- 2 neutral centres: every other centre in play but Roma holds a defending army ``A X`` of
  ``Neutral`` (strength 1, holds, never supports, no retreat: gone once beaten).
- 3 sea warfare: fleets at sea share their sea whatever their powers (``may_share``); the
  ``Attack`` order (``orders``) is resolved in ``before_movement``: where every fleet is once
  the moves are judged with the attacks holding (``Effects.preview``: a fleet whose move fails
  stays where it was, and its move stays failed after the attacks: ``Effects.fail``), the
  attacks in the order of a die each (ties rolled again), each
  with its die and the table; an attacked supporting fleet gives no support; in
  ``after_movement`` an army whose convoy failed because a convoying fleet was sunk goes down
  with it.
- 4 winter storms: at the end of every Fall each fleet at sea rolls (``end_of_season``); damage
  is kept in ``extra.damaged`` until the end of the next Spring move and read by
  ``review_on_board``.
- 5 barbarian lands: a unit that moved into one rolls at once (``after_movement``); one repelled
  or retreated there waits in ``extra.barbarian_wait`` and rolls at the end of the next move if it
  is still there.
- 6 reinforcements: ``build_sites``: the original centres, and Roma, Herculaneum, Pompeii and
  Brundisium; the unit in Roma is removed first (``end_of_season``, before the Winter orders).
- 7 victory: a majority of the centres in play (``victory_threshold``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from gm.adjudicator.effects import Effects
from gm.adjudicator.phaselog import PhaseLog
from gm.adjudicator.rulings import Illegal, MoveChecks, MovementOutcome, Ruling
from gm.adjudicator.variant import Adjustment, Variant
from gm.domain.geography import Location, Terrain
from gm.domain.orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from gm.domain.outcomes import Reason
from gm.domain.phases import Calendar, Era, PhaseKind, Season
from gm.domain.position import Position, sorted_units
from gm.domain.units import ARMY, FLEET, Unit
from gm.maps.model import GameMap
from gm.orders import OrderGrammar
from gm.orders.forms import OrderForm
from gm.variants.eagles import forms, orders, play
from gm.variants.eagles.orders import Attack
from gm.variants.eagles.state import EaglesState
from gm.variants.standard import first_year

CALENDAR = Calendar(
    seasons=(
        Season("S", "Spring", (PhaseKind.MOVEMENT, PhaseKind.RETREATS)),
        Season("F", "Fall", (PhaseKind.MOVEMENT, PhaseKind.RETREATS), updates_ownership=True),
        Season("W", "Winter", (PhaseKind.ADJUSTMENTS,)),
    ),
    era=Era.BC_AD,
)
NEUTRAL = "Neutral"
SAMPLE_PLAYERS = 6  # the start shown where no game draws one (the bench, the picture)
SAMPLE_SEED = "eagles sample start"
LIGHT, SEVERE = "light", "severe"
FLEETS = "fleets"  # what a player asks for who wants fleets in its coastal original centres
_FLEET_REQUEST_WORDS = frozenset({"fleet", "fleets", "with", "a", "instead", "in", "my", "the", "coastal", "coast",
                                  "centres", "centers", "centre", "center", "please"})


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
        self._players = (int(fewest), int(most))
        self.seas = frozenset(p.id for p in provinces if p.terrain is Terrain.SEA)
        self.barbarian = frozenset(p.id for p in provinces if p.extra.get("barbarian"))
        self.desert = frozenset(p.id for p in provinces if p.extra.get("desert"))

    # -- vocabulary ----------------------------------------------------------------------

    def extend_order_grammar(self, grammar: OrderGrammar) -> OrderGrammar:
        return orders.grammar(grammar)

    def order_forms(self) -> tuple[OrderForm, ...]:
        return forms.order_forms(self)

    def player_counts(self) -> tuple[int, int]:
        return self._players

    def name_of(self, province: str) -> str:
        return self.map.provinces[province].name

    # -- the start (rules 1, 2) ------------------------------------------------------------

    def centres_in_play(self, players: int) -> frozenset[str]:
        """Every centre, but the four extra allied centres only with more than ten players
        (with fewer they are not supply centres at all: nobody owns them, no army defends them)."""
        centres = self.map.supply_centres
        return frozenset(centres if players >= self.extra_from else centres - set(self.extra_allied))

    def powers_in_play(self, count: int, log: PhaseLog) -> list[str]:
        """1: each player's general is drawn among the general centres left (a D12, then D11...)."""
        left, drawn = list(self.general_centres), []
        for number in range(count):
            roll = log.roll("setup", f"general {number + 1}", len(left))
            centre = left.pop(roll.value - 1)
            drawn.append(self.general_of[centre])
            roll.effect = f"{drawn[-1]}: general in {self.name_of(centre)}"
        return drawn

    def start_request(self, text: str) -> str | None:
        """1: a player may ask, when joining, for fleets instead of armies in those of its original
        centres that are coastal (``JOIN game fleets``); it does not know them yet."""
        words = set(text.lower().replace(",", " ").split())
        return FLEETS if words & {"fleet", "fleets"} and words <= _FLEET_REQUEST_WORDS else None

    def opening(self, powers: Sequence[str], log: PhaseLog, requests: Mapping[str, str] | None = None) -> Position:
        """1: the players in turn (in the order of the general centres) each draw two allied
        centres; an army in each original centre (a fleet in a coastal one for a player who asked
        for fleets); 2: a defending army in every other centre."""
        generals = {p: c for c, p in self.general_of.items()}
        order = sorted(powers, key=lambda p: self.general_centres.index(generals[p]))
        pool = list(self.allied_centres) + (list(self.extra_allied) if len(powers) >= self.extra_from else [])
        originals: dict[str, tuple[str, ...]] = {}
        for power in order:
            mine = [generals[power]]
            for number in range(self.per_player):
                roll = log.roll("setup", f"allied centre {number + 1} of {power}", len(pool))
                mine.append(pool.pop(roll.value - 1))
                roll.effect = f"{self.name_of(mine[-1])} allies itself with {power}"
            originals[power] = tuple(mine)
        fleets = {p for p, asked in (requests or {}).items() if asked == FLEETS}
        units = [Unit(p, FLEET if p in fleets and self.map.provinces[c].holds_fleets else ARMY, Location(c))
                 for p, cs in originals.items() for c in cs]
        centres = {c: p for p, cs in originals.items() for c in cs}
        taken = set(centres) | self.undefended
        units += [Unit(NEUTRAL, ARMY, Location(c)) for c in sorted(self.centres_in_play(len(powers)) - taken)]
        start = Position(self.calendar.first_phase(self.first_year), sorted_units(units), centres)
        return start.replace(extra=EaglesState(original_centres=originals).extra(start))

    def initial_position(self) -> Position:
        """A start of six players, drawn with a published seed (where no game draws its own)."""
        log = PhaseLog(SAMPLE_SEED)
        return self.opening(self.powers_in_play(SAMPLE_PLAYERS, log), log)

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
        if not isinstance(order, Attack):
            return super().review_order(review, unit, order)
        if unit is None or unit.type is not FLEET:
            raise Illegal("only a fleet attacks (fleets)")
        if order.target.type not in (None, FLEET):
            raise Illegal("a fleet attacks only fleets")
        here, there = unit.location.province, order.target.province
        if there not in self.map.provinces or self.map.provinces[there].terrain is Terrain.LAND:
            raise Illegal(f"no fleet can be in {self.name_of(there) if there in self.map.provinces else there}")
        if here == there and here not in self.seas:
            raise Illegal("a fleet in port attacks along the coast, not its own port")
        if here != there and not self.can_support_into(unit, there):
            raise Illegal(f"{self.name_of(there)} is not within reach of {unit}: a fleet attacks in its own sea, "
                          "a port next to it, or (in port) along the coast")
        if here != there and here in self.seas and there in self.seas:
            raise Illegal("a fleet attacks fleets in its own sea, not in the next one")
        if order.owner is not None and order.owner == NEUTRAL:
            raise Illegal("there are no neutral fleets")
        return Attack(order.unit if order.unit.type else order.unit._replace(type=FLEET),
                      order.target._replace(type=FLEET), order.owner)

    def review_on_board(self, position: Position, rulings: Sequence[Ruling]) -> None:
        """2: nobody commands a defending army; 3: an attack names another power's fleets; 4: a
        damaged fleet's orders."""
        damage = self.damage_by_slot(position)
        for ruling in rulings:
            if ruling.illegal is not None or ruling.unit is None:
                continue
            order = ruling.order
            if ruling.unit.power == NEUTRAL and not isinstance(order, Hold):
                ruling.illegal = "a neutral defending army only holds"
                continue
            if isinstance(order, Attack):
                ruling.illegal = self._attack_problem(position, ruling.power, order)
            state = damage.get(ruling.slot)
            if ruling.illegal is None and state == SEVERE and not isinstance(order, Hold):
                ruling.illegal = (f"{ruling.unit} is severely damaged by a winter storm: this Spring it only "
                                  "holds and defends itself")
            elif ruling.illegal is None and state == LIGHT and isinstance(order, (Attack, SupportHold, SupportMove)):
                ruling.illegal = (f"{ruling.unit} is lightly damaged by a winter storm: this Spring it may not "
                                  "attack or support")

    def _attack_problem(self, position: Position, power: str, order: Attack) -> str | None:
        there = order.target.province
        owners = sorted({u.power for u in position.units if u.type is FLEET and u.location.province == there
                         and u.power != power} | ({order.owner} if order.owner else set()))
        if order.owner == power:
            return "a fleet does not attack its own power's fleets"
        if order.owner is None and not owners:
            return (f"no other power's fleet is in {self.name_of(there)} to attack (to attack fleets sailing in, "
                    f"name their power: {order.unit} attacks {order.target} (<power>))")
        if order.owner is not None and not any(
                u.power == order.owner and u.type is FLEET
                and (u.location.province == there or self.destinations(u, there)) for u in position.units):
            return f"{order.owner} has no fleet in or next to {self.name_of(there)} to attack"
        if order.owner is None and len(owners) != 1:
            return (f"say whose fleets in {self.name_of(there)} are attacked: "
                    f"{order.unit} attacks {order.target} (<power>)")
        return None

    def damage_by_slot(self, position: Position) -> dict[int, str]:
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

    # -- sea warfare (rule 3) -------------------------------------------------------------------

    def before_movement(self, effects: Effects) -> None:
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
        after = self._after_naval_movements(effects)
        for ruling in effects.rulings:  # the naval movements are made: a fleet's move that failed stays failed
            fleet = ruling.unit
            if ruling.counts and fleet is not None and fleet.type is FLEET and isinstance(ruling.order, Move) \
                    and after[ruling.slot] == fleet.location.province:
                effects.fail(ruling.slot)
        attacked: dict[int, str] = {}
        for key in self._order_of_attacks(effects, list(attacks), attacks):
            self._attack(effects, key, attacks[key], after, attacked)
        for slot, by in attacked.items():
            found = effects.ruling_for(slot)
            if found is not None and slot not in effects.destroyed \
                    and isinstance(effects.rulings[found].order, (SupportHold, SupportMove)):
                effects.prevent(found, f"attacked at sea by {by}: an attacked fleet gives no support")

    @staticmethod
    def _after_naval_movements(effects: Effects) -> dict[int, str]:
        """3: "All naval movements are made before attacks are resolved": where each fleet is once
        the phase's moves are judged with every order as given, the attacks holding (a fleet
        whose move failed stays where it was, and its move is not judged again after the
        attacks: ``Effects.fail``). Fleet slot -> its province."""
        moved = effects.preview().moved
        return {slot: (moved[slot] if slot in moved else unit.location).province
                for slot, unit in enumerate(effects.position.units) if unit.type is FLEET}

    def _label(self, units: Sequence[Unit]) -> str:
        return ", ".join(str(u) for u in units) + f" ({units[0].power})"

    def _order_of_attacks(self, effects: Effects, keys: list[tuple[str, str, str, str]],
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
                roll = effects.roll(f"order of attacks: {self._label(attackers)} on fleets in {there} ({owner})",
                                    units=attackers)
                roll.effect = "tie: rolled again"
                last[key] = roll
                by_value.setdefault(roll.value, []).append(key)
            groups = [by_value[v] for v in sorted(by_value, reverse=True)] + groups
        for rank, key in enumerate(ranked, 1):
            last[key].effect = f"attack {rank} of {len(ranked)}"
        return ranked

    def _attack(self, effects: Effects, key: tuple[str, str, str, str], slots: list[int],
                after: dict[int, str], attacked: dict[int, str]) -> None:
        """3b: one attack: a D6, +1 for two attackers, +2 for three or more, and the table."""
        units = effects.position.units
        power, _here, there, owner = key
        attackers = [s for s in slots if s not in effects.destroyed]
        defenders = [s for s, p in after.items() if p == there and units[s].power == owner
                     and s not in effects.destroyed]
        if not attackers:
            return
        names = self._label([units[s] for s in attackers])
        if not defenders:
            for slot in attackers:
                effects.note(slot, f"no fleet of {owner} in {self.name_of(there)} to attack")
            return
        for slot in defenders:
            attacked.setdefault(slot, names)
        bonus = 2 if len(attackers) >= 3 else 1 if len(attackers) == 2 else 0
        targets = self._label([units[s] for s in defenders])
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

    def after_movement(self, effects: Effects, outcome: MovementOutcome) -> MovementOutcome:
        position = effects.position
        if effects.failed:
            self._naval_moves_failed(effects, outcome)
        lost = self._lost_with_convoys(effects, outcome)
        outcome.units = tuple(u for u in outcome.units if u not in lost)
        outcome.destroyed.extend((u, "lost at sea with the fleet convoying it") for u in lost)
        return self._barbarian_lands(effects, outcome, position)

    @staticmethod
    def _naval_moves_failed(effects: Effects, outcome: MovementOutcome) -> None:
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

    def _lost_with_convoys(self, effects: Effects, outcome: MovementOutcome) -> list[Unit]:
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

    # -- barbarian lands (rule 5) ---------------------------------------------------------------

    def _barbarian_lands(self, effects: Effects, outcome: MovementOutcome, position: Position) -> MovementOutcome:
        state = EaglesState.of(position)
        units = list(outcome.units)
        destroyed: list[tuple[Unit, str]] = []
        waiting: list[tuple[str, str]] = []
        rolling: list[tuple[Unit, str | None]] = []  # the unit as it stands now, where it came from
        for unit, where in outcome.moves:
            if where.province in self.barbarian:
                rolling.append((Unit(unit.power, unit.type, where), unit.location.province))
        moved_from = {u for u, _ in outcome.moves}
        for power, text in state.barbarian_wait:
            still = next((u for u in position.units if u.power == power and str(u) == text and u not in moved_from
                          and u in units), None)
            if still is not None:
                rolling.append((still, None))
        for unit, origin in rolling:
            if unit not in units:
                continue
            province = unit.location.province
            roll = effects.roll(f"barbarians: {unit} ({unit.power}) in {self.name_of(province)}", units=(unit,))
            value = roll.value
            if value in (2, 5) or (value == 1 and province in self.desert):
                why = "destroyed by sandstorms and lack of water" if value == 1 else "destroyed by barbarians"
                roll.effect = f"{unit} ({unit.power}) {why}"
                units.remove(unit)
                destroyed.append((unit, why))
            elif value == 4 and origin is not None:
                back = Unit(unit.power, unit.type, self._origin_location(unit, origin, outcome))
                free = not any(u.location.province == origin for u in units)
                units.remove(unit)
                if free:
                    units.append(back)
                    roll.effect = f"{unit} ({unit.power}) repelled back to {self.name_of(origin)}"
                    if origin in self.barbarian:
                        waiting.append((back.power, str(back)))
                else:
                    roll.effect = f"{unit} ({unit.power}) repelled, with nowhere to go back: destroyed"
                    destroyed.append((unit, "repelled by barbarians with nowhere to go back"))
            elif value == 4:
                roll.effect = "no effect (it has nowhere to be repelled to)"
            else:
                roll.effect = "no effect"
        if rolling or state.barbarian_wait:  # a unit repelled where a retreat was open
            outcome.dislodged = self.retreats_left(outcome.dislodged, units)
        outcome.units = sorted_units(units)
        outcome.destroyed.extend(destroyed)
        board = position.replace(units=outcome.units, extra=dict(outcome.extra or position.extra))
        outcome.extra = state.changed(barbarian_wait=tuple(waiting)).extra(board)
        return outcome

    @staticmethod
    def _origin_location(unit: Unit, origin: str, outcome: MovementOutcome) -> Location:
        for before, where in outcome.moves:
            if before.location.province == origin and where == unit.location:
                return before.location
        return Location(origin)

    def after_retreats(self, position: Position, moves: Sequence[tuple[Unit, Location | None]],
                       log: PhaseLog) -> Position:
        """5: a unit retreating into barbarian land rolls only if still there after the next move."""
        state = EaglesState.of(position)
        waiting = list(state.barbarian_wait)
        for unit, where in moves:
            if where is not None and where.province in self.barbarian:
                waiting.append((unit.power, str(Unit(unit.power, unit.type, where))))
        return position.replace(extra=state.changed(barbarian_wait=tuple(waiting)).extra(position))

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
        position = self._storms(position, log)
        return self._roma_first(position, log)

    def _storms(self, position: Position, log: PhaseLog) -> Position:
        """4: every fleet at sea rolls: 1 severely damaged, 2 destroyed, 3 lightly damaged."""
        state = EaglesState.of(position)
        units = list(position.units)
        damaged: list[tuple[str, str, str]] = []
        phase = str(position.phase)
        for unit in position.units:
            if unit.type is not FLEET or unit.location.province not in self.seas:
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

    # -- the bot, the picture -----------------------------------------------------------------------

    def plausible_orders(self, position: Position, orders_: list[tuple[str, Order]],
                         rng: random.Random) -> list[tuple[str, Order]]:
        return play.plausible_orders(self, position, orders_, rng)

    def map_layers(self, position: Position, pen: Any) -> None:
        for province in sorted(self.barbarian):
            pen.tint(province, "barbarian land", pattern="hatch", colour="#8b5a2b")


def make(game_map: GameMap) -> Variant:
    return Eagles("eagles", game_map)
