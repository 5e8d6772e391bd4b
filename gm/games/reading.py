"""An order as read against the board it was written for, before it is judged or stored.

Players write unit types loosely: none at all, the wrong one, or a standard letter where the
variant's land units have other names ("A Italia" in Diplomacy of the Empire, which has
infantry, cavalry and catapults). The adjudicator orders whatever unit stands there anyway, so
each unit an order names takes the type of the unit that stands there, and the reply says so
where the type written was another ("Aegyptus holds an Infantry: read as Infantry Aegyptus ->
Cyrenaica"): the order is stored, echoed and published as the real unit's. Where several units
of different types share the province (a leader beside its army), the type written chooses and
nothing is changed.

Orders of a kind this phase does not take are refused here with the phase that takes them (a
BUILD in a movement phase goes to the build phase, not to "there is no unit in ...").
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from gm.adjudicator.variant import Variant
from gm.domain.orders import Build, Disband, Move, Order, Retreat, UnitRef, Waive
from gm.domain.phases import Phase, PhaseKind
from gm.domain.position import Position
from gm.domain.units import Mobility, Unit, UnitType
from gm.maps.model import normalise_name
from gm.orders import OrderGrammar
from gm.reports.names import Namer, off_board


@dataclass(frozen=True)
class Reading:
    """An order fitted to the board: the order to judge and store, what the reply says about how
    it was read, or why it cannot be taken at all in this phase."""

    order: Order
    notes: tuple[str, ...] = ()
    error: str | None = None


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def plural_of(word: str) -> str:
    """"army" -> "armies", "fleet" -> "fleets"."""
    return word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"


class BoardReader:
    """Reads a power's orders against one position (its units, and those waiting off it)."""

    def __init__(self, variant: Variant, position: Position, power: str, namer: Namer | None = None):
        self.variant = variant
        self.position = position
        self.power = power
        self.namer = namer or Namer(variant, position)
        self.kind = position.phase.kind
        waiting = off_board(variant, position)
        self._board: dict[str, list[Unit]] = {}
        units = [d.unit for d in position.dislodged] if self.kind is PhaseKind.RETREATS else list(position.units)
        for unit in (*units, *waiting):
            self._board.setdefault(unit.location.province, []).append(unit)
        if self.kind is PhaseKind.RETREATS:  # a support names no unit there, but keep the others known
            for unit in position.units:
                self._board.setdefault(unit.location.province, []).append(unit)

    def read(self, order: Order, text: str = "") -> Reading:
        """``order`` as read from ``text`` (the line as written, for naming what it wrote)."""
        wrong_phase = self._phase_problem(order)
        if wrong_phase:
            return Reading(order, error=wrong_phase)
        if isinstance(order, Move) and order.destination.province == order.unit.location.province:
            return Reading(order, error=self._same_place(order, text))
        if isinstance(order, Build):
            return self._build(order)
        if not dataclasses.is_dataclass(order):
            return Reading(order)
        notes: list[str] = []
        changes = {}
        missing = None
        for name in _unit_fields(type(order)):
            ref = getattr(order, name)
            if not isinstance(ref, UnitRef):
                continue
            fitted, note = self._fit(ref, own=name == "unit")
            if fitted is not ref:
                changes[name] = fitted
            if note:
                notes.append(note)
            if fitted.type is not None and fitted.type not in self.variant.unit_types:
                missing = missing or fitted
        fitted_order = dataclasses.replace(order, **changes) if changes else order  # type: ignore[type-var]
        if missing is not None:  # no unit there for the standard word to stand for
            place = self.namer.place(missing.location)
            owner = next((u.power for u in self._board.get(missing.location.province, [])), None)
            if owner is not None and owner != self.power:
                return Reading(order, error=f"the unit in {place} is not {self.power}'s")
            return Reading(order, error=f"there is no unit in {place}")
        if not changes:
            return Reading(order, tuple(notes))
        shown = self.namer.order(fitted_order, self.power)
        return Reading(fitted_order, tuple(f"{note}: read as {shown}" for note in notes))

    # -- unit types ---------------------------------------------------------------------------

    def _fit(self, ref: UnitRef, own: bool) -> tuple[UnitRef, str | None]:
        """The unit ``ref`` names, with the type of the unit standing there, and what to tell
        the player when the type written was another (None: nothing to tell)."""
        units = self._board.get(ref.location.province, [])
        if own:
            units = [u for u in units if u.power == self.power]
        kinds = {u.type for u in units}
        if not kinds or ref.type in kinds:
            return ref, None
        if len(kinds) > 1:  # several kinds share the province: the type written must choose
            return ref, None
        (real,) = kinds
        fitted = UnitRef(ref.location, real)
        if ref.type is None:
            return fitted, None
        place = self.namer.place(ref.location.whole)
        said = f"{place} holds {article(real.name)} {real.name.capitalize()}"
        if self._stand_in(ref.type):
            said += f" ({self.variant.map.title} has no {plural_of(ref.type.name)})"
        return fitted, said

    def _stand_in(self, unit_type: UnitType) -> bool:
        return unit_type not in self.variant.unit_types

    def _build(self, order: Build) -> Reading:
        unit_type = order.unit.type
        if unit_type is None or not self._stand_in(unit_type):
            return Reading(order)
        choices = [t for t in self.variant.unit_types if t.mobility is unit_type.mobility
                   and t.mobility in (Mobility.LAND, Mobility.SEA)]
        named = ", ".join(f"{t.name} ({t.letter})" for t in choices[:-1])
        last = choices[-1]
        kinds = f"{named} or {last.name} ({last.letter})" if named else f"{last.name} ({last.letter})"
        example = f"BUILD {choices[0].letter} {self.namer.place(order.unit.location)}"
        return Reading(order, error=f"{self.variant.map.title} has no {plural_of(unit_type.name)}: build {article(kinds)} "
                                    f"{kinds}, e.g. {example}")

    def _same_place(self, order: Move, text: str) -> str:
        """A move to where the unit is, said with the name that was written for it: "Mauretania
        Tingitana" is Tingis, where the unit stands."""
        province = order.destination.province
        name = self.namer.place(order.destination.whole)
        written = spelling_of(OrderGrammar.for_variant(self.variant), text, province)
        if written is None or normalise_name(written) in (normalise_name(name), normalise_name(province)):
            return f"a unit cannot move to the province it is in ({name})"
        return f'"{written}" is {name}, where the unit stands: a unit cannot move to the province it is in'

    # -- the phase ------------------------------------------------------------------------------

    def _phase_problem(self, order: Order) -> str | None:
        kind = self.kind
        if isinstance(order, (Build, Waive)) and kind is not PhaseKind.ADJUSTMENTS:
            word = "a WAIVE" if isinstance(order, Waive) else "a build"
            return f"{word} is ordered in the build phase ({self._next_title(PhaseKind.ADJUSTMENTS)}), not now"
        if isinstance(order, Retreat) and kind is not PhaseKind.RETREATS:
            return f"a retreat is ordered in a retreat phase, for a dislodged unit, not in {self._title()}"
        if isinstance(order, Disband) and kind is PhaseKind.MOVEMENT:
            return (f"units are disbanded in a retreat phase or removed in the build phase "
                    f"({self._next_title(PhaseKind.ADJUSTMENTS)}), not in {self._title()}")
        return None

    def _title(self) -> str:
        return self.variant.title(self.position.phase)

    def _next_title(self, kind: PhaseKind) -> str:
        phase: Phase = self.position.phase
        for _ in range(12):
            phase = self.variant.calendar.following(phase)
            if phase.kind is kind:
                return self.variant.title(phase)
        return kind.value


def spelling_of(grammar: OrderGrammar, text: str, province: str) -> str | None:
    """The words of ``text`` last naming ``province`` (as the grammar reads names), as written."""
    c = grammar.cursor(text)
    found = None
    i = 0
    while i < len(c.tokens):
        match = grammar.provinces.match(c.tokens, i)
        if match is None:
            i += 1
            continue
        pid, end = match
        if pid == province:
            found = c.text(i, end)
        i = end
    return found


_FIELDS: dict[type, tuple[str, ...]] = {}


def _unit_fields(kind: type) -> tuple[str, ...]:
    """The fields of an order class, looked up once a class."""
    found = _FIELDS.get(kind)
    if found is None:
        found = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return found
