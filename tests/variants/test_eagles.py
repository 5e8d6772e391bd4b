"""Eagles through `gm adjudicate`: each ruling of docs/rules/eagles.md, with fixed seeds.

Where a test needs a die to show a given value, ``seed_for`` finds a seed that makes it so from
the published recipe (gm.adjudicator.dice), so the tests say which roll they rely on."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.adjudicator.dice import derive
from gm.adjudicator.phaselog import PhaseLog
from gm.interchange import adjudicate_json
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

CATALOG = VariantCatalog()
EAGLES = CATALOG.get("eagles")


def adjudicate(phase: str, units: dict[str, list[str]], orders: dict[str, list[str]] | None = None,
               **more: Any) -> dict[str, Any]:
    document = {"variant": "eagles", "phase": phase, "units": units, "orders": orders or {}, **more}
    return adjudicate_json(document, CATALOG)


def seed_for(*wanted: tuple[str, int], sides: int = 6) -> str:
    """A seed whose rolls ("<phase>|<purpose>|<n>", value) show the values wanted."""
    for n in range(10_000):
        seed = f"seed {n}"
        if all(derive(seed, message, sides) == value for message, value in wanted):
            return seed
    raise AssertionError(f"no seed gives {wanted}")


def outcome(result: dict[str, Any], power: str, order: str) -> dict[str, Any]:
    found = [r for r in result["results"][power] if r["order"] == order]
    assert found, result["results"][power]
    return found[-1]


# -- 1. setup --------------------------------------------------------------------------------------

def test_two_to_twelve_players_and_the_first_move_is_spring_118() -> None:
    assert setup_of(EAGLES).player_counts() == (2, 12)
    start = EAGLES.initial_position()
    assert str(start.phase) == "S118M" and EAGLES.title(start.phase) == "Spring A.D. 118 movement"
    assert EAGLES.rolls_dice


def test_generals_are_drawn_with_the_games_dice_then_two_allied_centres_each() -> None:
    log = PhaseLog("game seed")
    powers = setup_of(EAGLES).powers_in_play(4, log)
    assert [r.sides for r in log.rolls] == [12, 11, 10, 9] and len(set(powers)) == 4
    start = setup_of(EAGLES).opening(powers, log)
    assert [r.sides for r in log.rolls[4:]] == [20, 19, 18, 17, 16, 15, 14, 13]
    originals = start.extra["original_centres"]
    assert sorted(originals) == sorted(powers)
    general = EAGLES.map.rules["general_centre_of_power"]
    allied = set(EAGLES.map.rules["allied_centres"])
    for power, centres in originals.items():
        assert centres[0] == general[power] and len(centres) == 3 and set(centres[1:]) <= allied
        assert sorted(str(u) for u in start.units if u.power == power) == sorted(f"A {c}" for c in centres)
        assert sorted(c for c, p in start.centres.items() if p == power) == sorted(centres)
    assert all(r.effect for r in log.rolls)
    again = PhaseLog("game seed")
    assert setup_of(EAGLES).opening(setup_of(EAGLES).powers_in_play(4, again), again) == start


def test_a_player_who_asked_for_fleets_starts_with_a_fleet_in_each_coastal_original_centre() -> None:
    assert [setup_of(EAGLES).start_request(t) for t in ("fleets", "Fleet", "with fleets in my coastal centres", "a fleet instead")] \
        == ["fleets"] * 4
    assert [setup_of(EAGLES).start_request(t) for t in ("armies", "Lutetia", "fleets and armies", "")] == [None] * 4
    log = PhaseLog("fleets")
    powers = setup_of(EAGLES).powers_in_play(6, log)
    start = setup_of(EAGLES).opening(powers, log, {power: "fleets" for power in powers[:3]})
    originals = start.extra["original_centres"]
    coastal = {p.id for p in EAGLES.map.provinces.values() if p.holds_fleets}
    for number, power in enumerate(powers):
        expected = sorted(("F " if number < 3 and c in coastal else "A ") + c for c in originals[power])
        assert sorted(str(u) for u in start.units if u.power == power) == expected
    assert any(u.type.letter == "F" for u in start.units)
    again = PhaseLog("fleets")
    assert setup_of(EAGLES).opening(setup_of(EAGLES).powers_in_play(6, again), again).extra == start.extra  # the same draw either way


def test_the_extra_allied_centres_join_the_draw_only_with_more_than_ten_players() -> None:
    for count, sides, neutral in ((10, 20, 36 - 30 - 1), (11, 24, 40 - 33 - 1)):
        log = PhaseLog("many")
        start = setup_of(EAGLES).opening(setup_of(EAGLES).powers_in_play(count, log), log)
        assert log.rolls[count].sides == sides
        assert len([u for u in start.units if u.power == "Neutral"]) == neutral


def test_every_other_centre_but_roma_holds_a_neutral_defending_army() -> None:
    start = EAGLES.initial_position()
    neutral = {u.location.province for u in start.units if u.power == "Neutral"}
    assert all(u.type.letter == "A" for u in start.units)
    assert "ROM" not in neutral and not any(u.location.province == "ROM" for u in start.units)
    in_play = EAGLES.map.supply_centres - {"BUL", "DUR", "HIS", "MAS"}
    assert neutral == in_play - set(start.centres) - {"ROM"}


# -- 2. neutral centres ------------------------------------------------------------------------------

def test_a_neutral_centre_needs_one_support_and_its_army_does_not_retreat() -> None:
    centre, a, b = _centre_with_two_neighbours()
    units = {"Neutral": [f"A {centre}"], "Mediolanum": [f"A {a}", f"A {b}"]}
    alone = adjudicate("F118M", units, {"Mediolanum": [f"A {a} - {centre}"]}, extra={"original_centres": {}})
    assert outcome(alone, "Mediolanum", f"A {a} - {centre}")["reason"] == "bounced"
    helped = adjudicate("F118M", units, {"Mediolanum": [f"A {a} - {centre}", f"A {b} S A {a} - {centre}"]})
    assert helped["dislodged"] == {"Neutral": [{"unit": f"A {centre}", "attacker_from": a, "retreats": []}]}
    assert "Neutral" not in helped["units"] and centre in helped["centers"]["Mediolanum"]


def test_neutral_armies_take_no_orders() -> None:
    centre, a, _ = _centre_with_two_neighbours()
    result = adjudicate("S118M", {"Neutral": [f"A {centre}"]}, {"Neutral": [f"A {centre} - {a}"]})
    assert result["units"]["Neutral"] == [f"A {centre}"]
    assert result["results"]["Neutral"][0]["reason"] == "illegal: a neutral defending army only holds"


def _centre_with_two_neighbours() -> tuple[str, str, str]:
    near = EAGLES.map.army_adjacency
    land = {p.id for p in EAGLES.map.provinces.values() if p.holds_armies}
    for centre in sorted(EAGLES.map.supply_centres - {"ROM", "BUL", "DUR", "HIS", "MAS"}):
        free = sorted(p for p in near[centre] if p in land and p not in EAGLES.barbarian
                      and p not in EAGLES.map.supply_centres)
        if len(free) >= 2:
            return centre, free[0], free[1]
    raise AssertionError("no centre with two plain neighbours")


# -- 3. sea warfare ------------------------------------------------------------------------------------

def attack_seed(phase: str, purpose: str, value: int) -> str:
    return seed_for((f"{phase}|{purpose}|0", value))


def test_any_number_of_fleets_of_any_powers_share_a_sea_and_enter_it_together() -> None:
    result = adjudicate("S118M", {"Alexandria": ["F MIN", "F MSA"], "Carthago Nova": ["F MTY", "F MIN"]},
                        {"Alexandria": ["F MSA - MIN"], "Carthago Nova": ["F MTY - MIN"]})
    assert result["units"] == {"Alexandria": ["F MIN", "F MIN"], "Carthago Nova": ["F MIN", "F MIN"]}


def test_an_attack_rolls_one_die_and_a_six_sinks_one_defender() -> None:
    purpose = "attack by F MIN (Alexandria) on F MIN (Carthago Nova)"
    seed = attack_seed("S118M", purpose, 6)
    result = adjudicate("S118M", {"Alexandria": ["F MIN"], "Carthago Nova": ["F MIN"]},
                        {"Alexandria": ["F Mare Internum attacks F Mare Internum (Carthago Nova)"]}, seed=seed)
    (roll,) = result["rolls"]
    assert (roll["purpose"], roll["value"], roll["effect"]) == (purpose, 6, "6: F MIN (Carthago Nova) sunk")
    assert roll["units"] == [{"power": "Alexandria", "unit": "F MIN"}, {"power": "Carthago Nova", "unit": "F MIN"}]
    assert result["units"] == {"Alexandria": ["F MIN"]}
    assert result["destroyed"] == [{"power": "Carthago Nova", "unit": "F MIN", "reason": "sunk by F MIN (Alexandria)"}]


def test_the_table_for_one_attacker_and_one_defender() -> None:
    purpose = "attack by F MIN (Alexandria) on F MIN (Carthago Nova)"
    expected = {1: ["Carthago Nova"], 2: ["Carthago Nova"], 3: [], 4: ["Alexandria", "Carthago Nova"],
                5: ["Alexandria", "Carthago Nova"], 6: ["Alexandria"]}
    for value, left in expected.items():
        result = adjudicate("S118M", {"Alexandria": ["F MIN"], "Carthago Nova": ["F MIN"]},
                            {"Alexandria": ["F MIN attacks F MIN (Carthago Nova)"]},
                            seed=attack_seed("S118M", purpose, value))
        assert sorted(result["units"]) == left, value


def test_fleets_attacking_together_add_to_the_die_and_a_seven_sinks_two() -> None:
    purpose = "attack by F MIN, F MIN (Alexandria) on F MIN, F MIN (Carthago Nova)"
    seed = attack_seed("S118M", purpose, 6)
    result = adjudicate("S118M", {"Alexandria": ["F MIN", "F MIN"], "Carthago Nova": ["F MIN", "F MIN"]},
                        {"Alexandria": ["F MIN attacks F MIN (Carthago Nova)"] * 2}, seed=seed)
    (roll,) = result["rolls"]
    assert roll["effect"] == "7 (6+1): F MIN (Carthago Nova), F MIN (Carthago Nova) sunk"
    assert result["units"] == {"Alexandria": ["F MIN", "F MIN"]}


def test_a_three_sinks_both_sides_and_the_defenders_die_says_how_many_when_several_defend() -> None:
    purpose = "attack by F MIN (Alexandria) on F MIN, F MIN (Carthago Nova)"
    defender = "defender's die: F MIN, F MIN (Carthago Nova) against F MIN (Alexandria)"
    seed = seed_for((f"S118M|{purpose}|0", 3), (f"S118M|{defender}|0", 4))
    result = adjudicate("S118M", {"Alexandria": ["F MIN"], "Carthago Nova": ["F MIN", "F MIN"]},
                        {"Alexandria": ["F MIN attacks F MIN (Carthago Nova)"]}, seed=seed)
    assert [(r["purpose"], r["value"]) for r in result["rolls"]] == [(purpose, 3), (defender, 4)]
    assert result["rolls"][1]["effect"] == "even: 2 fleets of each side sunk"
    assert result["units"] == {}  # one attacker only: it and both defenders are sunk


def test_a_fleet_that_sails_away_escapes_the_attack_and_one_that_sails_in_is_attacked() -> None:
    purpose = "attack by F MIN (Alexandria) on F MIN (Carthago Nova)"
    seed = attack_seed("S118M", purpose, 6)
    gone = adjudicate("S118M", {"Alexandria": ["F MIN"], "Carthago Nova": ["F MIN"]},
                      {"Alexandria": ["F MIN attacks F MIN (Carthago Nova)"], "Carthago Nova": ["F MIN - MTY"]},
                      seed=seed)
    assert gone["units"]["Carthago Nova"] == ["F MTY"] and "rolls" not in gone
    assert outcome(gone, "Alexandria", "F MIN ATTACKS F MIN (Carthago Nova)")["notes"] == [
        "no fleet of Carthago Nova in Mare Internum to attack"]
    came = adjudicate("S118M", {"Alexandria": ["F MIN"], "Carthago Nova": ["F MTY"]},
                      {"Alexandria": ["F MIN attacks F MIN (Carthago Nova)"], "Carthago Nova": ["F MTY - MIN"]},
                      seed=seed)
    assert came["units"] == {"Alexandria": ["F MIN"]}


def test_a_fleet_whose_move_fails_is_attacked_where_it_stayed() -> None:
    """3: "All naval movements are made before attacks are resolved": Carthago
    Nova's fleet bounces off Alexandria's army in Carthago, so it is still in Mare Internum, and
    the attack there sinks it; an attack on it in Carthago finds no fleet there."""
    purpose = "attack by F MIN (Alexandria) on F MIN (Carthago Nova)"
    seed = attack_seed("S118M", purpose, 6)
    units = {"Alexandria": ["F MIN", "A CAR"], "Carthago Nova": ["F MIN"]}
    stayed = adjudicate("S118M", units, {"Alexandria": ["F MIN attacks F MIN (Carthago Nova)", "A CAR H"],
                                         "Carthago Nova": ["F MIN - CAR"]}, seed=seed)
    assert [r["purpose"] for r in stayed["rolls"]] == [purpose]
    assert outcome(stayed, "Carthago Nova", "F MIN - CAR")["reason"] == "destroyed: sunk by F MIN (Alexandria)"
    assert stayed["units"] == {"Alexandria": ["A CAR", "F MIN"]}
    in_port = adjudicate("S118M", units, {"Alexandria": ["F MIN attacks F CAR (Carthago Nova)", "A CAR H"],
                                          "Carthago Nova": ["F MIN - CAR"]}, seed=seed)
    assert "rolls" not in in_port and in_port["units"]["Carthago Nova"] == ["F MIN"]
    assert outcome(in_port, "Alexandria", "F MIN ATTACKS F CAR (Carthago Nova)")["notes"] == [
        "no fleet of Carthago Nova in Carthago to attack"]
    assert outcome(in_port, "Carthago Nova", "F MIN - CAR")["reason"] == "bounced"


def test_attacks_go_in_the_order_of_their_dice_and_a_sunk_attacker_never_attacks() -> None:
    first = "order of attacks: F MIN (Carthago Nova) on fleets in MIN (Alexandria)"
    second = "order of attacks: F MIN (Alexandria) on fleets in MIN (Carthago Nova)"
    attack = "attack by F MIN (Carthago Nova) on F MIN (Alexandria)"
    seed = seed_for((f"S118M|{second}|0", 2), (f"S118M|{first}|0", 5), (f"S118M|{attack}|0", 6))
    result = adjudicate("S118M", {"Alexandria": ["F MIN"], "Carthago Nova": ["F MIN"]},
                        {"Alexandria": ["F MIN attacks F MIN (Carthago Nova)"],
                         "Carthago Nova": ["F MIN attacks F MIN (Alexandria)"]}, seed=seed)
    assert [(r["purpose"], r["effect"]) for r in result["rolls"]] == [
        (second, "attack 2 of 2"), (first, "attack 1 of 2"), (attack, "6: F MIN (Alexandria) sunk")]
    assert result["units"] == {"Carthago Nova": ["F MIN"]}


def test_tied_attacks_roll_again() -> None:
    first = "order of attacks: F MIN (Carthago Nova) on fleets in MIN (Alexandria)"
    second = "order of attacks: F MIN (Alexandria) on fleets in MIN (Carthago Nova)"
    seed = seed_for((f"S118M|{second}|0", 4), (f"S118M|{first}|0", 4), (f"S118M|{second}|1", 6),
                    (f"S118M|{first}|1", 1))
    result = adjudicate("S118M", {"Alexandria": ["F MIN"], "Carthago Nova": ["F MIN"]},
                        {"Alexandria": ["F MIN attacks F MIN (Carthago Nova)"],
                         "Carthago Nova": ["F MIN attacks F MIN (Alexandria)"]}, seed=seed)
    effects = [(r["purpose"], r["value"], r["effect"]) for r in result["rolls"][:4]]
    assert effects == [(second, 4, "tie: rolled again"), (first, 4, "tie: rolled again"),
                       (second, 6, "attack 1 of 2"), (first, 1, "attack 2 of 2")]
    assert result["rolls"][4]["purpose"] == "attack by F MIN (Alexandria) on F MIN (Carthago Nova)"


def test_an_attacked_supporting_fleet_gives_no_support_whatever_the_outcome() -> None:
    purpose = "attack by F MIO (Alexandria) on F MIO (Carthago Nova)"
    seed = attack_seed("S118M", purpose, 4)
    units = {"Alexandria": ["F MIO"], "Carthago Nova": ["F MIO", "A BRU"], "Mediolanum": ["A LUC"]}
    orders = {"Carthago Nova": ["A BRU - LUC", "F MIO S A BRU - LUC"]}
    helped = adjudicate("S118M", units, orders, seed=seed)
    assert outcome(helped, "Carthago Nova", "A BRU - LUC")["outcome"] == "succeeds"
    orders["Alexandria"] = ["F MIO attacks F MIO (Carthago Nova)"]
    result = adjudicate("S118M", units, orders, seed=seed)
    support = outcome(result, "Carthago Nova", "F MIO S A BRU - LUC")
    assert support["reason"].startswith("prevented: attacked at sea by F MIO (Alexandria)")
    assert outcome(result, "Carthago Nova", "A BRU - LUC")["reason"] == "bounced"
    assert result["units"]["Carthago Nova"] == ["A BRU", "F MIO"]  # a 4: no effect, but no support


def test_an_army_whose_convoying_fleet_is_sunk_is_lost_with_it() -> None:
    purpose = "attack by F MIO (Alexandria) on F MIO (Carthago Nova)"
    units = {"Alexandria": ["F MIO"], "Carthago Nova": ["F MIO", "A BRU"]}
    orders = {"Alexandria": ["F MIO attacks F MIO (Carthago Nova)"],
              "Carthago Nova": ["A BRU - SIC", "F MIO C A BRU - SIC"]}
    sunk = adjudicate("S118M", units, orders, seed=attack_seed("S118M", purpose, 6))
    assert sunk["units"] == {"Alexandria": ["F MIO"]}
    assert {"power": "Carthago Nova", "unit": "A BRU", "reason": "lost at sea with the fleet convoying it"} \
        in sunk["destroyed"]
    survived = adjudicate("S118M", units, orders, seed=attack_seed("S118M", purpose, 5))
    assert survived["units"]["Carthago Nova"] == ["A SIC", "F MIO"]  # attacked, it still convoys


def test_attack_orders_the_rules_forbid_are_answered_with_the_reason() -> None:
    units = {"Alexandria": ["F MIN", "A CAR"], "Carthago Nova": ["F MTY", "F MIN"], "Ephesus": ["F MIN"]}
    result = adjudicate("S118M", units, {"Alexandria": [
        "F MIN attacks F MTY (Carthago Nova)", "A CAR attacks F MIN (Carthago Nova)",
        "F MIN attacks F MIN (Alexandria)", "F MIN attacks F MIN"]}, seed="x")
    reasons = [r["reason"] for r in result["results"]["Alexandria"]]
    assert reasons[0] == "illegal: a fleet attacks fleets in its own sea, not in the next one"
    assert reasons[1] == "illegal: only a fleet attacks (fleets)"
    assert reasons[2] == "illegal: a fleet does not attack its own power's fleets"
    assert reasons[3].startswith("illegal: say whose fleets in Mare Internum are attacked")


def test_an_attack_needs_a_seed() -> None:
    import pytest
    from gm.interchange import InterchangeError
    with pytest.raises(InterchangeError, match="seed"):
        adjudicate("S118M", {"Alexandria": ["F MIN"], "Carthago Nova": ["F MIN"]},
                   {"Alexandria": ["F MIN attacks F MIN (Carthago Nova)"]})


# -- 4. winter storms --------------------------------------------------------------------------------

def storm(unit: str, power: str) -> str:
    return f"F118R|storm: {unit} ({power})|0"


def test_every_fleet_at_sea_rolls_for_storms_after_the_fall_and_a_two_destroys_it() -> None:
    seed = seed_for((storm("F MIN", "Alexandria"), 2), (storm("F MTY", "Alexandria"), 5))
    result = adjudicate("F118M", {"Alexandria": ["F MIN", "F MTY", "F CAR"]}, seed=seed,
                        centers={"Alexandria": ["CAR", "ALX", "LUG"]})
    rolls = [(r["purpose"], r["value"], r["effect"]) for r in result["rolls"]]
    assert rolls == [("storm: F MIN (Alexandria)", 2, "F MIN (Alexandria) destroyed"),
                     ("storm: F MTY (Alexandria)", 5, "no effect")]  # the fleet in port does not roll
    assert result["rolls"][0]["units"] == [{"power": "Alexandria", "unit": "F MIN"}]
    assert result["units"]["Alexandria"] == ["F CAR", "F MTY"] and "damaged" not in result["extra"]


def test_storm_damage_is_kept_in_extra_until_the_end_of_the_spring_move() -> None:
    seed = seed_for((storm("F MIN", "Alexandria"), 1), (storm("F MTY", "Alexandria"), 3))
    fall = adjudicate("F118M", {"Alexandria": ["F MIN", "F MTY"]}, seed=seed, centers={"Alexandria": ["CAR", "ALX"]})
    assert fall["extra"]["damaged"] == [{"power": "Alexandria", "unit": "F MIN", "damage": "severe"},
                                        {"power": "Alexandria", "unit": "F MTY", "damage": "light"}]
    assert fall["next_phase"] == "S119M"
    spring = adjudicate("S119M", fall["units"], {"Alexandria": ["F MIN - SIC", "F MTY - HER"]},
                        centers=fall["centers"], extra=fall["extra"])
    assert outcome(spring, "Alexandria", "F MIN - SIC")["reason"] == (
        "illegal: F MIN is severely damaged by a winter storm: this Spring it only holds and defends itself")
    assert outcome(spring, "Alexandria", "F MTY - HER")["outcome"] == "succeeds"  # light damage: it may move
    assert "damaged" not in spring["extra"]


def test_a_lightly_damaged_fleet_may_not_attack_or_support() -> None:
    extra = {"damaged": [{"power": "Alexandria", "unit": "F MTY", "damage": "light"}]}
    result = adjudicate("S119M", {"Alexandria": ["F MTY", "A HER"], "Carthago Nova": ["F MTY"]},
                        {"Alexandria": ["F MTY attacks F MTY (Carthago Nova)", "F MTY S A HER - ROM",
                                        "A HER - ROM"]}, extra=extra, seed="s")
    reasons = [r.get("reason") for r in result["results"]["Alexandria"]]
    why = "illegal: F MTY is lightly damaged by a winter storm: this Spring it may not attack or support"
    assert reasons == [why, why, None]


def test_among_identical_fleets_the_damaged_one_takes_the_orders_last() -> None:
    extra = {"damaged": [{"power": "Alexandria", "unit": "F MTY", "damage": "severe"}]}
    result = adjudicate("S119M", {"Alexandria": ["F MTY", "F MTY"]}, {"Alexandria": ["F MTY - HER"]}, extra=extra)
    assert outcome(result, "Alexandria", "F MTY - HER")["outcome"] == "succeeds"
    assert result["units"]["Alexandria"] == ["F HER", "F MTY"]


# -- 5. barbarian lands --------------------------------------------------------------------------------

def barbarians(unit: str, power: str, where: str, phase: str = "S118M", n: int = 0) -> str:
    return f"{phase}|barbarians: {unit} ({power}) in {where}|{n}"


def test_a_force_entering_barbarian_land_rolls_at_once() -> None:
    expected = {1: ["A GER"], 2: [], 3: ["A GER"], 4: ["A BAT"], 5: [], 6: ["A GER"]}
    for value, left in expected.items():
        seed = seed_for((barbarians("A GER", "Lutetia", "Germania"), value))
        result = adjudicate("S118M", {"Lutetia": ["A BAT"]}, {"Lutetia": ["A BAT - GER"]}, seed=seed)
        assert result["units"].get("Lutetia", []) == left, value
        (roll,) = result["rolls"]
        assert roll["units"] == [{"power": "Lutetia", "unit": "A GER"}]
        if not left:
            assert result["destroyed"] == [{"power": "Lutetia", "unit": "A GER", "reason": "destroyed by barbarians"}]
    assert roll["effect"] == "no effect"


def test_a_one_destroys_a_force_in_the_desert() -> None:
    seed = seed_for((barbarians("A ETH", "Alexandria", "Aethiopia"), 1))
    result = adjudicate("S118M", {"Alexandria": ["A THB"]}, {"Alexandria": ["A THB - ETH"]}, seed=seed)
    assert "Alexandria" not in result["units"]
    assert result["rolls"][0]["effect"] == "A ETH (Alexandria) destroyed by sandstorms and lack of water"


def test_a_force_repelled_where_another_moved_in_is_destroyed() -> None:
    seed = seed_for((barbarians("A GER", "Lutetia", "Germania"), 4))
    result = adjudicate("S118M", {"Lutetia": ["A BAT"], "Mediolanum": ["A COL"]},
                        {"Lutetia": ["A BAT - GER"], "Mediolanum": ["A COL - BAT"]}, seed=seed)
    assert "Lutetia" not in result["units"]
    assert result["rolls"][0]["effect"] == "A GER (Lutetia) repelled, with nowhere to go back: destroyed"


def test_a_force_repelled_into_barbarian_land_rolls_only_if_still_there_after_the_next_move() -> None:
    seed = seed_for((barbarians("A GER", "Lutetia", "Germania"), 4))
    spring = adjudicate("S118M", {"Lutetia": ["A SUE"]}, {"Lutetia": ["A SUE - GER"]}, seed=seed)
    assert spring["units"]["Lutetia"] == ["A SUE"]
    assert spring["extra"]["barbarian_wait"] == [{"power": "Lutetia", "unit": "A SUE"}]
    late = seed_for((barbarians("A SUE", "Lutetia", "Suebia", "F118M"), 5))
    stays = adjudicate("F118M", spring["units"], extra=spring["extra"], seed=late)
    assert "Lutetia" not in stays["units"] and "barbarian_wait" not in stays["extra"]
    leaves = adjudicate("F118M", spring["units"], {"Lutetia": ["A SUE - RAE"]}, extra=spring["extra"], seed=late)
    assert leaves["units"]["Lutetia"] == ["A RAE"] and "rolls" not in leaves


def test_a_unit_retreating_into_barbarian_land_waits_for_its_roll() -> None:
    moved = adjudicate("S118M", {"Lutetia": ["A BAT"], "Mediolanum": ["A COL", "A GES"]},
                       {"Mediolanum": ["A COL - BAT", "A GES S A COL - BAT"]})
    assert moved["dislodged"]["Lutetia"][0]["retreats"].count("GER") == 1
    retreat = adjudicate("S118R", moved["units"], {"Lutetia": ["A BAT R GER"]}, dislodged=moved["dislodged"])
    assert retreat["units"]["Lutetia"] == ["A GER"]
    assert retreat["extra"]["barbarian_wait"] == [{"power": "Lutetia", "unit": "A GER"}]


# -- 6. reinforcements -------------------------------------------------------------------------------

ORIGINALS = {"Lutetia": ["LUT", "CAR", "SIN"], "Mediolanum": ["MED", "NIC", "TIN"]}


def test_builds_only_in_the_original_centres_and_the_central_cities() -> None:
    centres = {"Lutetia": ["LUT", "CAR", "SIN", "ROM", "POM", "MEM"]}
    result = adjudicate("W118A", {"Lutetia": ["A LUT"]},
                        {"Lutetia": ["BUILD A CAR", "BUILD F SIN", "BUILD A ROM", "BUILD A POM", "BUILD A MEM",
                                     "BUILD A LUT"]},
                        centers=centres, extra={"original_centres": ORIGINALS})
    got = [(r["order"], r["outcome"]) for r in result["results"]["Lutetia"]]
    assert got[:4] == [("BUILD A CAR", "succeeds"), ("BUILD F SIN", "succeeds"), ("BUILD A ROM", "succeeds"),
                       ("BUILD A POM", "succeeds")]
    assert [r["outcome"] for r in result["results"]["Lutetia"][4:]] == ["fails", "fails"]


def test_a_unit_in_roma_is_removed_first() -> None:
    result = adjudicate("F118M", {"Lutetia": ["A ROM", "A LUT", "A CAR", "A BAT"]}, centers={"Lutetia": ["LUT", "CAR"]},
                        extra={"original_centres": ORIGINALS})
    assert result["units"]["Lutetia"] == ["A BAT", "A CAR", "A LUT"]  # Roma taken, and its army removed
    assert result["announcements"] == ["Lutetia must remove a unit: its A ROM in Roma goes first"]
    assert result["next_phase"] == "S119M"


# -- 7. victory --------------------------------------------------------------------------------------

def test_victory_is_a_majority_of_the_centres_in_play() -> None:
    six = EAGLES.initial_position()
    assert EAGLES.victory_threshold(six) == 19  # 36 centres with ten players or fewer
    eleven = {f"P{n}": ["X"] for n in range(11)}
    assert EAGLES.victory_threshold(six.replace(extra={"original_centres": eleven})) == 21  # 40 with more
    centres = sorted(EAGLES.map.supply_centres - {"BUL", "DUR", "HIS", "MAS"})
    won = adjudicate("F118M", {"Lutetia": ["A BAT"]}, centers={"Lutetia": centres[:19]},
                     extra={"original_centres": ORIGINALS})
    assert won["winner"] == "Lutetia"
    short = adjudicate("F118M", {"Lutetia": ["A BAT"]}, centers={"Lutetia": centres[:18]},
                       extra={"original_centres": ORIGINALS})
    assert short["winner"] is None


# -- the same seed, the same game ----------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(st.text(min_size=1, max_size=12), st.integers(min_value=2, max_value=12))
def test_the_same_seed_always_gives_the_same_game(seed: str, players: int) -> None:
    def play() -> list[Any]:
        log = PhaseLog(seed)
        start = setup_of(EAGLES).opening(setup_of(EAGLES).powers_in_play(players, log), log)
        units = {"Alexandria": ["F MIN", "F MIN"], "Carthago Nova": ["F MIN", "F SIC"], "Lutetia": ["A BAT"]}
        orders = {"Alexandria": ["F MIN attacks F MIN (Carthago Nova)"] * 2,
                  "Carthago Nova": ["F MIN attacks F MIN (Alexandria)", "F SIC - MIN"], "Lutetia": ["A BAT - GER"]}
        spring = adjudicate("S118M", units, orders, seed=seed)
        fall = adjudicate("F118M", spring["units"], seed=seed, extra=spring["extra"])
        return [start, [r.value for r in log.rolls], spring, fall]

    assert play() == play()
