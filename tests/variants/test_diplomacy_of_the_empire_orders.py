"""Diplomacy of the Empire's own orders written wrong, or impossible on the board: each is
answered line by line with the reason, by the order parser (what cannot be read), by the variant's
review of the orders on the board when they are submitted (what the rules forbid), and at the
deadline through gm adjudicate (with what only the whole phase shows: builds costing more than the
treasury, a build beside a disband, payments beyond what is left); the other orders of the mail
still count."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gm.adjudicator.refusals import refusals_of
from gm.domain.position import Position
from gm.games.lifecycle import find_game
from gm.games.orderbook import check_orders
from gm.interchange import adjudicate_json, read_request
from gm.orders import OrderGrammar, parse_line
from gm.store.codec import encode_position
from gm.variants.catalog import VariantCatalog
from tests.mail.conftest import Post
from tests.variants.test_diplomacy_of_the_empire import CLAIMANTS, city
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

NAME = "diplomacy-of-the-empire"
CATALOG = VariantCatalog()
EMPIRE = CATALOG.get(NAME)
GRAMMAR = OrderGrammar.for_variant(EMPIRE)



def state(treasury: dict[str, int] | None = None, cities: dict[str, dict[str, Any]] | None = None,
          roads: list[list[str]] | None = None, control: dict[str, str] | None = None, **more: Any) -> dict[str, Any]:
    """An ``extra``: every claimant with a fortified capital in its home, which it controls, and no
    talents, but for what is given."""
    capitals = {home: city(power, True, True) for power, home in EMPIRE.homes.items()}
    return {"treasury": {p: 0 for p in CLAIMANTS} | (treasury or {}), "cities": capitals | (cities or {}),
            "roads": roads or [], "control": {home: power for power, home in EMPIRE.homes.items()} | (control or {}),
            "inflation": 1, **more}


def board(phase: str, units: dict[str, list[str]], extra: dict[str, Any], **more: Any) -> Position:
    return read_request({"variant": NAME, "phase": phase, "units": units, "extra": extra, **more}, CATALOG).position


def refusal(position: Position, power: str, line: str) -> str | None:
    """Why the review refuses the order on submission (None: it counts)."""
    parsed = parse_line(line, GRAMMAR, context=position)
    assert parsed.ok and parsed.order is not None, (line, parsed.diagnostics)
    (why,) = check_orders(EMPIRE, position, power, [parsed.order])
    return why


def at_the_deadline(phase: str, units: dict[str, list[str]], orders: dict[str, list[str]], extra: dict[str, Any],
                    **more: Any) -> dict[str, Any]:
    return adjudicate_json({"variant": NAME, "phase": phase, "units": units, "orders": orders, "extra": extra, **more},
                           CATALOG)


def reasons(result: dict[str, Any], power: str) -> dict[str, str | None]:
    return {r["order"]: r.get("reason") for r in result["results"][power]}


# -- what the parser cannot read ---------------------------------------------------------------------

@pytest.mark.parametrize(("line", "message", "suggestion"), [
    ("C NUM - CEA then", 'missing destination after "then"', None),
    ("C NUM - CEA then TIN then CEA", 'a second "then": a unit makes one second move at most', None),
    # 10: payments
    ("PAY 0 Egyptus", "pay a positive amount of talents", None),
    ("PAY 33 Egyptus", "pay in multiples of 5 talents, not 33", None),
    ("PAY -5 Egyptus", 'expected a number, found "-"', None),
    ("PAY Egyptus", 'expected a number, found "Egyptus"', None),
    ("PAY 35", "missing payee", None),
    ("PAY 35 Rome", 'unknown payee "Rome"', None),
    ("PAY 35 Egyptos", 'unknown payee "Egyptos"', "Egyptus"),
    # 6: cities, forts, razing
    ("BUILD CITY", "missing province", None),
    ("BUILD FORT", "missing province", None),
    ("RAZE", "missing province", None),
    ("RAZE Galatia now", 'unexpected "now" at the end of the order', None),
])
def test_an_order_that_cannot_be_read_is_answered_with_what_is_wrong(line: str, message: str,
                                                                     suggestion: str | None) -> None:
    parsed = parse_line(line, GRAMMAR)
    assert parsed.order is None and len(parsed.diagnostics) == 1, parsed
    (diagnostic,) = parsed.diagnostics
    assert diagnostic.message.startswith(message), diagnostic.message
    assert diagnostic.suggestion == suggestion


def test_the_variants_forms_read_as_the_rules_write_them() -> None:
    for line, canonical in [("HISPANIA move to Nar, Ita, Dal, MACEDONIA", "HIS - NAR - ITA - DAL - MAC"),
                            ("Numidia move to Ceasarienis then move to Tingitana", "NUM - CEA then TIN"),
                            ("PAY 35 talents to Egyptus", "PAY 35 Egyptus"), ("Build Fleet Hispania(SC)", "BUILD F HIS/SC"),
                            ("build city SICILIA", "BUILD CITY SIC"), ("raze JUDIA", "RAZE PAL"),
                            ("Destroy Sicilia", "DISBAND SIC")]:
        parsed = parse_line(line, GRAMMAR)
        assert parsed.ok and str(parsed.order) == canonical, (line, parsed)


# -- what the rules forbid, on submission: movement ------------------------------------------------------

SIX = state(treasury={"Hispania": 40}, cities={"NAR": city("Hispania")}, roads=[["HIS", "NAR"]],
            control={"NAR": "Hispania", "LUS": "Hispania", "AFR": "Numidia"}, six_players=True)
del SIX["treasury"]["Macedonia"], SIX["cities"]["MAC"], SIX["control"]["MAC"]  # a game of six: no Macedonia
MOVES = board("S-43M", {"Hispania": ["I HIS", "C NAR", "F MBA", "I LUS"], "Numidia": ["I NUM", "C AFR", "K CEA"]}, SIX)


@pytest.mark.parametrize(("power", "line", "why"), [
    # 3: second moves: cavalry and fleets only, never back where the first move began
    ("Numidia", "NUM - CEA then TIN", "only cavalry and fleets make a second move"),  # the type left out
    ("Numidia", "CEA - TIN then BEA", "only cavalry and fleets make a second move"),  # a catapult
    ("Hispania", "C NAR - HIS then NAR", "the second move may not return to Narbonensis"),
    # 8: road moves: from a city, along roads at every step, by a land unit, no province twice
    ("Hispania", "I HIS - NAR - AQU", "no road from Narbonensis to Aquitania"),
    ("Hispania", "C NAR - HIS - LUS", "no road from Hispania to Lusitania"),
    ("Hispania", "I LUS - HIS - NAR", "no city in Lusitania: only a unit in a city moves along roads"),
    ("Numidia", "C AFR - NUM - CEA", "no city in Africa Proconsularis: only a unit in a city moves along roads"),
    ("Hispania", "F MBA - MNA - MTY", "fleets do not move along roads: one province a move"),
    ("Hispania", "I HIS - NAR - HIS", "the route enters Hispania twice"),
    ("Hispania", "C NAR - HIS - NAR", "the route enters Narbonensis twice"),
    # 10: payments: never more than the treasury, never to itself, only to a claimant in the game
    ("Hispania", "PAY 100 Numidia", "Hispania has 40 talents, not 100"),
    ("Numidia", "PAY 5 Hispania", "Numidia has 0 talents, not 5"),
    ("Hispania", "PAY 35 Hispania", "Hispania cannot pay itself"),
    ("Hispania", "PAY 35 Macedonia", "Macedonia is not a claimant of this game"),  # left out of a game of six
    # 6: cities, forts and razing only in the build phase
    ("Hispania", "BUILD CITY Aquitania", "cities, forts and razing are ordered in the build phase"),
    ("Hispania", "BUILD FORT Narbonensis", "cities, forts and razing are ordered in the build phase"),
    ("Hispania", "RAZE Narbonensis", "cities, forts and razing are ordered in the build phase"),
    ("Numidia", "I HIS - NAR", "the unit in Hispania is not Numidia's"),
])
def test_a_move_or_payment_the_rules_forbid_is_refused_with_the_reason(power: str, line: str, why: str) -> None:
    assert refusal(MOVES, power, line) == why


@pytest.mark.parametrize(("power", "line"), [
    ("Hispania", "I HIS - NAR"), ("Hispania", "C NAR - AQU then LUG"), ("Hispania", "F MBA - MNA then MTY"),
    ("Hispania", "C NAR - HIS then BEA"), ("Hispania", "PAY 40 Numidia"), ("Hispania", "PAY 35 talents to Egyptus"),
])
def test_a_move_or_payment_the_rules_allow_counts(power: str, line: str) -> None:
    assert refusal(MOVES, power, line) is None


def test_cities_are_not_built_in_a_retreat_phase_either() -> None:
    retreats = board("S-43R", {"Italia": ["I NAR"]}, state(control={"LUS": "Hispania"}),
                     dislodged={"Hispania": [{"unit": "I HIS", "attacker_from": "NAR", "retreats": ["LUS"]}]})
    assert refusal(retreats, "Hispania", "BUILD CITY Lusitania") == "cities, forts and razing are ordered in the build phase"
    assert refusal(retreats, "Hispania", "I HIS R LUS") is None


# -- what the rules forbid, on submission: the build phase --------------------------------------------------

BUILDS = board("W-43A", {"Hispania": ["I LUS"], "Numidia": ["I NUM"]},
               state(treasury={"Hispania": 40, "Numidia": 15},
                     cities={"NAR": city("Hispania"), "BAL": city("Hispania"), "TIN": city("Hispania"),
                             "CEA": city("Numidia")},
                     roads=[["HIS", "NAR"]],
                     control={"NAR": "Hispania", "BAL": "Hispania", "TIN": "Hispania", "LUS": "Hispania",
                              "AQU": "Hispania", "BEA": "Hispania", "DAC": "Hispania", "CEA": "Numidia",
                              "AFR": "Numidia"}))


@pytest.mark.parametrize(("power", "line", "why"), [
    # 6: where a city, a fort, a razing may be
    ("Hispania", "BUILD CITY Narbonensis", "Narbonensis has a city already"),
    ("Hispania", "BUILD CITY Italia", "Hispania does not control Italia"),
    ("Hispania", "BUILD CITY Mare Balearicum", "Mare Balearicum is a sea"),
    ("Hispania", "BUILD FORT Hispania", "the city of Hispania is fortified already"),
    ("Hispania", "BUILD FORT Caesariensis", "Hispania does not control Caesariensis"),
    ("Hispania", "RAZE Lusitania", "there is no city in Lusitania"),
    ("Hispania", "RAZE Italia", "Hispania does not control Italia"),
    # 7: units only at its cities joined by roads to its capital, with no unit in them
    ("Hispania", "BUILD I Baleares", "the city of Baleares is not joined by roads to Hispania's capital"),
    ("Hispania", "BUILD I Tingitana", "the city of Tingitana is not joined by roads to Hispania's capital"),
    ("Hispania", "BUILD I Caesariensis", "the city of Caesariensis is Numidia's"),
    ("Hispania", "BUILD I Italia", "the city of Italia is Italia's"),
    ("Hispania", "BUILD I Dacia",
     "there is no city in Dacia, and one built there now would not be joined by road to Hispania's capital"),
    ("Hispania", "BUILD F Mare Balearicum", "there is no city in Mare Balearicum"),
    ("Hispania", "BUILD I Lusitania", "a unit stands in Lusitania"),
    ("Hispania", "BUILD F Hispania", "say which coast of Hispania"),
    # 2: a claimant that cannot pay for an Infantry after its upkeep has nothing to build
    ("Numidia", "BUILD I Numidia", "Numidia has 5 talents after upkeep, less than an infantry costs (10 talents): "
                                    "it builds nothing"),
    ("Hispania", "DESTROY Numidia", "Hispania has no unit in Numidia"),
    ("Hispania", "PAY 45 Numidia", "Hispania has 40 talents, not 45"),
])
def test_a_build_the_rules_forbid_is_refused_with_the_reason(power: str, line: str, why: str) -> None:
    assert refusal(BUILDS, power, line) == why


@pytest.mark.parametrize(("power", "line"), [
    ("Hispania", "BUILD I Narbonensis"), ("Hispania", "BUILD F Hispania(NC)"), ("Hispania", "BUILD CITY Aquitania"),
    ("Hispania", "BUILD I Aquitania"),  # a city built in the same phase would be joined: judged at the deadline
    ("Hispania", "BUILD FORT Narbonensis"), ("Hispania", "BUILD FORT Lusitania"), ("Hispania", "RAZE Narbonensis"),
    ("Hispania", "RAZE Hispania"), ("Hispania", "DESTROY Lusitania"), ("Hispania", "DISBAND Lusitania"),
    ("Hispania", "WAIVE"), ("Hispania", "PAY 40 Numidia"), ("Numidia", "DESTROY Numidia"),
    ("Numidia", "BUILD CITY Africa Proconsularis"),  # more than it has: every build fails at the deadline
])
def test_a_build_the_rules_allow_counts_on_submission(power: str, line: str) -> None:
    assert refusal(BUILDS, power, line) is None


def test_a_home_lost_or_a_capital_razed_says_why_nothing_is_built() -> None:
    lost = board("W-43A", {}, state(treasury={"Hispania": 40}, cities={"HIS": city("Italia", True, True),
                                                                       "NAR": city("Hispania")},
                                    control={"HIS": "Italia", "NAR": "Hispania"}))
    assert refusal(lost, "Hispania", "BUILD I Narbonensis") == (  # nowhere to build, and why
        "Hispania does not hold its home, Hispania: it builds no units until it takes it back")
    assert refusals_of(EMPIRE).build_site_refusal(lost, "Hispania", "NAR") == (
        "Hispania does not hold its home, Hispania: it builds no units until it takes it back")
    razed = state(treasury={"Hispania": 40}, cities={"NAR": city("Hispania")}, roads=[], control={"NAR": "Hispania"})
    del razed["cities"]["HIS"]
    razed_board = board("W-43A", {}, razed)
    assert refusal(razed_board, "Hispania", "BUILD I Narbonensis") == (
        "Hispania's capital is razed: it builds no units until it builds a city in Hispania")
    assert refusal(razed_board, "Hispania", "BUILD CITY Hispania") is None
    assert refusal(razed_board, "Hispania", "BUILD I Hispania") is None  # with the city built in the same phase


# -- at the deadline: the same reasons, and what only the whole phase shows -------------------------

def test_the_same_reasons_are_given_at_the_deadline() -> None:
    units = {"Hispania": ["I HIS", "C NAR", "F MBA"], "Numidia": ["I NUM", "K CEA"]}
    extra = state(treasury={"Hispania": 40}, cities={"NAR": city("Hispania")}, roads=[["HIS", "NAR"]],
                  control={"NAR": "Hispania"})
    result = at_the_deadline("S-43M", units, {
        "Hispania": ["I HIS - NAR - AQU", "F MBA - MNA - MTY", "PAY 100 Numidia", "PAY 35 Hispania", "PAY 35 Egyptus",
                     "BUILD CITY Aquitania", "C NAR - AQU then LUG"],
        "Numidia": ["NUM - CEA then TIN", "CEA - TIN then BEA", "I NUM - CEA then TIN"]}, extra)
    assert reasons(result, "Hispania") == {
        "I HIS - NAR - AQU": "illegal: no road from Narbonensis to Aquitania",
        "F MBA - MNA - MTY": "illegal: fleets do not move along roads: one province a move",
        "PAY 100 Numidia": "illegal: Hispania has 40 talents, not 100",
        "PAY 35 Hispania": "illegal: Hispania cannot pay itself",
        "PAY 35 Egyptus": None,
        "BUILD CITY AQU": "illegal: cities, forts and razing are ordered in the build phase",
        "C NAR - AQU then LUG": None,
    }
    numidia = result["results"]["Numidia"]
    assert [r["reason"] for r in numidia] == ["illegal: only cavalry and fleets make a second move",
                                              "illegal: only cavalry and fleets make a second move",
                                              "illegal: only cavalry and fleets make a second move"]
    assert result["extra"]["treasury"]["Hispania"] == 5 and result["extra"]["treasury"]["Egyptus"] == 35
    assert sorted(result["units"]["Hispania"]) == ["C LUG", "F MBA", "I HIS"]  # the second move made


def test_payments_beyond_what_is_left_fail_in_turn() -> None:
    result = at_the_deadline("S-43M", {}, {"Hispania": ["PAY 25 Egyptus", "PAY 20 Numidia", "PAY 15 Italia"]},
                             state(treasury={"Hispania": 40}))
    assert reasons(result, "Hispania") == {"PAY 25 Egyptus": None,
                                           "PAY 20 Numidia": "prevented: Hispania has only 15 talents left",
                                           "PAY 15 Italia": None}
    assert result["extra"]["treasury"]["Hispania"] == 0


BUILD_PHASE = state(treasury={"Hispania": 100}, cities={"NAR": city("Hispania")}, roads=[["HIS", "NAR"]],
                    control={"NAR": "Hispania", "LUS": "Hispania", "AQU": "Hispania"})


def test_builds_costing_more_than_the_treasury_all_fail_and_the_money_stays() -> None:
    orders = ["BUILD CITY Aquitania", "BUILD I Aquitania", "BUILD K Narbonensis", "BUILD FORT Lusitania"]
    result = at_the_deadline("W-43A", {"Hispania": ["I LUS"]}, {"Hispania": orders}, BUILD_PHASE)
    why = "prevented: Hispania's builds cost 120 talents and it has 90 talents: every build fails"
    assert list(reasons(result, "Hispania").values()) == [why] * 4
    assert result["extra"]["treasury"]["Hispania"] == 90 and result["units"]["Hispania"] == ["I LUS"]
    assert "AQU" not in result["extra"]["cities"] and "LUS" not in result["extra"]["cities"]


def test_a_build_beside_a_disband_fails_but_the_city_is_built() -> None:
    result = at_the_deadline("W-43A", {"Hispania": ["I LUS", "I AQU"]},
                             {"Hispania": ["DESTROY Aquitania", "BUILD I Hispania", "BUILD CITY Lusitania"]}, BUILD_PHASE)
    assert reasons(result, "Hispania") == {
        "DISBAND I AQU": None,
        "BUILD I HIS": "prevented: Hispania disbands this build phase, so it may not also build",
        "BUILD CITY LUS": None}
    assert result["units"]["Hispania"] == ["I LUS"] and result["extra"]["treasury"]["Hispania"] == 100 - 10 - 30


def test_a_unit_built_where_no_city_comes_fails_and_is_paid_back() -> None:
    result = at_the_deadline("W-43A", {}, {"Hispania": ["BUILD I Aquitania", "BUILD I Narbonensis"]}, BUILD_PHASE)
    assert reasons(result, "Hispania") == {
        "BUILD I AQU": "prevented: no city joined by roads to Hispania's capital in Aquitania", "BUILD I NAR": None}
    assert result["extra"]["treasury"]["Hispania"] == 90


def test_a_build_phase_payment_comes_after_the_upkeep() -> None:
    result = at_the_deadline("W-43A", {"Hispania": ["I LUS", "I AQU"]}, {"Hispania": ["PAY 100 Numidia", "PAY 80 Numidia"]},
                             BUILD_PHASE)
    assert reasons(result, "Hispania") == {"PAY 100 Numidia": "prevented: Hispania has only 80 talents left",
                                           "PAY 80 Numidia": None}
    assert result["extra"]["treasury"]["Numidia"] == 80


def test_unit_builds_refused_at_the_deadline_say_where_the_roads_fail() -> None:
    extra = state(treasury={"Hispania": 100}, cities={"BAL": city("Hispania"), "CEA": city("Numidia")},
                  control={"BAL": "Hispania", "GER": "Hispania"})
    result = at_the_deadline("W-43A", {}, {"Hispania": ["BUILD I Baleares", "BUILD I Caesariensis", "BUILD I Germania",
                                                        "BUILD I Hispania"]}, extra)
    assert reasons(result, "Hispania") == {
        "BUILD I BAL": "illegal: the city of Baleares is not joined by roads to Hispania's capital",
        "BUILD I CEA": "illegal: the city of Caesariensis is Numidia's",
        "BUILD I GER": "illegal: there is no city in Germania, and one built there now would not be joined by road "
                       "to Hispania's capital",
        "BUILD I HIS": None}


# -- by mail: line by line, nothing else lost -------------------------------------------------------------

PLAYERS = {"Hispania": "sextus@example.test", "Italia": "octavianus@example.test", "Macedonia": "brutus@example.test",
           "Galatia": "deiotarus@example.test", "Mesopotamia": "pacorus@example.test",
           "Egyptus": "cleopatra@example.test", "Numidia": "juba@example.test"}


def _game_of_seven(world: World) -> tuple[Post, str]:  # noqa: F811
    world.write_game("mutina", f"variant: {NAME}\ngm: master@example.test\n")
    world.tick()
    post = Post(world)
    secret = ""
    for power, address in PLAYERS.items():
        post.send(address, f"JOIN mutina {power}\n")
        found = re.search(r"^    (\S+)$", post.reply(address), re.MULTILINE)
        assert found
        secret = secret or found.group(1)  # Hispania's
    return post, secret


def _set_board(world: World, position: Position) -> None:  # noqa: F811
    with world.services.db.sessions() as session:
        game = find_game(session, "mutina")
        assert game is not None
        game.position, game.phase = encode_position(position), str(position.phase)
        session.commit()


def _answered(post: Post, secret: str, lines: list[str]) -> str:
    post.send(PLAYERS["Hispania"], "SIGNON Hispania mutina " + secret + "\n" + "\n".join(lines) + "\n")
    return re.sub(r"\n {8,}", " ", post.reply(PLAYERS["Hispania"]))  # long answers are folded


def test_wrong_orders_by_mail_are_answered_line_by_line_and_the_rest_counts(world: World) -> None:  # noqa: F811
    post, secret = _game_of_seven(world)
    _set_board(world, board("S-43M", {"Hispania": ["I HIS", "C NAR", "F MBA"], "Numidia": ["I NUM"]},
                            state(treasury={"Hispania": 40}, cities={"NAR": city("Hispania")}, roads=[["HIS", "NAR"]],
                                  control={"NAR": "Hispania"})))
    lines = ["I HIS - NAR - AQU", "F MBA - MNA - MTY", "PAY 100 Numidia", "PAY 33 Numidia", "PAY 35 Hispania",
             "BUILD CITY Aquitania", "I HIS - NAR then AQU", "C NAR - AQU then LUG", "F MBA - MNA", "I HIS H",
             "PAY 35 Egyptus"]
    reply = _answered(post, secret, lines)
    for line, answer in [
        ("I HIS - NAR - AQU", "ERROR: no road from Narbonensis to Aquitania"),
        ("F MBA - MNA - MTY", "ERROR: fleets do not move along roads: one province a move"),
        ("PAY 100 Numidia", "ERROR: Hispania has 40 talents, not 100"),
        ("PAY 33 Numidia", "ERROR: pay in multiples of 5 talents, not 33"),
        ("PAY 35 Hispania", "ERROR: Hispania cannot pay itself"),
        ("BUILD CITY Aquitania", "ERROR: cities, forts and razing are ordered in the build phase"),
        ("I HIS - NAR then AQU", "ERROR: only cavalry and fleets make a second move"),
        ("C NAR - AQU then LUG", "= Cavalry Narbonensis -> Aquitania then Lugdunensis"),
        ("F MBA - MNA", "= Fleet Mare Balearicum -> Mare Narbo"),
        ("I HIS H", "= Infantry Hispania HOLD"),
        ("PAY 35 Egyptus", "= PAY 35 talents to Egyptus"),
    ]:
        assert f"> {line}\n    {answer}" in reply, (line, answer, reply)
    current = reply[reply.index("Current orders"):]
    assert current.splitlines()[1:5] == ["  Cavalry Narbonensis -> Aquitania then Lugdunensis",
                                         "  Fleet Mare Balearicum -> Mare Narbo", "  Infantry Hispania HOLD",
                                         "  PAY 35 talents to Egyptus"]
    assert "Still without orders" not in current
    assert "Payments: 35 of your 40 talents." in " ".join(reply.split())


def test_wrong_build_orders_by_mail_are_answered_line_by_line_and_the_rest_counts(world: World) -> None:  # noqa: F811
    post, secret = _game_of_seven(world)
    _set_board(world, board("W-43A", {"Hispania": ["I LUS"], "Numidia": ["I NUM"]}, state(
        treasury={"Hispania": 100}, cities={"NAR": city("Hispania"), "BAL": city("Hispania"), "CEA": city("Numidia")},
        roads=[["HIS", "NAR"]], control={"NAR": "Hispania", "LUS": "Hispania", "AQU": "Hispania", "BAL": "Hispania"})))
    lines = ["BUILD CITY Narbonensis", "BUILD CITY Italia", "BUILD FORT Hispania", "RAZE Lusitania", "BUILD I Baleares",
             "BUILD I Caesariensis", "BUILD I Lusitania", "BUILD CITY Aquitania", "BUILD I Aquitania",
             "BUILD FORT Narbonensis", "PAY 5 Numidia"]
    reply = _answered(post, secret, lines)
    for line, answer in [
        ("BUILD CITY Narbonensis", "ERROR: Narbonensis has a city already"),
        ("BUILD CITY Italia", "ERROR: Hispania does not control Italia"),
        ("BUILD FORT Hispania", "ERROR: the city of Hispania is fortified already"),
        ("RAZE Lusitania", "ERROR: there is no city in Lusitania"),
        ("BUILD I Baleares", "ERROR: the city of Baleares is not joined by roads to Hispania's capital"),
        ("BUILD I Caesariensis", "ERROR: the city of Caesariensis is Numidia's"),
        ("BUILD I Lusitania", "ERROR: a unit stands in Lusitania"),
        ("BUILD CITY Aquitania", "= BUILD CITY Aquitania"),
        ("BUILD I Aquitania", "= BUILD Infantry Aquitania"),
        ("BUILD FORT Narbonensis", "= BUILD FORT Narbonensis"),
        ("PAY 5 Numidia", "= PAY 5 talents to Numidia"),
    ]:
        assert f"> {line}\n    {answer}" in reply, (line, answer, reply)
    current = reply[reply.index("Current orders"):]
    assert current.splitlines()[1:5] == ["  BUILD CITY Aquitania", "  BUILD Infantry Aquitania",
                                         "  BUILD FORT Narbonensis", "  PAY 5 talents to Numidia"]
    # what the good ones cost: 30 + 10 + 20 of the 100 - 10 (upkeep) - 5 (payment) left
    assert "Your builds cost 60 talents of the 85 talents you have after upkeep and payments." in " ".join(reply.split())


# -- the worked example of docs/adjudicate-interchange.md ---------------------------------------------

def test_the_documented_fall_and_build_phase_are_what_gm_adjudicate_gives() -> None:
    extra = state(treasury={"Egyptus": 20, "Galatia": 15, "Numidia": 30},
                  cities={"CEA": city("Numidia"), "TIN": city("Numidia")}, roads=[["CEA", "NUM"], ["CEA", "TIN"]],
                  control={"AFR": "Numidia", "CEA": "Numidia", "CYR": "Egyptus", "PAL": "Egyptus", "TIN": "Numidia"})
    fall = at_the_deadline("F-43M", {"Numidia": ["I TIN", "F MSA", "I CYR"], "Egyptus": ["I PAL"], "Galatia": ["I GAL"]},
                           {"Numidia": ["I TIN - CEA - NUM", "F MSA - MLI then MAL", "I CYR - EGY"],
                            "Egyptus": ["I PAL - ARA"], "Galatia": ["PAY 15 Egyptus", "I GAL H"]}, extra)
    assert fall["results"] == {
        "Numidia": [{"order": "I TIN - CEA - NUM", "unit": "I TIN", "outcome": "succeeds"},
                    {"order": "F MSA - MLI then MAL", "unit": "F MSA", "outcome": "succeeds", "notes": ["second move done"]},
                    {"order": "I CYR - EGY", "unit": "I CYR", "outcome": "succeeds"}],
        "Egyptus": [{"order": "I PAL - ARA", "unit": "I PAL", "outcome": "succeeds"}],
        "Galatia": [{"order": "PAY 15 Egyptus", "unit": None, "outcome": "succeeds",
                     "notes": ["intercepted by Numidia, who holds Aegyptus"]},
                    {"order": "I GAL H", "unit": "I GAL", "outcome": "succeeds", "notes": ["fortified city: +1 while it holds"]}]}
    assert fall["units"] == {"Egyptus": ["I ARA"], "Galatia": ["I GAL"], "Numidia": ["F MAL", "I EGY", "I NUM"]}
    assert (fall["dislodged"], fall["centers"], fall["next_phase"], fall["winner"]) == ({}, {}, "W-43A", None)
    others = {"Hispania": 15, "Italia": 15, "Macedonia": 15, "Mesopotamia": 15}
    assert fall["extra"]["treasury"] == {"Egyptus": 5, "Galatia": 15, "Numidia": 145} | others
    assert fall["extra"]["tribute"] == {"Egyptus": 5, "Galatia": 15, "Numidia": 65} | others
    assert fall["extra"]["cities"]["EGY"] == city("Numidia", True, True) and fall["extra"]["inflation"] == 1
    assert fall["extra"]["cities"]["CEA"] == city("Numidia")
    assert fall["extra"]["roads"] == [["CEA", "NUM"], ["CEA", "TIN"]]
    assert {p: fall["extra"]["control"][p] for p in ("AFR", "ARA", "CEA", "CYR", "EGY", "PAL")} == {
        "AFR": "Numidia", "ARA": "Egyptus", "CEA": "Numidia", "CYR": "Egyptus", "EGY": "Numidia", "PAL": "Egyptus"}
    assert fall["announcements"] == [
        "Numidia intercepts 15 talents paid by Galatia to Egyptus", "Numidia takes the fortified city of Aegyptus",
        "Numidia takes Aegyptus, Egyptus's home, and with it 35 talents of its treasury and tribute",
        "Egyptus collects 5 talents of tribute (treasury 5 talents)",
        "Galatia collects 15 talents of tribute (treasury 15 talents)",
        *(f"{p} collects 15 talents of tribute (treasury 15 talents)" for p in others),
        "Numidia collects 65 talents of tribute (treasury 145 talents)"]

    builds = at_the_deadline("W-43A", fall["units"], {
        "Numidia": ["BUILD I Aegyptus", "BUILD CITY Africa Proconsularis", "BUILD I Africa Proconsularis",
                    "BUILD FORT Caesariensis", "BUILD C Tingitana"],
        "Egyptus": ["DESTROY Arabia Petraea"], "Galatia": ["PAY 5 Numidia"]}, fall["extra"])
    assert builds["results"] == {
        "Numidia": [{"order": "BUILD I EGY", "unit": None, "outcome": "fails",
                     "reason": "illegal: the city of Aegyptus is not joined by roads to Numidia's capital"},
                    {"order": "BUILD CITY AFR", "unit": None, "outcome": "succeeds"},
                    {"order": "BUILD I AFR", "unit": "I AFR", "outcome": "succeeds"},
                    {"order": "BUILD FORT CEA", "unit": None, "outcome": "succeeds"},
                    {"order": "BUILD C TIN", "unit": "C TIN", "outcome": "succeeds"}],
        "Egyptus": [{"order": "DISBAND I ARA", "unit": "I ARA", "outcome": "succeeds"}],
        "Galatia": [{"order": "PAY 5 Numidia", "unit": None, "outcome": "succeeds"}]}
    assert builds["units"] == {"Galatia": ["I GAL"], "Numidia": ["C TIN", "F MAL", "I AFR", "I EGY", "I NUM"]}
    assert (builds["next_phase"], builds["winner"]) == ("S-42M", None)
    assert builds["extra"]["treasury"] == {"Egyptus": 0, "Galatia": 0, "Numidia": 40} | others
    assert builds["extra"]["cities"]["AFR"] == city("Numidia") and builds["extra"]["cities"]["CEA"] == city("Numidia", True)
    assert builds["extra"]["roads"] == [["AFR", "NUM"], ["CEA", "NUM"], ["CEA", "TIN"]]
    assert "tribute" not in builds["extra"]
    assert "Egyptus" not in EMPIRE.in_play(board("S-42M", builds["units"], builds["extra"]))
