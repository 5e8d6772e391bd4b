"""HELP eagles: every ruling of docs/rules/eagles.md as this judge applies it, the order forms with an example
each (read by the parser and legal on a board of Eagles), what the results show (the dice lines
quoted are the judge's own), in lines of 72 columns at most; HELP RULES in a game adds how many
centres win it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from gm.adjudicator.dice import derive
from gm.adjudicator.phaselog import PhaseLog
from gm.games.lifecycle import current_seats, find_game
from gm.domain.position import Position
from gm.games.orderbook import check_orders
from gm.interchange import adjudicate_json, read_request
from gm.orders import OrderGrammar, parse_line
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of
from tests.commands.test_help import answer, example_orders
from tests.mail.conftest import Post
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

WIDTH = 72
CATALOG = VariantCatalog()
EAGLES = CATALOG.get("eagles")
HEADINGS = ("The calendar", "The start (rule 1)", "Neutral centres (rule 2)", "Sea warfare (rule 3)",
            "Winter storms (rule 4)", "Barbarian lands (rule 5)", "Reinforcements (rule 6)", "Victory (rule 7)",
            "Dice", "What the results show")
RULINGS = (
    # 1: the setup
    "The first move is Spring A.D. 118", "2 to 12 players", "(a D12, then a D11...)", "Caesarea (in Caesarea Maritima)",
    "draws two allied centres among these 20 (a D20, then a D19...)", "With more than ten players these join them",
    "Bulla Regia, Durocortorum, Hispalis, Massilia.", "no supply centres at all", "three original centres",
    "starts with an army in each", "JOIN <game> fleets", "Nobody starts in Roma", "shows every draw with its die",
    # 2: neutral defending armies
    "neutral defending army (listed under Neutral): strength 1", "never retreats", "needs at least one support",
    "Roma has no defending army",
    # 3: sea warfare
    "Any number of fleets, of any powers, may be in one sea", "never bounces", "given the same attack attack together",
    "never convoys and attacks at once", "(a) Every fleet moves", "a fleet that sails away escapes",
    "one whose move fails (it bounces off a port held against it) is attacked where it stayed",
    "highest first (ties roll again", "+1 if two fleets attack together, +2 if three or more",
    "1    one attacking fleet sunk", "2    every attacking fleet sunk", "the defender rolls: even, two of each side",
    "4-5  no effect", "6    one defending fleet sunk", "7-8  two defending fleets sunk",
    "a defender that survives makes its own attack", "support gives no support, whatever its die",
    "stays failed, whatever the attacks do", "even when an attack sinks one of them",
    "survives still convoys", "sunk is lost with it", "never overland",
    # 4: storms
    "every fleet at sea (not in port) rolls a D6", "1    severely damaged: next Spring it only holds", "2    sunk",
    "3    lightly damaged: next Spring it may not attack or support", "4-6  no effect",
    "Damage lasts to the end of the Spring move",
    # 5: barbarian lands, desert
    "Aethiopia*, Arabia Deserta*, Atlas", "Phazania*", "in desert, destroyed by sandstorms", "2, 5 destroyed by barbarians",
    "4    repelled back where it came from", "One roll per entry", "rolls only if it is still there at the end of the next move",
    # 6: reinforcements
    "three original centres that it still owns", "Roma, Herculaneum, Pompeii and Brundisium",
    "loses that one first",
    # 7: victory, as victory_threshold computes it
    "19 of 36 with ten players or fewer, 21 of 40 with eleven or twelve", "(DRAW, CONCEDE)",
    # dice and results
    "seed's SHA-256", "publishes the seed", "HELP DICE", "in the order rolled",
)


def help_lines(world: World) -> list[str]:  # noqa: F811
    return answer(Post(world), "someone@example.org", "HELP eagles\n")


def test_the_rules_of_eagles_as_this_judge_reads_them(world: World) -> None:  # noqa: F811
    lines = help_lines(world)
    text = " ".join(" ".join(lines).split())  # the rulings are read across line ends
    assert lines[0] == "EAGLES (Ed Greenwood), as this judge reads its rules"
    for heading in HEADINGS:
        assert heading in lines, heading
    for ruling in RULINGS:
        assert " ".join(ruling.split()) in text, ruling
    assert all(len(line) <= WIDTH for line in lines), [line for line in lines if len(line) > WIDTH]
    assert answer(Post(world), "someone@example.org", "help Eagles\n") == lines


def test_the_victory_stated_is_the_one_the_code_computes() -> None:
    for players, stated in ((2, 19), (10, 19), (11, 21), (12, 21)):
        log = PhaseLog("help")
        start = setup_of(EAGLES).opening(setup_of(EAGLES).powers_in_play(players, log), log)
        assert EAGLES.victory_threshold(start) == stated


# -- the examples ----------------------------------------------------------------------------------

def board(phase: str, units: dict[str, list[str]], **more: Any) -> Position:
    return read_request({"variant": "eagles", "phase": phase, "units": units, **more}, CATALOG).position


ORIGINALS = {"Alexandria": ["ALX", "CAR", "TIN"], "Carthago Nova": ["CNO", "PAL", "PET"]}
BOARDS = {  # a board on which each kind of example is Alexandria's to give
    "movement": board("S118M", {"Alexandria": ["A NUM", "A BYC", "F MIN", "F MIN", "F MTY", "A HER", "A BRU", "F MIO",
                                               "F SIC"],
                                "Carthago Nova": ["F MIN", "F CAR", "F BRT"], "Neutral": ["A THA"]}),
    "retreats": board("S118R", {"Carthago Nova": ["A NUM"]},
                      dislodged={"Alexandria": [{"unit": "A NUM", "retreats": ["MAU"]}]}),
    "builds": board("W118A", {"Alexandria": ["A NUM"]}, extra={"original_centres": ORIGINALS},
                    centers={"Alexandria": ["ALX", "CAR", "TIN", "ROM"]}),
    "removals": board("W118A", {"Alexandria": ["A NUM", "A BYC", "A ALX"]}, extra={"original_centres": ORIGINALS},
                      centers={"Alexandria": ["ALX", "TIN"]}),
}
KIND_OF = {"Retreat": "retreats", "Build": "builds", "Waive": "builds", "Disband": "removals"}


def test_every_example_order_of_eagles_reads_and_is_legal_on_the_board(world: World) -> None:  # noqa: F811
    grammar = OrderGrammar.for_variant(EAGLES)
    examples = example_orders(help_lines(world))
    assert len(examples) >= 16
    kinds = set()
    for text in examples:
        parsed = parse_line(text, grammar, context=BOARDS["movement"])
        assert parsed.ok and parsed.order is not None, f"{text}: {parsed.diagnostics}"
        kind = type(parsed.order).__name__
        kinds.add(kind)
        position = BOARDS[KIND_OF.get(kind, "movement")]
        assert check_orders(EAGLES, position, "Alexandria", [parsed.order]) == [None], text
    assert kinds >= {"Move", "Hold", "SupportMove", "Convoy", "Attack", "Retreat", "Build", "Disband", "Waive"}


# -- what the results show ---------------------------------------------------------------------------

def _seed_for(*wanted: tuple[str, int]) -> str:
    for n in range(100_000):
        seed = f"help {n}"
        if all(derive(seed, message, 6) == value for message, value in wanted):
            return seed
    raise AssertionError(f"no seed gives {wanted}")


def test_the_dice_lines_quoted_are_the_judges_own(world: World) -> None:  # noqa: F811
    alexandria = "order of attacks: F MIN (Alexandria) on fleets in MIN (Carthago Nova)"
    carthago = "order of attacks: F MIN (Carthago Nova) on fleets in MIN (Alexandria)"
    seed = _seed_for((f"F118M|{alexandria}|0", 5), (f"F118M|{carthago}|0", 2),
                     ("F118M|attack by F MIN (Alexandria) on F MIN (Carthago Nova)|0", 6),
                     ("F118M|barbarians: A GER (Lutetia) in Germania|0", 4), ("F118R|storm: F MIN (Lutetia)|0", 1))
    result = adjudicate_json({
        "variant": "eagles", "phase": "F118M", "seed": seed,
        "units": {"Alexandria": ["F MIN"], "Carthago Nova": ["F MIN"], "Lutetia": ["F MIN", "A BAT"]},
        "orders": {"Alexandria": ["F MIN attacks F MIN (Carthago Nova)"],
                   "Carthago Nova": ["F MIN attacks F MIN (Alexandria)"], "Lutetia": ["A BAT - GER"]}}, CATALOG)
    shown = set()
    for roll in result["rolls"]:  # as the results mail writes them (templates/mail/_phase_results.txt.j2)
        when = "" if roll["phase"] == "F118M" else f" ({EAGLES.title(EAGLES.calendar.parse(roll['phase']))})"
        shown.add(f"{roll['purpose'][:1].upper()}{roll['purpose'][1:]}{when}, d{roll['sides']}: {roll['value']} — "
                  f"{roll['effect']}")
    lines = help_lines(world)
    quoted = " ".join(lines[lines.index("What the results show"):])
    quoted = re.sub(r"\s+", " ", quoted)
    for line in ("Order of attacks: F MIN (Alexandria) on fleets in MIN (Carthago Nova), d6: 5 — attack 1 of 2",
                 "Attack by F MIN (Alexandria) on F MIN (Carthago Nova), d6: 6 — 6: F MIN (Carthago Nova) sunk",
                 "Storm: F MIN (Lutetia) (Fall A.D. 118 retreats), d6: 1 — F MIN (Lutetia) severely damaged",
                 "Barbarians: A GER (Lutetia) in Germania, d6: 4 — A GER (Lutetia) repelled back to Batavia"):
        assert line in shown, (line, shown)
        assert line in quoted, line


def _interchange_example(heading: str) -> dict:
    """The first input of a variant's section of docs/adjudicate-interchange.md."""
    text = (Path(__file__).parents[2] / "docs" / "adjudicate-interchange.md").read_text(encoding="utf-8")
    section = text[text.index(heading):]
    return json.loads(section[section.index("```json") + len("```json"):section.index("```", section.index("```json") + 7)])


def test_every_worked_example_of_help_dice_is_the_judges_own_roll(world: World) -> None:  # noqa: F811
    """HELP DICE's example line is the one the results mail prints for the
    interchange's Eagles example, and each die(...) it works out, run with the function it
    prints, gives the value it states, which is the judge's."""
    lines = answer(Post(world), "someone@example.org", "HELP DICE\n")
    text = " ".join(" ".join(lines).split())
    code = "\n".join(line[4:] for line in lines[lines.index("    import hashlib, hmac"):])
    scope: dict = {}  # type: ignore[type-arg]
    exec(code, scope)  # noqa: S102  (the text a player would run)
    die = scope["die"]
    example = _interchange_example("### Eagles")
    result = adjudicate_json(example, CATALOG)
    judged: dict[tuple[str, str], list[int]] = {}
    for roll in result["rolls"]:
        judged.setdefault((roll["phase"], roll["purpose"]), []).append(roll["value"])
    worked = re.findall(r'die\("([^"]*)", "([^"]*)", "([^"]*)", (\d+)\),? is (\d+)', text)
    assert len(worked) >= 2, text
    for seed, phase, purpose, n, value in worked:
        assert seed == example["seed"]
        assert die(seed, phase, purpose, int(n)) == int(value), (phase, purpose, n)
        assert judged[(phase, purpose)][int(n)] == int(value), (phase, purpose, n)
    quoted = re.search(r"^  (Storm: .*)$", "\n".join(lines), re.MULTILINE)
    assert quoted is not None
    shown = []
    for roll in result["rolls"]:  # as the results mail writes them (templates/mail/_phase_results.txt.j2)
        when = "" if roll["phase"] == example["phase"] else f" ({EAGLES.title(EAGLES.calendar.parse(roll['phase']))})"
        shown.append(f"{roll['purpose'][:1].upper()}{roll['purpose'][1:]}{when}, d{roll['sides']}: {roll['value']} — "
                     f"{roll['effect']}")
    assert quoted.group(1) in shown


# -- in a game ------------------------------------------------------------------------------------------

def test_help_rules_in_a_game_of_eagles_says_how_many_centres_win_it(world: World) -> None:  # noqa: F811
    world.write_game("aquilae", "variant: eagles\ngm: master@example.test\nseats: 2\n")
    world.tick()
    post = Post(world)
    secrets = {}
    for sender in ("prima@example.test", "secunda@example.test"):
        post.send(sender, "JOIN aquilae\n", subject="joining")
        found = re.search(r"^    (\S+-\S+-\S+-\d+)$", post.reply(sender), re.MULTILINE)
        assert found
        secrets[sender] = found.group(1)
    with world.services.db.sessions() as session:
        game = find_game(session, "aquilae")
        assert game is not None
        power = next(s.power for s in current_seats(game) if s.player.email == "prima@example.test")
    lines = answer(post, "prima@example.test", f"SIGNON {power} aquilae {secrets['prima@example.test']}\nHELP RULES\n")
    text = " ".join(" ".join(lines).split())
    assert lines[0] == "EAGLES (Ed Greenwood), as this judge reads its rules"
    assert "This game has 2 players: 19 centres win." in text
    assert "JOIN aquilae fleets" in text
    assert all(len(line) <= WIDTH for line in lines), [line for line in lines if len(line) > WIDTH]
