"""Each Roman variant played by mail as a new player plays it, with the usual mistakes,
and every reply saying what was understood. Adjustment orders judged against the board when they
arrive (in the variant's own terms); a wrong unit type answered with the unit that stands there,
and standard letters read where a variant's land units have other names; a replaced order named;
leaders named in echoes, results and the start mail, and counts that keep apart the units that need
no supply; suggestions of the kind of word expected; a variant order written loosely answered with
its form and an example from the player's own units; PREVIEW without a die; HELP and LIST that
know what they list."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from gm.domain.position import Position
from gm.games.lifecycle import current_seats, find_game
from gm.games.passwords import hash_secret
from gm.interchange import read_request
from gm.store.codec import encode_position
from gm.store.models import GameStatus
from gm.variants.catalog import VariantCatalog
from tests.mail.conftest import GM_SECRET, Post
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)
from tests.variants.by_mail import secret_in, stored_game

CATALOG = VariantCatalog()
SETTINGS = ("variant: {variant}\ngm: master@example.test\ntimezone: Europe/Rome\n"
            "deadlines: {{movement: 48h, retreats: 24h, adjustments: 24h}}\nearly: false\npress: white\n")


def _words(text: str) -> str:
    """Text with every run of spaces and line breaks as one space: replies fold long lines at 72."""
    return " ".join(text.split())


def _has(text: str, *pieces: str) -> bool:
    return all(_words(piece) in _words(text) for piece in pieces)


def _game(world: World, variant: str, joins: list[tuple[str, str]], extra: str = "", dice: str | None = None
          ) -> tuple[Post, dict[str, str], dict[str, str], list[str]]:
    """A game named g, joined by mail: (post, secret by address, power by address, the JOIN replies)."""
    world.write_game("g", SETTINGS.format(variant=variant) + extra)
    world.tick()
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        game.gm_secret_hash = hash_secret(GM_SECRET)
        if dice is not None:
            game.dice_seed = dice
    post = Post(world)
    secrets, replies = {}, []
    for address, asked in joins:
        post.send(address, f"JOIN g {asked}\n".replace(" \n", "\n"), subject="joining")
        replies.append(post.reply(address))
        secrets[address] = secret_in(replies[-1])
    seats = {s.player.email: s.power for s in current_seats(stored_game(world, "g")) if s.player and s.power}
    return post, secrets, seats, replies


def _say(post: Post, address: str, power: str, secret: str, *lines: str) -> str:
    post.send(address, f"SIGNON {power} g {secret}\n" + "\n".join(lines) + "\n")
    return post.reply(address)


def _put(world: World, position: Position) -> None:
    """The game at ``position``, as a new phase (orders of the phase before are not carried)."""
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        game.position = encode_position(position)
        game.phase = str(position.phase)
        game.phase_seq += 1


def _board(variant: str, phase: str, units: dict[str, list[str]], **more: Any) -> Position:
    return read_request({"variant": variant, "phase": phase, "units": units, **more}, CATALOG).position


def _process(world: World) -> None:
    game = stored_game(world, "g")
    world.clock.set(game.deadline + timedelta(minutes=1))
    assert world.tick().processed == [f"g {game.phase}"]


def _answer(reply: str, line: str, whole: bool = False) -> str:
    """What the reply says under one line of the mail (an order's lines; ``whole``: a command's
    section), its folded lines joined (_words)."""
    assert f"> {line}\n" in reply, (line, reply)
    said = reply.split(f"> {line}\n", 1)[1].split("\n> ", 1)[0]
    return _words(said if whole else said.split("\n\n", 1)[0])


# -- Diplomacy of the Empire ------------------------------------------------------------------------

EMPIRE = ["Italia", "Egyptus", "Macedonia", "Hispania", "Galatia", "Mesopotamia", "Numidia"]


def _empire(world: World) -> tuple[Post, dict[str, str]]:
    post, secrets, _, _ = _game(world, "diplomacy-of-the-empire", [(f"{p.lower()}@example.test", p) for p in EMPIRE])
    return post, {p: secrets[f"{p.lower()}@example.test"] for p in EMPIRE}


def test_diplomacy_of_the_empire_reads_standard_letters_and_wrong_types_as_the_unit_there(world: World) -> None:  # noqa: F811
    post, secret = _empire(world)
    reply = _say(post, "egyptus@example.test", "Egyptus", secret["Egyptus"],
                 "Army Aegyptus -> Arabia Petraea", "F egypt - cyrenaica", "A Italia - Neapolis", "BUILD I Aegyptus",
                 "PAY Galatia 5")
    assert _answer(reply, "Army Aegyptus -> Arabia Petraea") == _words(
        "    = Infantry Aegyptus -> Arabia Petraea\n    note: Aegyptus holds an Infantry (Diplomacy of the Empire "
        "has no armies): read as Infantry Aegyptus -> Arabia Petraea")
    assert _answer(reply, "F egypt - cyrenaica") == _words(
        "    = Infantry Aegyptus -> Cyrenaica\n"
        "    note: Aegyptus holds an Infantry: read as Infantry Aegyptus -> Cyrenaica\n"
        "    note: replaces Infantry Aegyptus -> Arabia Petraea")
    assert _answer(reply, "A Italia - Neapolis") == _words("    ERROR: the unit in Italia is not Egyptus's")
    assert _answer(reply, "BUILD I Aegyptus") == _words(
        "    ERROR: a build is ordered in the build phase (Winter 43 B.C. adjustments), not now")
    assert _answer(reply, "PAY Galatia 5") == _words(
        '    ERROR: expected a number, found "Galatia"\n'
        "    note: write it as PAY <talents> <claimant>, e.g. PAY 5 Galatia")
    assert "Current orders for Egyptus in g, Spring 43 B.C. movement:\n  Infantry Aegyptus -> Cyrenaica\n" in reply
    reply = _say(post, "italia@example.test", "Italia", secret["Italia"], "A Italia - Neapolis", "C Italia H")
    assert _answer(reply, "A Italia - Neapolis").startswith(_words("    = Infantry Italia -> Neapolis\n"))
    assert _answer(reply, "C Italia H") == _words("    = Infantry Italia HOLD\n"
                                            "    note: Italia holds an Infantry: read as Infantry Italia HOLD\n"
                                            "    note: replaces Infantry Italia -> Neapolis")
    _process(world)  # the results move the infantry, as the reply said
    (results,) = [m for m in post.mails(to="galatia@example.test", kind="results")]
    assert "Egyptus:   Infantry Aegyptus -> Cyrenaica\n" in results.body and "Fleet" not in results.body


def test_diplomacy_of_the_empire_judges_builds_on_receipt_in_talents(world: World) -> None:  # noqa: F811
    post, secret = _empire(world)
    start = world.services.position_of(stored_game(world, "g"))
    extra = dict(start.extra, treasury={**start.extra["treasury"], "Italia": 40},
                 control={**start.extra["control"], "NEA": "Italia"})
    units = tuple(u._replace(location=u.location._replace(province="NEA")) if u.power == "Italia" else u
                  for u in start.units)
    _put(world, start.replace(phase=CATALOG.get("diplomacy-of-the-empire").calendar.parse("W-43A"), units=units,
                              extra=extra))
    reply = _say(post, "italia@example.test", "Italia", secret["Italia"],
                 "WAIVE", "BUILD I Italia", "WAIVE", "BUILD CITY Neapolis", "BUILD A Italia")
    assert _answer(reply, "WAIVE") == _words("    = WAIVE")
    assert _answer(reply, "BUILD I Italia") == _words("    = BUILD Infantry Italia\n    note: replaces WAIVE")
    assert _has(reply, "> WAIVE\n    ERROR: Italia has room to build in 1 city only (Italia), and its orders fill them")
    assert _answer(reply, "BUILD CITY Neapolis") == _words(
        "    ERROR: Italia's builds cost 40 talents and it has 30 talents: every build fails; so this order is not "
        "taken, and your other orders stand")
    assert _answer(reply, "BUILD A Italia") == _words(
        "    ERROR: Diplomacy of the Empire has no armies: build an infantry (I), cavalry (C) or catapult (K), "
        "e.g. BUILD I Italia")
    assert "Current orders for Italia in g, Winter 43 B.C. adjustments:\n  BUILD Infantry Italia\n" in reply
    _process(world)
    (results,) = [m for m in post.mails(to="galatia@example.test", kind="results")]
    assert "Italia:    BUILD Infantry Italia\n" in results.body and "illegal" not in results.body


def test_diplomacy_of_the_empire_help_knows_its_orders_and_its_board(world: World) -> None:  # noqa: F811
    post, secret = _empire(world)
    reply = _say(post, "italia@example.test", "Italia", secret["Italia"], "HELP PAY", "HELP ORDERS", "HELP PROVINCES",
                 "LIST g")
    assert _answer(reply, "HELP PAY", whole=True) == _words(
        "In Diplomacy of the Empire:\n  PAY <talents> <claimant>\n      Talents, in fives, to another claimant, paid "
        "to its home province (rule 10); in any phase.\n      e.g. PAY 5 Egyptus")
    orders = _answer(reply, "HELP ORDERS", whole=True)
    assert _has(orders, "<unit> - <province> then <province>", "BUILD CITY <territory>", "RAZE <territory>")
    assert "e.g. I Italia - " in orders and "Aegyptus" not in orders  # Italia's own units only
    assert "  TIN  Tingitana; also mauretania tingitana, tingitania\n" in reply
    assert "  Italia       1 unit; deadlines: none yet\n" in reply  # LIST: no supply centres, so no "0 centres"
    post.send("someone@example.test", "HELP PAY\nHELP variants\n")
    anywhere = _words(post.reply("someone@example.test"))
    assert _has(anywhere, "In Diplomacy of the Empire (diplomacy-of-the-empire):\n  PAY <talents> <claimant>",
                "  diplomacy-of-the-empire: Diplomacy of the Empire, 6-7 players; talents,")


# -- Rise of Rome II --------------------------------------------------------------------------------

ROME = {"Rome": "scipio", "Carthage": "hannibal", "Macedonia": "philip", "Egypt": "ptolemy", "Persia": "antiochus",
        "Greek States": "philopoemen", "Barbarians": "brennus"}


def test_rise_of_rome_ii_names_its_leaders_everywhere_and_counts_them_apart(world: World) -> None:  # noqa: F811
    post, secrets, _, _ = _game(world, "rise-of-rome-ii", [(f"{a}@example.test", p) for p, a in ROME.items()])
    hannibal = "hannibal@example.test"
    (start,) = post.mails(to=hannibal, kind="start")
    assert _has(start.body, "Hannibal (Leader, Carthage), to be placed")
    reply = _say(post, hannibal, "Carthage", secrets[hannibal], "Hannibal starts in New Carthage",
                 "Hannibal - Mauretania", "A New Carthagee - Saguntum", "sack A Thapsus", "HELP SACK")
    assert _answer(reply, "Hannibal starts in New Carthage") == _words(
        "    = Hannibal (Leader, New Carthage) STARTS IN New Carthage")
    assert _answer(reply, "A New Carthagee - Saguntum") == _words(
        '    ERROR: unknown province "New Carthagee" — did you mean New Carthage?')
    assert _answer(reply, "sack A Thapsus") == _words("    = Army Thapsus SACK")
    assert ("Current orders for Carthage in g, Spring 220 B.C. movement:\n"
            "  Hannibal (Leader, New Carthage) STARTS IN New Carthage\n"
            "  Hannibal (Leader, New Carthage) -> Mauretania\n") in reply
    missing = _words(reply.split("Still without orders: ", 1)[1].split("\nDeadline", 1)[0])
    assert "Army New Carthage" in missing and "Fleet Carthage" in missing  # the leader's orders are not the army's
    assert _answer(reply, "HELP SACK", whole=True).startswith(_words("In Rise of Rome II:\n  <unit> SACK\n"))
    reply = _say(post, hannibal, "Carthage", secrets[hannibal], "A New Carthage S Hannibal - Mauretania")
    assert _answer(reply, "A New Carthage S Hannibal - Mauretania") == _words(
        "    = Army New Carthage SUPPORT Hannibal (Leader, New Carthage) -> Mauretania")
    _process(world)
    _process(world)  # the Autumn: the centres counted
    bodies = [m.body for m in post.mails(to="scipio@example.test", kind="results")]
    assert "Carthage:  Hannibal (Leader, New Carthage) STARTS IN New Carthage\n" in bodies[0]
    assert re.search(r"Carthage: +\d+ centres, +\d+ units and a leader:", bodies[-1]), bodies[-1]
    history = _say(post, hannibal, "Carthage", secrets[hannibal], "HISTORY 3")
    assert _has(history, "Carthage: Hannibal (Leader, New Carthage) STARTS IN New Carthage")


# -- Eagles -----------------------------------------------------------------------------------------

def _eagles(world: World) -> tuple[Post, dict[str, str], dict[str, str], list[str]]:
    post, secrets, seats, replies = _game(world, "eagles", [("prima@example.test", ""), ("secunda@example.test", "")],
                                          extra="seats: 2\n", dice="replies 1")
    return post, secrets, seats, replies


def test_eagles_joining_and_list_speak_of_the_players_own_units_and_seats(world: World) -> None:  # noqa: F811
    world.write_game("g", SETTINGS.format(variant="eagles") + "seats: 3\n")
    world.tick()
    post = Post(world)
    post.send("prima@example.test", "JOIN g\nLIST g\n")
    reply = post.reply("prima@example.test")
    assert "Sign on with: SIGNON <power> g <secret>\n" in reply  # no example: the dice draw the units at the start
    assert _has(reply, "  1 of 3 seats taken, 2 open: it starts when every seat is taken, or when its game master "
                "starts it with 2 or more players.")
    post.send("secunda@example.test", "JOIN g\n")
    post.send("tertia@example.test", "JOIN g\n")
    last = post.reply("tertia@example.test")
    power = re.search(r"you play (.+)\.", last).group(1)  # type: ignore[union-attr]
    example = re.search(r"then your orders, e\.g\.\n    (.*)\n", last).group(1)  # type: ignore[union-attr]
    position = world.services.position_of(stored_game(world, "g"))
    own = {CATALOG.get("eagles").map.provinces[u.location.province].name for u in position.units_of(power)}
    assert example.split(" - ")[0].split(" ", 1)[1] in own, (example, own)


def test_eagles_replies_name_what_was_understood(world: World) -> None:  # noqa: F811
    post, secrets, seats, _ = _eagles(world)
    me, other = seats["prima@example.test"], seats["secunda@example.test"]
    _put(world, _board("eagles", "S119M", {me: ["F SIN", "A NIS", "A ANT", "A TIN"], other: ["F PON", "A LUT"]}))
    reply = _say(post, "prima@example.test", me, secrets["prima@example.test"],
                 "move Nisibis to Osrhoene", "fleet sinope attacks the fleets in pontus euxinus", "antiochia to cilicia",
                 "army antioch attacks palmyra", "A TIN - Mauretania Tingitana", "BUILD F Carthago Nova", "Tingis holds",
                 "A Nisibis S Antiochia - Palmyra", "support A Nisibis - Osrhoene")
    assert _answer(reply, "move Nisibis to Osrhoene") == _words("    = Army Nisibis -> Osrhoene")
    assert _answer(reply, "fleet sinope attacks the fleets in pontus euxinus") == _words(
        '    ERROR: unexpected "fleets in pontus euxinus" at the end of the order\n'
        f"    note: write it as F <sea> attacks F <sea> (<power>), e.g. F Sinope attacks F Pontus ({other})")
    assert _answer(reply, "army antioch attacks palmyra") == _words(
        "    = Army Antiochia -> Palmyra\n    note: replaces Army Antiochia -> Tarsus")
    assert _answer(reply, "A TIN - Mauretania Tingitana") == _words(
        '    ERROR: "Mauretania Tingitana" is Tingis, where the unit stands: a unit cannot move to the province it is in')
    assert _answer(reply, "BUILD F Carthago Nova") == _words(
        "    ERROR: a build is ordered in the build phase (Winter A.D. 119 adjustments), not now")
    assert _answer(reply, "Tingis holds") == _words("    = Army Tingis HOLD")
    assert _answer(reply, "A Nisibis S Antiochia - Palmyra") == _words(
        "    = Army Nisibis SUPPORT Army Antiochia -> Palmyra\n    note: replaces Army Nisibis -> Osrhoene")
    assert _answer(reply, "support A Nisibis - Osrhoene") == _words(
        '    ERROR: "support" comes after the unit it orders: write the unit first\n'
        "    note: write it as <unit> S <unit> [- <province>], e.g. A Nisibis S A Antiochia - Osrhoene")


def test_eagles_builds_are_judged_together_on_receipt(world: World) -> None:  # noqa: F811
    post, secrets, seats, _ = _eagles(world)
    me = seats["prima@example.test"]
    variant = CATALOG.get("eagles")
    start = world.services.position_of(stored_game(world, "g"))
    mine = start.units_of(me)
    winter = start.replace(phase=variant.calendar.parse("W118A"), units=tuple(u for u in start.units if u not in mine[1:]))
    (plan,) = [a for a in variant.adjustments(winter) if a.power == me]
    sites = sorted(plan.build_sites, key=lambda p: variant.map.provinces[p].name)
    assert plan.count == len(sites) >= 2
    _put(world, winter)
    names = [variant.map.provinces[s].name for s in sites]
    lines = [f"BUILD A {name}" for name in names] + ["WAIVE"]
    reply = _say(post, "prima@example.test", me, secrets["prima@example.test"], *lines)
    assert _answer(reply, "WAIVE") == f"ERROR: {me} has only {plan.count} builds"
    assert f"Current orders for {me} in g, Winter A.D. 118 adjustments:\n" + "".join(
        f"  BUILD Army {name}\n" for name in names) in reply


def test_a_preview_rolls_no_die_and_says_what_waits_on_the_dice(world: World) -> None:  # noqa: F811
    post, secrets, seats, _ = _eagles(world)
    me, other = seats["prima@example.test"], seats["secunda@example.test"]
    _put(world, _board("eagles", "S119M", {me: ["F MIN", "A CAR"], other: ["F MIN", "A LUT"]}))
    reply = _say(post, "prima@example.test", me, secrets["prima@example.test"], f"F MIN attacks F MIN ({other})",
                 "A CAR - NUM")
    assert "ERROR" not in reply, reply
    post.send("master@example.test", f"SIGNON GM g {GM_SECRET}\nPREVIEW\n")
    (preview,) = post.mails(to="master@example.test", kind="preview")
    body = preview.body
    assert "Dice:" not in body and "Attack by" not in body and "sunk" not in body, body
    assert _has(body, f"{me}: Fleet Mare Internum attacks Fleet Mare Internum ({other}) its result waits on the dice")
    assert _has(body, f"{me}: Army Carthago -> Numidia\n{me}:") or _has(body, f"{me}: Army Carthago -> Numidia\n\n")


# -- Roman Diplomacy --------------------------------------------------------------------------------

def test_roman_diplomacy_judges_builds_on_receipt_and_counts_garrisons_apart(world: World) -> None:  # noqa: F811
    post, secrets, _, _ = _game(world, "roman-diplomacy-i", [("latins@example.test", "Rome as Latins"),
                                                             ("punics@example.test", "Tunis as Punics")],
                                extra="seats: 2\n")
    assert stored_game(world, "g").status == GameStatus.ACTIVE
    reply = _say(post, "latins@example.test", "Latins", secrets["latins@example.test"],
                 "BUILD A Rome", "WAIVE", "WAIVE", "HELP GIVE", "HELP ORDERS")
    assert "> WAIVE\n    ERROR: Latins has only 1 build\n> WAIVE\n    ERROR: Latins has only 1 build\n" in reply
    assert "Current orders for Latins in g, Winter A.D. 99 adjustments:\n  BUILD Army Rome\n" in reply
    assert _answer(reply, "HELP GIVE", whole=True).startswith(_words("In Roman Diplomacy I:\n  GIVE <unit> TO <empire>"))
    orders = _answer(reply, "HELP ORDERS", whole=True)
    assert "e.g. BUILD A Rome" in orders and "e.g. FEDERATE Punics" in orders
    assert "REMOVE G Rome" not in orders and "BUILD G" not in orders  # a garrison is neither built nor removed
    _process(world)
    (results,) = [m for m in post.mails(to="punics@example.test", kind="results")]
    assert "Latins:    1 centre,  1 unit and a garrison: Rome" in results.body
    assert "WAIVE" not in results.body


# -- Classical ---------------------------------------------------------------------------------------

def test_classical_reads_a_wrong_type_as_the_unit_there(world: World) -> None:  # noqa: F811
    powers = ["Rome", "Carthage", "Macedon", "Egypt", "Syria"]
    post, secrets, _, _ = _game(world, "classical", [(f"{p.lower()}@example.test", p) for p in powers])
    reply = _say(post, "rome@example.test", "Rome", secrets["rome@example.test"], "F Roma - Etruria", "Rome holds")
    assert _answer(reply, "F Roma - Etruria") == _words("    = Army Roma -> Etruria\n"
                                                 "    note: Roma holds an Army: read as Army Roma -> Etruria")
    assert _answer(reply, "Rome holds") == _words("    = Army Roma HOLD\n    note: replaces Army Roma -> Etruria")
