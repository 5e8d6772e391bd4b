"""HELP diplomacy-of-the-empire: every ruling (docs/rules/diplomacy-of-the-empire.md) as this judge
applies it (and the judge's own decisions: the order of the build phase, the inflation marks as game settings, the order a
claimant owes), the order forms with an example each (read by the parser and legal on a board of
the variant), what the results show (the notes, announcements, accounts and replies quoted are the
judge's own), in lines of 72 columns at most; HELP RULES in a game gives the game's own marks."""

from __future__ import annotations

import re
from typing import Any

from gm.domain.orders import Build, Disband, Order, Waive
from gm.domain.position import Position
from gm.games.lifecycle import current_seats, find_game
from gm.games.orderbook import check_orders
from gm.interchange import adjudicate_json, read_request
from gm.orders import OrderGrammar, parse_line
from gm.reports.words import words_of
from gm.store.codec import decode_position
from gm.variants.catalog import VariantCatalog
from gm.variants.diplomacy_of_the_empire.orders import BuildCity, BuildFort, Pay, Raze
from gm.variants.setup import setup_of
from tests.commands.test_help import answer, example_orders
from tests.mail.conftest import Post
from tests.variants.test_diplomacy_of_the_empire import CLAIMANTS, city
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

WIDTH = 72
NAME = "diplomacy-of-the-empire"
CATALOG = VariantCatalog()
EMPIRE = CATALOG.get(NAME)
GRAMMAR = OrderGrammar.for_variant(EMPIRE)
HEADINGS = ("The calendar", "The start (rule 1)", "Units (rule 2)", "Second moves (rule 3)",
            "Control and tribute (rule 4)", "Inflation (rule 5)", "Cities, forts and roads (rule 6)",
            "The build phase (rules 2, 6, 7)", "A home lost (rule 7)", "Road moves (rule 8)", "Straits (rule 9)",
            "Payments (rule 10)", "Victory (rule 11)", "What the results show")
RULINGS = (
    # 1: the start
    "The first move is Spring 43 B.C.", "6 or 7 players", "one Infantry and a fortified city, its capital",
    "and no talents", "Egyptus (in Aegyptus)", "With six players Macedonia is left out and Syria gives 5 talents instead of 10",
    "PROCESS S-43M",
    # 2: units, prices, upkeep
    "Infantry (I) 10 talents strength 1, one move", "Cavalry (C) 20 talents", "Catapult (K) 30 talents strength 1 1/2",
    "an Infantry once it has retreated", "Fleet (F) 20 talents", "Upkeep is 10 talents a unit, paid by itself",
    "multiplied by the inflation stage", "Hispania(SC) or HIS/SC",
    # 3: second moves
    "never an Infantry or a Catapult", "The second is made in the retreat phase", "cuts no support",
    "fails if the first move failed", "left empty by a standoff", "a retreating unit that bounces so is destroyed",
    "may not return to where the first move began", "dislodged makes an ordinary retreat",
    # 4: control and tribute
    "blank territory (nobody's) by occupying it at the end of a Spring or a Fall",
    "another controls only by occupying it at the end of a Fall", "10 talents for these, 5 for each other land",
    "5 more for each of its cities", "Achaia, Aegyptus, Africa Proconsularis, Aquitania, Asia, Britannia",
    "Mesopotamia, Neapolis, Numidia, Syria.", "stay in the treasury",
    # 5: inflation, game settings
    "collects 105 talents of tribute or more", "from the build phase after one collects 205 or more, tripled",
    "Inflation never goes back", "The bonus of a home taken (rule 7) is not counted",
    "rules: {inflation_double_at: 105, inflation_triple_at: 205}",
    # 6: cities, forts, roads, razing
    "build a city (30 talents) in a land territory or island it controls", "50 talents for a new fortified city",
    "or 20 to fortify one of its cities (one fort a city)", "adds 1 to the hold of its owner's unit there while the unit does not move",
    "nothing to a unit whose move bounces", "never over a sea or a strait", "A road stays when a city changes hands",
    "its own capital or one it captured included", "no money comes back",
    # the build phase: this judge's order, all-or-nothing, build or disband, where, what is owed
    "1. Upkeep: 10 talents for each unit kept", "a unit built now pays from the next build phase on",
    "2. The payments given in the build phase", "If they cost more than it has left, every one of them fails",
    "if it disbands a unit, its unit builds fail (its cities and forts still count)",
    "4. Razing, then the new cities and forts with their roads, then the new units",
    "must disband (DESTROY or DISBAND) as many as it cannot pay", "joined by roads, through its own cities, to its capital",
    "A unit may be built in a city built in the same phase", "owes one order: a build, or WAIVE to save its money",
    "only builds a city or a fort (or only razes, or pays) writes WAIVE as well",
    # 7: a home lost, the taker's bonus, a razed capital
    "builds no units, anywhere", "collects tribute only where its own units stand", "keeps no treasury",
    "receives no payments", "The taker gains, once", "the loser's treasury, and the tribute (with 5 for a city of the loser's there)", "meets the road unit there, whatever the step",
    "until it builds a city in its home territory again",
    # 8: roads
    "A land unit (never a fleet) standing in a city may move along roads", "no territory may be entered twice",
    "stop in Narbonensis and Dalmatia", "supported into any one territory of its route", "never along roads",
    "is attacked from the territory it stands in", "cuts that unit's support", "never tries it, and cuts nothing there",
    # 9: straits
    "Thracia-Asia, Baetica-Tingitana, Neapolis-Sicilia, Belgica-Britannia", "do not block them",
    "No road crosses a strait, and no unit retreats across one", "having made no retreat, is destroyed",
    # 10: payments
    "in multiples of 5, never 0, never more than it has, never to itself", "in the order written",
    "intercepted by the invader", "payments come after the upkeep and before the builds",
    # 11: victory
    "no unit left and does not hold its home", "The last claimant still in the game wins", "(DRAW, CONCEDE)",
    "The rules allow a draw of two or three claimants only", "a vote for a draw is refused while more are still in the game",
    # the picture
    "each city a dot in its owner's colour (a walled square when fortified), each capital ringed",
)


def help_lines(world: World) -> list[str]:  # noqa: F811
    return answer(Post(world), "someone@example.org", f"HELP {NAME}\n")


def test_the_rules_of_diplomacy_of_the_empire_as_this_judge_reads_them(world: World) -> None:  # noqa: F811
    lines = help_lines(world)
    text = " ".join(" ".join(lines).split())  # the rulings are read across line ends
    assert lines[:2] == ["DIPLOMACY OF THE EMPIRE (Zachary Jarvie), as this judge", "reads its rules"]
    for heading in HEADINGS:
        assert heading in lines, heading
    for ruling in RULINGS:
        assert " ".join(ruling.split()) in text, ruling
    assert "In <game>" not in text and "the marks are" not in text  # outside a game: the defaults only
    assert all(len(line) <= WIDTH for line in lines), [line for line in lines if len(line) > WIDTH]
    assert answer(Post(world), "someone@example.org", "help Diplomacy of the Empire\n") == lines


def test_the_prices_and_marks_stated_are_the_ones_the_code_uses() -> None:
    from gm.variants.diplomacy_of_the_empire import economy

    assert economy.BASE_PRICE == {"I": 10, "C": 20, "K": 30, "F": 20}
    assert (economy.CITY, economy.FORT_WITH_CITY, economy.FORT_ON_CITY, economy.UPKEEP, economy.CITY_TRIBUTE) == (
        30, 50, 20, 10, 5)
    assert EMPIRE.options == {"inflation_double_at": 105, "inflation_triple_at": 205}
    assert setup_of(EMPIRE).option_problems({"inflation_double_at": 100, "inflation_triple_at": 200}) == []
    assert setup_of(EMPIRE).player_counts() == (6, 7)
    assert EMPIRE.draw_problem(["Italia", "Numidia", "Egyptus"]) is None
    assert EMPIRE.draw_problem(["Italia", "Numidia", "Egyptus", "Galatia"]) is not None


# -- the examples ----------------------------------------------------------------------------------


def board(phase: str, units: dict[str, list[str]], cities: dict[str, dict[str, Any]], roads: list[list[str]],
          control: dict[str, str], **more: Any) -> Position:
    capitals = {home: city(power, True, True) for power, home in EMPIRE.homes.items()}
    extra = {"treasury": {p: 100 for p in CLAIMANTS}, "cities": capitals | cities, "roads": roads,
             "control": {home: power for power, home in EMPIRE.homes.items()} | control, "inflation": 1}
    return read_request({"variant": NAME, "phase": phase, "units": units, "extra": extra, **more}, CATALOG).position


ROADS = [["AFR", "NUM"], ["CEA", "NUM"], ["CEA", "TIN"], ["DAL", "ITA"], ["DAL", "MAC"], ["HIS", "NAR"], ["ITA", "NAR"]]
BOARDS = {  # a board on which each kind of example is legal for the power whose order it can be
    "movement": board("S-43M", {"Hispania": ["I HIS", "I RAE"], "Italia": ["I ITA", "F MTY"], "Macedonia": ["I THR"],
                                "Numidia": ["C NUM", "C BEA"], "Galatia": ["K GAL", "I CAP", "F MRH", "F MAL"]},
                      {"NAR": city("Hispania"), "DAL": city("Macedonia"), "TIN": city("Numidia"), "CEA": city("Numidia"),
                       "AFR": city("Numidia")}, ROADS, {"NAR": "Hispania", "DAL": "Macedonia"}),
    "retreats": board("S-43R", {"Hispania": ["I ITA"]}, {}, [], {},
                      dislodged={"Italia": [{"unit": "K ITA", "attacker_from": "NAR", "retreats": ["NOR"]}]}),
    "builds": board("W-43A", {"Italia": ["I SIC"]}, {}, [], {"SIC": "Italia", "ASI": "Galatia"}),
}
KIND_OF = {"Retreat": "retreats", "Build": "builds", "BuildCity": "builds", "BuildFort": "builds", "Raze": "builds",
           "Disband": "builds", "Waive": "builds"}


def whose(order: Order, position: Position) -> str:
    """The claimant whose order the example can be: the unit's, the city's owner, the controller."""
    extra = position.extra
    if isinstance(order, (Pay, Waive)):
        return "Hispania"
    if isinstance(order, Build):
        return str(extra["cities"][order.unit.location.province]["owner"])
    if isinstance(order, (BuildCity, BuildFort, Raze)):
        return str(extra["control"][order.location.province])
    province = order.unit.location.province  # type: ignore[union-attr]
    units = [d.unit for d in position.dislodged] + list(position.units)  # a retreat is the dislodged unit's
    return next(u.power for u in units if u.location.province == province)


def test_every_example_order_reads_and_is_legal_on_the_board(world: World) -> None:  # noqa: F811
    examples = example_orders(help_lines(world))
    assert len(examples) >= 24
    for quoted in ("I HIS - NAR - ITA - DAL - MAC", "HISPANIA move to Nar, Ita, Dal, MACEDONIA", "C NUM - CEA then TIN",
                   "Numidia move to Ceasarienis then move to Tingitana", "PAY 35 Egyptus", "BUILD INFANTRY Italia",
                   "BUILD FLEET Hispania(SC)", "BUILD CITY Sicilia", "BUILD FORT Asia", "RAZE Galatia", "DESTROY Sicilia",
                   "DISBAND Sicilia", "WAIVE", "I RAE S I HIS - ITA"):
        assert quoted in examples, quoted
    kinds = set()
    for text in examples:
        parsed = parse_line(text, GRAMMAR, context=BOARDS["movement"])
        assert parsed.ok and parsed.order is not None, f"{text}: {parsed.diagnostics}"
        kind = type(parsed.order).__name__
        kinds.add(kind)
        position = BOARDS[KIND_OF.get(kind, "movement")]
        power = whose(parsed.order, position)
        assert check_orders(EMPIRE, position, power, [parsed.order]) == [None], (text, power)
    assert kinds >= {"Move", "MoveAlongPath", "MoveThen", "SupportMove", "Convoy", "Hold", "Pay", "Retreat", "Build",
                     "BuildCity", "BuildFort", "Raze", "Disband", "Waive"}
    build = parse_line("BUILD FLEET Hispania(SC)", GRAMMAR).order
    assert isinstance(build, Build) and str(build) == "BUILD F HIS/SC"
    assert isinstance(parse_line("DESTROY Sicilia", GRAMMAR).order, Disband)


# -- what the results show ---------------------------------------------------------------------------

def adjudicate(phase: str, units: dict[str, list[str]], orders: dict[str, list[str]], extra: dict[str, Any]) -> dict[str, Any]:
    return adjudicate_json({"variant": NAME, "phase": phase, "units": units, "orders": orders, "extra": extra}, CATALOG)


def state(treasury: dict[str, int], cities: dict[str, dict[str, Any]], roads: list[list[str]], control: dict[str, str],
          **more: Any) -> dict[str, Any]:
    return {"treasury": {p: 0 for p in CLAIMANTS} | treasury, "cities": cities, "roads": roads, "control": control,
            "inflation": 1, **more}


def mailed(announcement: str) -> str:
    """As the results mail writes an announcement (templates/mail/_phase_results.txt.j2)."""
    return announcement[:1].upper() + announcement[1:] + ("" if announcement.endswith(".") else ".")


def test_the_notes_announcements_and_accounts_quoted_are_the_judges_own(world: World) -> None:  # noqa: F811
    notes: set[str] = set()
    announced: set[str] = set()

    def run(phase: str, units: dict[str, list[str]], orders: dict[str, list[str]], extra: dict[str, Any]) -> None:
        result = adjudicate(phase, units, orders, extra)
        notes.update(note for results in result["results"].values() for r in results for note in r.get("notes", ()))
        announced.update(mailed(a) for a in result.get("announcements", ()))

    road = [["DAL", "ITA"], ["DAL", "MAC"], ["HIS", "NAR"], ["ITA", "NAR"]]
    road_cities = {"HIS": city("Hispania", True, True), "NAR": city("Hispania"), "ITA": city("Hispania"),
                   "DAL": city("Macedonia"), "MAC": city("Macedonia", True, True)}
    run("S-43M", {"Hispania": ["I HIS"], "Macedonia": ["I MAC"]},  # the rules' head-on bounce
        {"Hispania": ["I HIS - NAR - ITA - DAL - MAC"], "Macedonia": ["I MAC - DAL - ITA - NAR - HIS"]},
        state({}, road_cities, road, {"HIS": "Hispania", "NAR": "Hispania", "ITA": "Hispania", "MAC": "Macedonia"}))
    run("S-43M", {"Hispania": ["I HIS", "I RAE"], "Italia": ["I ITA"]},  # supported into the route
        {"Hispania": ["I HIS - NAR - ITA - DAL", "I RAE S I HIS - ITA"], "Italia": ["I ITA H"]},
        state({}, road_cities, road, {"HIS": "Hispania", "NAR": "Hispania", "ITA": "Hispania"}))
    run("S-43M", {"Italia": ["I ITA"]}, {"Italia": ["I ITA H"]},
        state({}, {"ITA": city("Italia", True, True)}, [], {"ITA": "Italia"}))
    run("S-43M", {"Numidia": ["C NUM"]}, {"Numidia": ["Numidia move to Ceasarienis then move to Tingitana"]},
        state({}, {}, [], {}))
    run("S-43M", {"Hispania": ["C RAE"], "Italia": ["I NEA"]}, {"Hispania": ["C RAE - ITA then NEA"]}, state({}, {}, [], {}))
    run("F-43M", {"Egyptus": ["I ARA"], "Galatia": ["I PAL", "I CYR"]},  # a payment intercepted
        {"Hispania": ["PAY 35 Egyptus"], "Galatia": ["I PAL - EGY", "I CYR S I PAL - EGY"]},
        state({"Hispania": 40}, {}, [], {"EGY": "Egyptus"}))
    run("F-43M", {"Hispania": ["I NAR", "C LUS"], "Numidia": ["I AFR", "C CEA"], "Egyptus": ["I EGY"], "Italia": ["I RAE"]},
        {"Hispania": ["I NAR - ITA", "PAY 20 Italia"], "Numidia": ["I AFR - CYR", "PAY 10 Egyptus"],
         "Egyptus": ["PAY 10 Italia"], "Italia": ["I RAE S I NAR - ITA"]},
        state({"Hispania": 40, "Numidia": 20, "Egyptus": 15, "Italia": 5},
              {"HIS": city("Hispania", True, True), "NAR": city("Hispania"), "NUM": city("Numidia", True, True),
               "EGY": city("Egyptus", True, True), "ITA": city("Italia", True, True), "CYR": city("Egyptus")},
              [["HIS", "NAR"]], {"HIS": "Hispania", "NAR": "Hispania", "NUM": "Numidia", "EGY": "Egyptus",
                                 "ITA": "Italia", "CYR": "Egyptus", "AFR": "Egyptus", "LUS": "Hispania"}))
    run("F-43M", {"Hispania": ["I HIS"]}, {}, state({}, {}, [], {"HIS": "Hispania"}, inflation_double_at=10))

    lines = help_lines(world)
    shown = " ".join(" ".join(lines[lines.index("What the results show"):]).split())
    for note in ("fortified city: +1 while it holds", "step 2 to ITA bounced; it stops in NAR", "supported into ITA (+1)",
                 "second move done", "second move fails: NEA is occupied", "intercepted by Galatia, who holds Aegyptus"):
        assert note in notes, (note, notes)
        assert note in shown, note
    for line in ("Galatia intercepts 35 talents paid by Hispania to Egyptus.", "Numidia takes the city of Cyrenaica.",
                 "Hispania takes Italia, Italia's home, and with it 5 talents of its treasury and tribute.",
                 "Hispania collects 45 talents of tribute (treasury 100 talents).",
                 "Inflation: from this build phase every price and the upkeep are doubled."):
        assert line in announced, (line, announced)
        assert line in shown, line

    fall = adjudicate("F-43M", {"Hispania": ["I HIS", "I LUS"]}, {},
                      state({"Hispania": 5}, {"HIS": city("Hispania", True, True)}, [], {"HIS": "Hispania", "LUS": "Hispania"}))
    before_builds = decode_position(EMPIRE, {"phase": fall["next_phase"], "units": fall["units"], "centres": {},
                                             "extra": fall["extra"]})
    (_, accounts), _ = words_of(EMPIRE).state_report(before_builds)
    account = "Hispania: 25 talents (tribute 20), upkeep 20 for 2 units, 5 to spend"
    assert account in accounts and account in shown
    builds = decode_position(EMPIRE, {"phase": "W-43A", "units": {"Hispania": ["I LUS"]}, "centres": {},
                                      "extra": state({"Hispania": 45}, {"HIS": city("Hispania", True, True)}, [],
                                                     {"HIS": "Hispania", "LUS": "Hispania"})})
    (reply,) = words_of(EMPIRE).orders_note(builds, "Hispania", [parse_line("BUILD C HIS", GRAMMAR).order])
    assert reply == "Your builds cost 20 talents of the 35 talents you have after upkeep." and reply in shown


# -- in a game ------------------------------------------------------------------------------------------

def test_help_rules_in_a_game_gives_the_inflation_marks_its_gm_chose(world: World) -> None:  # noqa: F811
    world.write_game("imperium", f"variant: {NAME}\ngm: master@example.test\nseats: 6\n"
                                 "rules: {inflation_double_at: 100, inflation_triple_at: 200}\n")
    world.tick()
    post = Post(world)
    secrets = {}
    senders = [f"claimant{n}@example.test" for n in range(6)]
    for sender in senders:
        post.send(sender, "JOIN imperium\n", subject="joining")
        found = re.search(r"^    (\S+-\S+-\S+-\d+)$", post.reply(sender), re.MULTILINE)
        assert found
        secrets[sender] = found.group(1)
    with world.services.db.sessions() as session:
        game = find_game(session, "imperium")
        assert game is not None
        power = next(s.power for s in current_seats(game) if s.player.email == senders[0])
    lines = answer(post, senders[0], f"SIGNON {power} imperium {secrets[senders[0]]}\nHELP RULES\n")
    text = " ".join(" ".join(lines).split())
    assert lines[0] == "DIPLOMACY OF THE EMPIRE (Zachary Jarvie), as this judge"
    assert "collects 100 talents of tribute or more" in text and "after one collects 200 or more" in text
    assert "In imperium the marks are 100 and 200 talents." in text
    assert all(len(line) <= WIDTH for line in lines), [line for line in lines if len(line) > WIDTH]
