"""Eagles: the rules text's sentences that no other test proves, each written from the text
(Eagles, Ed Greenwood) with the places as it names them, and run through `gm adjudicate`
(docs/rules/eagles.md traces every rule to its tests)."""

from __future__ import annotations

from typing import Any

from gm.adjudicator.dice import derive
from gm.interchange import adjudicate_json
from gm.orders import OrderGrammar
from gm.variants.catalog import VariantCatalog

CATALOG = VariantCatalog()
EAGLES = CATALOG.get("eagles")
GRAMMAR = OrderGrammar.for_variant(EAGLES)

GENERALS = ("Alexandria, Antiochia, Byzantium, Caesaraugusta, Caesarea, Carthago Nova, Dyrrhachium, Ephesus, "
            "Leptis Magna, Londoninium, Lutetia, Mediolanum").split(", ")
ALLIED = ("Apulum, Aquilicia, Burdigala, Carthago, Colonia Agripa, Corinthus, Eburacum, Lugdunum, Moguntiacum, "
          "Memphis, Nicomedia, Nisibis, Olisipo, Palmyra, Petra, Sinope, Sirmium, Tarsus, Thamugadi, Tingis").split(", ")
MORE_THAN_TEN = ("Bulla Regia", "Durocortorum", "Hispalis", "Massilia")


def at(name: str) -> str:
    """The province the text names (as the text spells it: "Londoninium", "Colonia Agripa")."""
    return GRAMMAR.parse_location(name).province


def adjudicate(phase: str, units: dict[str, list[str]], orders: dict[str, list[str]] | None = None,
               **more: Any) -> dict[str, Any]:
    document = {"variant": "eagles", "phase": phase, "units": units, "orders": orders or {}, **more}
    return adjudicate_json(document, CATALOG)


def seed_for(message: str, value: int) -> str:
    return next(f"text {n}" for n in range(10_000) if derive(f"text {n}", message, 6) == value)


# -- the setup ---------------------------------------------------------------------------------------

def test_the_twelve_general_centres_and_no_general_in_roma() -> None:
    """"begins play from one of the following supply centers ... no general may begin play in Roma"."""
    assert EAGLES.general_centres == tuple(at(name) for name in GENERALS)
    assert at("Roma") not in EAGLES.general_centres
    assert set(EAGLES.general_of) == set(EAGLES.general_centres) and len(EAGLES.general_of) == 12  # a power each


def test_the_twenty_allied_centres_and_four_more_with_more_than_ten_players() -> None:
    """"Two supply centers ally themselves with each player ... The centers are: ... If more than
    ten players are taking part, add the following centers to the list"."""
    assert EAGLES.allied_centres == tuple(at(name) for name in ALLIED)
    assert EAGLES.extra_allied == tuple(at(name) for name in MORE_THAN_TEN)
    assert EAGLES.centres_in_play(10) == EAGLES.map.supply_centres - {at(n) for n in MORE_THAN_TEN}
    assert EAGLES.centres_in_play(11) == EAGLES.map.supply_centres


# -- sea warfare ----------------------------------------------------------------------------------------

def test_a_fleet_may_not_convoy_and_attack_in_the_same_move() -> None:
    """"Fleets may not convoy or attack in the same move": a fleet has one order, the last given."""
    result = adjudicate("S118M", {"Alexandria": ["F MIO", "A BRU"], "Carthago Nova": ["F MIO"]},
                        {"Alexandria": ["F MIO attacks F MIO (Carthago Nova)", "F MIO C A BRU - SIC", "A BRU - SIC"]})
    assert [r.get("reason") for r in result["results"]["Alexandria"]] == ["superseded", None, None]
    assert "rolls" not in result and result["units"]["Alexandria"] == ["A SIC", "F MIO"]


def test_an_attacked_fleet_is_never_bounced_back() -> None:
    """"A fleet may successfully attack any enemy fleet in (or entering into) the same naval area;
    an attacked fleet is never 'bounced back'": a fleet sailing in and attacked without effect
    stays where it sailed."""
    purpose = "attack by F MIN (Alexandria) on F MTY (Carthago Nova)"  # the fleet named as it stood
    result = adjudicate("S118M", {"Alexandria": ["F MIN"], "Carthago Nova": ["F MTY"]},
                        {"Alexandria": ["F MIN attacks F MIN (Carthago Nova)"], "Carthago Nova": ["F MTY - MIN"]},
                        seed=seed_for(f"S118M|{purpose}|0", 4))
    assert result["rolls"][0]["effect"] == "4: no effect"
    assert result["results"]["Carthago Nova"][0]["outcome"] == "succeeds"
    assert result["units"]["Carthago Nova"] == ["F MIN"]


def test_a_seaborne_fleet_attacks_a_fleet_in_port_and_a_fleet_in_port_attacks_along_the_coast_only() -> None:
    """"a seaborne fleet may attack a fleet 'in port' in a coastal area. Fleets in port may not
    attack or support overland, but may attack and support along the coast into adjacent coastal
    areas"."""
    sea = "attack by F MIN (Alexandria) on F CAR (Carthago Nova)"
    seaborne = adjudicate("S118M", {"Alexandria": ["F MIN"], "Carthago Nova": ["F CAR"]},
                          {"Alexandria": ["F MIN attacks F CAR (Carthago Nova)"]}, seed=seed_for(f"S118M|{sea}|0", 6))
    assert seaborne["rolls"][0]["purpose"] == sea and "Carthago Nova" not in seaborne["units"]
    coast = "attack by F ALX (Alexandria) on F PEL (Carthago Nova)"
    along = adjudicate("S118M", {"Alexandria": ["F ALX"], "Carthago Nova": ["F PEL"]},
                       {"Alexandria": ["F Alexandria attacks F Pelusium (Carthago Nova)"]},
                       seed=seed_for(f"S118M|{coast}|0", 6))
    assert along["rolls"][0]["purpose"] == coast and "Carthago Nova" not in along["units"]
    overland = adjudicate("S118M", {"Alexandria": ["F ROM"], "Carthago Nova": ["F PIC"]},
                          {"Alexandria": ["F ROM attacks F PIC (Carthago Nova)"]}, seed="x")
    assert overland["results"]["Alexandria"][0]["reason"].startswith("illegal: Picenum is not within reach of F ROM")
    support = adjudicate("S118M", {"Alexandria": ["F ROM", "A SAM"], "Carthago Nova": ["A PIC"]},
                         {"Alexandria": ["F ROM S A SAM - PIC"]})
    assert support["results"]["Alexandria"][0]["reason"].startswith("illegal:")


def test_fleets_that_bounced_with_the_naval_movements_stay_bounced_when_an_attack_sinks_one() -> None:
    """"All naval movements are made before attacks are resolved": the fleets of Roma and Pompeii
    both sail for Herculaneum and bounce; then Alexandria's fleet in Mare Tyrrhenum attacks the
    one still in Roma and sinks it (a 6). The bounce was made before the attack: Pompeii's fleet
    stays in Pompeii, and Herculaneum stays empty."""
    purpose = "attack by F MTY (Alexandria) on F ROM (Carthago Nova)"
    result = adjudicate("S118M", {"Carthago Nova": ["F ROM"], "Mediolanum": ["F POM"], "Alexandria": ["F MTY"]},
                        {"Carthago Nova": ["F Roma - Herculaneum"], "Mediolanum": ["F Pompeii - Herculaneum"],
                         "Alexandria": ["F MTY attacks F ROM (Carthago Nova)"]}, seed=seed_for(f"S118M|{purpose}|0", 6))
    assert result["rolls"][0]["effect"] == "6: F ROM (Carthago Nova) sunk"
    bounced = result["results"]["Mediolanum"][0]
    assert (bounced["outcome"], bounced["reason"]) == ("fails", "bounced")
    assert bounced["notes"] == ["it failed with the naval movements, made before the attacks at sea"]
    assert result["units"] == {"Alexandria": ["F MTY"], "Mediolanum": ["F POM"]}


def test_a_fleet_dislodged_from_port_may_retreat_into_a_sea_where_fleets_are_whatever_else_happens() -> None:
    """"any number of friendly or hostile fleets may enter or remain in a body of water": Roma's
    fleet, driven out of port, may retreat into Mare Tyrrhenum beside Byzantium's fleet, also in a
    phase where another force rolls in barbarian land (the retreats are looked at again then)."""
    units = {"Alexandria": ["F ROM"], "Antiochia": ["A ETR", "A PIC"], "Byzantium": ["F MTY"], "Lutetia": ["A COL"]}
    orders = {"Antiochia": ["A ETR - ROM", "A PIC S A ETR - ROM"], "Lutetia": ["A Colonia Agripa - Germania"]}
    result = adjudicate("S118M", units, orders, seed=seed_for("S118M|barbarians: A GER (Lutetia) in Germania|0", 3))
    assert result["rolls"][0]["effect"] == "no effect"
    assert result["dislodged"]["Alexandria"] == [{"unit": "F ROM", "attacker_from": "ETR", "retreats": ["HER", "MTY"]}]


# -- barbarian lands --------------------------------------------------------------------------------------

def test_a_force_that_survived_barbarian_land_stays_or_moves_on_without_rolling_again() -> None:
    """"Forces suffering a 'no effect' result may support or move freely on the following move ...
    any surviving force may remain in a barbarian area for unlimited time without being subject to
    further rolls"."""
    stays = adjudicate("F118M", {"Lutetia": ["A GER", "A BAT"]}, {"Lutetia": ["A BAT H"]}, seed="x")
    assert "rolls" not in stays and stays["units"]["Lutetia"] == ["A BAT", "A GER"]
    supports = adjudicate("F118M", {"Lutetia": ["A GER", "A BAT"], "Mediolanum": ["A COL"]},
                          {"Lutetia": ["A GER S A BAT"], "Mediolanum": ["A COL - BAT"]}, seed="x")
    assert [r["outcome"] for r in supports["results"]["Lutetia"]] == ["succeeds"] and "rolls" not in supports
    moves = adjudicate("F118M", {"Lutetia": ["A GER"]}, {"Lutetia": ["A GER - BAT"]}, seed="x")
    assert moves["units"]["Lutetia"] == ["A BAT"] and "rolls" not in moves
