"""Rule 2: empires join by mail naming a neutral Imperial City site; they wait in
``extra.joining`` and come in at the next adjustment phase, owning their city and its garrison."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.adjudicator.phaselog import PhaseLog
from gm.domain.geography import Location
from gm.domain.position import Position, sorted_units
from gm.domain.units import Unit
from gm.maps.model import normalise_name
from gm.variants.roman_diplomacy.state import RomanState
from gm.variants.roman_diplomacy.units import GARRISON, NEUTRAL
from gm.variants.setup import Setup

if TYPE_CHECKING:
    from gm.variants.roman_diplomacy.rules import RomanDiplomacy


def request(variant: RomanDiplomacy, text: str, position: Position) -> tuple[str, str]:
    """"Rome", "Rome as Latium", "Rome Latium": the city first, then the empire's name."""
    words = text.split()
    for size in range(len(words), 0, -1):
        city = variant.names.get(normalise_name(" ".join(words[:size])))
        if city is not None:
            rest = words[size:]
            if rest and rest[0].lower() == "as":
                rest = rest[1:]
            name = " ".join(rest) or f"Empire of {variant.map.provinces[city].name}"
            check(variant, position, name, city)
            return name, city
    raise ValueError(f"name a neutral supply centre on the Mediterranean or the Black Sea as your Imperial "
                     f"City (e.g. JOIN <game> {_free_site_name(variant, position)} as <empire>)")


def check(variant: RomanDiplomacy, position: Position, empire: str, city: str) -> None:
    """ValueError when ``empire`` may not found its Imperial City in ``city``."""
    state = RomanState.of(position)
    where = variant.map.provinces[city].name
    if city not in variant.sites:
        raise ValueError(f"{where} is no Imperial City site: it must be a supply centre on the Mediterranean "
                         "or the Black Sea")
    if city in position.centres or city in state.empires.values() or city in state.joining.values():
        raise ValueError(f"{where} is no longer neutral or already asked for: choose another city "
                         f"(e.g. {_free_site_name(variant, position)})")
    taken = {*state.empires, *state.joining, *position.centres.values(), *(u.power for u in position.units)}
    if empire.casefold() in {t.casefold() for t in taken} or variant.power_named(empire) in variant.unplayed_powers:
        raise ValueError(f"the name {empire!r} is taken: choose another")


def _free_site_name(variant: RomanDiplomacy, position: Position) -> str:
    return next(iter(choices(variant, position)), "-")


def choices(variant: RomanDiplomacy, position: Position) -> list[str]:
    """The Imperial City sites still neutral and not asked for, by name."""
    state = RomanState.of(position)
    free = (c for c in variant.sites if c not in position.centres and c not in state.joining.values())
    return sorted(variant.map.provinces[c].name for c in free)


def waiting(variant: RomanDiplomacy, position: Position, power: str, choice: str) -> Position:
    """The position with ``power`` waiting to join in ``choice`` (ValueError: it may not)."""
    check(variant, position, power, choice)
    state = RomanState.of(position)
    return position.replace(extra=state.changed(joining={**state.joining, power: choice}).extra(position))


def admit(variant: RomanDiplomacy, position: Position, log: PhaseLog) -> Position:
    """Each empire waiting comes in, in the order it asked: it owns its Imperial City and the
    garrison there (a city taken meanwhile: it is told, and may choose again)."""
    state = RomanState.of(position)
    if not state.joining:
        return position
    units, centres, empires = list(position.units), position.centres_dict(), dict(state.empires)
    for empire, city in state.joining.items():
        where = variant.map.provinces[city].name
        garrison = Unit(NEUTRAL, GARRISON, Location(city))
        if city not in variant.sites:  # 2: asked for through extra.joining, checked as a JOIN is
            log.announce(f"{empire} cannot found its Imperial City in {where}: it must be a neutral supply "
                         "centre on the Mediterranean or the Black Sea")
            continue
        if city in centres or garrison not in units:
            log.announce(f"{empire} cannot found its Imperial City in {where}: it is no longer neutral")
            continue
        units[units.index(garrison)] = Unit(empire, GARRISON, Location(city))
        centres[city] = empire
        empires[empire] = city
        log.announce(f"{empire} joins the game with its Imperial City in {where}")
    board = position.replace(units=sorted_units(units), centres=centres)
    return board.replace(extra=state.changed(empires=empires, joining={}).extra(board))


def renamed_state(board: Position, state: RomanState, old: str, new: str) -> Position:
    """2: the game master names an empire: its name changes in the variant's state too
    (``board``: the position with its units and centres renamed)."""
    def name(empire: str) -> str:
        return new if empire == old else empire

    return board.replace(extra=state.changed(
        empires={name(e): c for e, c in state.empires.items()},
        joining={name(e): c for e, c in state.joining.items()},
        federations=tuple(tuple(sorted(map(name, f))) for f in state.federations),
        asked={name(e): tuple(sorted(map(name, others))) for e, others in state.asked.items()},
        gifts=tuple({**g, "from": name(g["from"]), "to": name(g["to"])} for g in state.gifts),
        missed={name(e): counts for e, counts in state.missed.items()},
        special={c: name(e) for c, e in state.special.items()},
    ).extra(board))


class RomanSetup(Setup):
    """2: any number of players, each founding an empire by joining, during the game too."""

    def __init__(self, variant: RomanDiplomacy):
        super().__init__(variant)
        self.roman = variant

    def player_counts(self) -> tuple[int, int]:
        return 1, 99  # 2: any number of players

    def joining_request(self, text: str, position: Position) -> tuple[str, str]:
        return request(self.roman, text, position)

    def joining_choices(self, position: Position) -> list[str]:
        return choices(self.roman, position)

    def with_joining(self, position: Position, power: str, choice: str) -> Position:
        return waiting(self.roman, position, power, choice)

    def admit_joining(self, position: Position, log: PhaseLog) -> Position:
        return admit(self.roman, position, log)

    def renamed(self, position: Position, old: str, new: str) -> Position:
        return renamed_state(super().renamed(position, old, new), RomanState.of(position), old, new)
