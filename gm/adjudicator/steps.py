"""Moves of several steps, built from the standard resolution.

* Rounds (``MoveInRounds``): round 1 resolves every ordinary order and every first step; round
  k resolves the k-th steps against the board round k-1 left, everything else holding. A step
  that fails ends that unit's journey where it stands; the steps it made stay made.
* Paths (``MoveAlongPath``, and the first part of a ``MoveThen`` that names a path): the same
  rounds, one province per step, so units on paths advance in step with each other and two
  entering one province in the same step bounce back to where each stood. A support given in
  round 1 to a path's later province is added in the step that enters it. A plain move (one
  province, not by convoy) into a later province of a path meets the path there whatever the
  step: it is judged in round 1 against the path's strength there (the path's supports into it
  counted), and the path bounces there if the plain move is at least as strong
  (``Resolution.blocked``): timing by steps is for paths that cross.
* Second moves (``MoveThen``): once the first part has succeeded, the second is left for the
  retreat phase (``Position.second_moves``) unless it fails at once (its way occupied, or left
  empty by a standoff); gm.adjudicator.retreats carries it out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gm.adjudicator.effects import Effects
from gm.adjudicator.movement import resolve_round
from gm.adjudicator.results import Resolution
from gm.adjudicator.retreats import retreats_left
from gm.adjudicator.rulings import MovementOutcome, Ruling
from gm.adjudicator.supply import units_by_province
from gm.adjudicator.variant import Variant
from gm.domain.geography import Location
from gm.domain.orders import Move, MoveAlongPath, MoveInRounds, MoveThen, Order, SupportHold, SupportMove, UnitRef
from gm.domain.outcomes import OrderResult, Reason, SupportedInto
from gm.domain.position import Dislodgement, PendingMove, Position
from gm.domain.units import Unit


def resolve_moves(variant: Variant, position: Position, rulings: Sequence[Ruling], effects: Effects) -> MovementOutcome:
    first = resolve_round(variant, position, rulings, effects)
    if not first.several_steps:
        return first.outcome
    journeys = _journeys(rulings, first)
    if not journeys:
        _second_moves(rulings, first.outcome, first.contested)
        return first.outcome
    rounds = _Rounds(variant, position, rulings, effects, first, journeys)
    outcome = rounds.run()
    cuts = _cut_by_paths(variant, position, rulings, first, rounds.attempts)
    if cuts:  # a path's later step attacked a unit that gave support in round 1: judge again, that support cut
        first, rounds, outcome, cuts = _with_cuts(variant, position, rulings, effects, cuts)
        for index, why in sorted(cuts.items()):
            result = outcome.results[index]
            result.notes = (*result.notes, why)
    _second_moves(rulings, outcome, first.contested)
    return outcome


def _with_cuts(variant: Variant, position: Position, rulings: Sequence[Ruling], effects: Effects,
               cuts: dict[int, str]) -> tuple[Resolution, _Rounds, MovementOutcome, dict[int, str]]:
    """The phase judged again with the supports the paths' later steps cut, until those cuts are
    the ones its paths make (a support is cut only by a step that is then tried). Where the cuts
    go round in a circle (a cut that stops the path that makes it), the supports cut in every turn
    of the circle are cut and the others stand."""
    base = set(effects.failed)
    tried: list[dict[int, str]] = []
    while True:
        effects.failed = base | {rulings[i].slot for i in cuts}
        first = resolve_round(variant, position, rulings, effects)
        rounds = _Rounds(variant, position, rulings, effects, first, _journeys(rulings, first))
        outcome = rounds.run()
        if not tried or tried[-1] is not cuts:
            tried.append(cuts)
        found = _cut_by_paths(variant, position, rulings, first, rounds.attempts, cuts)
        if found.keys() == cuts.keys():
            return first, rounds, outcome, cuts
        earlier = next((i for i, turn in enumerate(tried) if turn.keys() == found.keys()), None)
        if earlier is None:
            cuts = found
            continue
        circle = tried[earlier:]
        sure = {i: why for i, why in cuts.items() if all(i in turn for turn in circle)}
        effects.failed = base | {rulings[i].slot for i in sure}
        first = resolve_round(variant, position, rulings, effects)
        rounds = _Rounds(variant, position, rulings, effects, first, _journeys(rulings, first))
        return first, rounds, rounds.run(), sure


def _cut_by_paths(variant: Variant, position: Position, rulings: Sequence[Ruling], first: Resolution,
                  attempts: list[tuple[int, str, str]], cut: dict[int, str] | None = None) -> dict[int, str]:
    """The supports given in round 1 that a path's later step cuts: the step is an attack from
    where the unit stood on the province it tries to enter, as any move is (the text's "Support
    works the same as in standard diplomacy"); a step never made (the path stopped before it)
    attacks nothing. Ruling index -> why. ``cut``: those already taken as cut (still succeeded
    as far as round 1 goes)."""
    if not attempts:
        return {}
    units = position.units
    sides = variant.sides(position)
    results = first.outcome.results
    found: dict[int, str] = {}
    for index, ruling in enumerate(rulings):
        order = ruling.acting or ruling.order
        if not ruling.acts or ruling.unit is None or not isinstance(order, (SupportHold, SupportMove)):
            continue
        if not results[index].succeeded and (cut is None or index not in cut):
            continue
        supporter = units[ruling.slot]
        for slot, origin, into in attempts:
            attacker = units[slot]
            if into != supporter.location.province or attacker.power == supporter.power:
                continue
            if sides and sides.get(attacker.power, attacker.power) == sides.get(supporter.power, supporter.power):
                continue
            if isinstance(order, SupportMove) and order.destination.province == origin:
                continue  # DATC: not cut from where the support goes
            if variant.stacks and variant.may_share_on_side(attacker.moved_to(supporter.location), supporter, sides):
                continue
            found[index] = f"cut by {attacker} ({attacker.power}) trying to enter {into} from {origin} along its path"
            break
    return found


class _Journey:
    """A unit on its way: the ruling it follows, the steps still ahead, whether it is a path."""

    __slots__ = ("index", "slot", "ahead", "path", "made")

    def __init__(self, index: int, slot: int, ahead: tuple[Location, ...], path: bool):
        self.index = index
        self.slot = slot
        self.ahead = ahead
        self.path = path
        self.made = 1  # steps made so far


def _steps_of(order: Order) -> tuple[tuple[Location, ...], bool] | None:
    """A multi-step order's steps, and whether they are a path (None: one step only)."""
    if isinstance(order, MoveInRounds):
        return order.steps, False
    if isinstance(order, MoveAlongPath):
        return order.path, True
    if isinstance(order, MoveThen):
        return order.first, True
    return None


def _journeys(rulings: Sequence[Ruling], first: Resolution) -> list[_Journey]:
    journeys = []
    for index, ruling in enumerate(rulings):
        if not ruling.acts or ruling.acting is not None:
            continue
        steps = _steps_of(ruling.order)
        if steps is not None and len(steps[0]) > 1 and ruling.slot in first.moved:
            journeys.append(_Journey(index, ruling.slot, steps[0][1:], steps[1]))
    return journeys


class _Rounds:
    """Rounds 2, 3, ... of a phase, each a standard resolution of the next steps."""

    def __init__(self, variant: Variant, position: Position, rulings: Sequence[Ruling], effects: Effects,
                 first: Resolution, journeys: list[_Journey]):
        self.variant = variant
        self.position = position
        self.rulings = rulings
        self.effects = effects
        self.journeys = journeys
        outcome = first.outcome
        self.results = outcome.results
        self.destroyed = outcome.destroyed
        self.extra = outcome.extra
        self.dislodged: list[Dislodgement] = list(outcome.dislodged)
        self.contested = set(first.contested)
        self.later = first.later_supports
        self.blocked = first.blocked  # slot -> the province its path bounces at (a plain move met it)
        self._sides: Mapping[str, str] | None = None  # who shares as one power, once a unit is dislodged
        self._sides_known = False
        self.attempts: list[tuple[int, str, str]] = []  # a path's later step tried: (slot, from, into)
        # Where each unit of the position is now (None: dislodged or gone).
        self.where: list[Location | None] = [u.location for u in position.units]
        for slot in first.beaten:
            self.where[slot] = None
        for slot in effects.destroyed:
            self.where[slot] = None
        for slot, location in first.moved.items():
            self.where[slot] = location

    def run(self) -> MovementOutcome:
        going = self.journeys
        while going:
            going = self._round(going)
        units = tuple(Unit(u.power, u.type, where) for u, where in zip(self.position.units, self.where)
                      if where is not None)
        dislodged = retreats_left(self.variant, self.dislodged, units, self.sides(), self.contested) \
            if self.dislodged else ()
        source = self.position.units
        moved = {slot: where for slot, where in enumerate(self.where) if where is not None and where != source[slot].location}
        outcome = MovementOutcome(self.results, units, dislodged, source, moved)
        outcome.destroyed = self.destroyed
        outcome.extra = self.extra
        return outcome

    def _round(self, going: list[_Journey]) -> list[_Journey]:
        """Resolve the next step of each journey; the journeys that go on."""
        source = self.position.units
        placed = [(slot, where) for slot, where in enumerate(self.where) if where is not None]
        slots = [slot for slot, _ in placed]
        new_slot = {slot: i for i, slot in enumerate(slots)}
        units = tuple(Unit(source[s].power, source[s].type, where) for s, where in placed)
        board = self.position.replace(units=units, dislodged=())
        rulings: list[Ruling] = []
        steps: dict[int, _Journey] = {}
        for journey in going:
            here = self.where[journey.slot]
            if here is None:
                continue
            step = journey.ahead[0]
            if journey.path:
                self.attempts.append((journey.slot, here.province, step.province))
            if journey.path and self.blocked.get(journey.slot) == step.province:
                self._stopped(journey, Reason.BOUNCED, Reason.BOUNCED.value)
                continue
            unit = units[new_slot[journey.slot]]
            steps[len(rulings)] = journey
            rulings.append(Ruling(unit.power, Move(UnitRef(unit.location, unit.type), step), unit, None,
                                  new_slot[journey.slot]))
        effects = self._effects(board, rulings, steps, new_slot)
        resolution = resolve_round(self.variant, board, rulings, effects)
        self.contested |= resolution.contested
        for slot, origin in resolution.beaten.items():
            unit = units[slot]
            self.dislodged.append(Dislodgement(unit, origin, self._retreats(unit, origin, resolution)))
            self.where[slots[slot]] = None
            self._dislodged_later(slots[slot])
        going_on = []
        for index, journey in steps.items():
            result = resolution.outcome.results[index]
            if result.notes:
                done = self.results[journey.index]
                done.notes = done.notes + result.notes
            if result.succeeded:
                self.where[journey.slot] = journey.ahead[0]
                journey.made += 1
                journey.ahead = journey.ahead[1:]
                if journey.ahead:
                    going_on.append(journey)
            else:
                self._stopped(journey, result.reason or Reason.BOUNCED, result.reason_text or "failed")
        for slot, location in resolution.moved.items():  # units carried along with a traveller
            self.where[slots[slot]] = location
        return going_on

    def _effects(self, board: Position, rulings: list[Ruling], steps: dict[int, _Journey],
                 new_slot: dict[int, int]) -> Effects:
        """The first round's bonuses, carried units and notes, for this round's board; and the
        supports given to a path's step into this round's province."""
        effects = Effects(board, rulings, self.effects.log)
        for slot, amount in self.effects.bonus.items():
            if slot in new_slot:
                effects.bonus[new_slot[slot]] = amount
        for slot, amount in self.effects.hold_bonus.items():
            if slot in new_slot:
                effects.hold_bonus[new_slot[slot]] = amount
        for slot, carrier in self.effects.carried.items():
            if slot in new_slot and carrier in new_slot:
                effects.carried[new_slot[slot]] = new_slot[carrier]
        for journey in steps.values():
            if not journey.path:
                continue
            province = journey.ahead[0].province
            for support in self.later:
                if support.slot == journey.slot and support.province == province:
                    effects.add_strength(new_slot[journey.slot], support.amount,
                                         SupportedInto(province, support.amount))
        return effects

    def _dislodged_later(self, slot: int) -> None:
        """A unit that stood through round 1 and is dislodged by a later step: its order (a hold,
        a support) did not succeed after all."""
        for index, ruling in enumerate(self.rulings):
            done = self.results[index]
            if ruling.slot == slot and done.succeeded and _steps_of(ruling.order) is None:
                self.results[index] = OrderResult(done.power, done.order, done.unit, False, Reason.DISLODGED,
                                                  notes=done.notes)

    def _retreats(self, unit: Unit, origin: str, resolution: Resolution) -> tuple[Location, ...]:
        standing = units_by_province(resolution.outcome.units)
        return self.variant.retreat_options(unit, origin, False, standing, self.contested, self.sides())

    def sides(self) -> Mapping[str, str] | None:
        """The powers that share provinces as one (``Variant.sides_share``), asked once if at all."""
        if not self._sides_known:
            variant = self.variant
            self._sides = variant.sides(self.position) if variant.sides_share else None
            self._sides_known = True
        return self._sides

    def _stopped(self, journey: _Journey, reason: Reason, why: str) -> None:
        done = self.results[journey.index]
        stood = self.where[journey.slot]
        step = journey.ahead[0]
        end = f"it stops in {stood}" if stood is not None else "and it was dislodged"
        note = f"step {journey.made + 1} to {step} {why}; {end}"
        self.results[journey.index] = OrderResult(done.power, done.order, done.unit, False, reason,
                                                  notes=done.notes + (note,))


def _second_moves(rulings: Sequence[Ruling], outcome: MovementOutcome, contested: set[str]) -> None:
    """Leave each second move whose first part succeeded for the retreat phase, or fail it now."""
    pending = []
    occupied = {u.location.province for u in outcome.units}
    for index, ruling in enumerate(rulings):
        order = ruling.order
        if not (ruling.acts and ruling.acting is None and isinstance(order, MoveThen) and order.then):
            continue
        result = outcome.results[index]
        if not result.succeeded or ruling.unit is None:  # a move always has its unit
            continue
        unit = ruling.unit.moved_to(order.first[-1])
        blocked = next((loc.province for loc in order.then if loc.province in occupied or loc.province in contested), None)
        if blocked is None:
            pending.append(PendingMove(unit, order.then))
            note = f"second move to {order.then[-1]} with the retreats"
        else:
            why = "occupied" if blocked in occupied else "left empty by a standoff"
            note = f"second move fails: {blocked} is {why}"
        outcome.results[index] = OrderResult(result.power, result.order, result.unit, True, None,
                                             notes=result.notes + (note,))
    outcome.second_moves = tuple(pending)
