"""Eagles' own orders written wrong: each is answered line by line with the reason, by
the order parser (what cannot be read) or by the variant's review of the orders on the board (what
the rules forbid), on submission as at the deadline; the other orders of the mail still count."""

from __future__ import annotations

import re
from typing import Any

import pytest

from gm.domain.position import Position
from gm.games.lifecycle import current_seats, find_game
from gm.games.orderbook import check_orders
from gm.interchange import adjudicate_json, read_request
from gm.orders import OrderGrammar, parse_line
from gm.store.codec import encode_position
from gm.variants.catalog import VariantCatalog
from tests.mail.conftest import Post
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

CATALOG = VariantCatalog()
EAGLES = CATALOG.get("eagles")
GRAMMAR = OrderGrammar.for_variant(EAGLES)


def board(phase: str, units: dict[str, list[str]], **more: Any) -> Position:
    return read_request({"variant": "eagles", "phase": phase, "units": units, **more}, CATALOG).position


def refusal(position: Position, power: str, line: str) -> str | None:
    """Why the review refuses the order on submission (None: it counts)."""
    parsed = parse_line(line, GRAMMAR, context=position)
    assert parsed.ok and parsed.order is not None, (line, parsed.diagnostics)
    (why,) = check_orders(EAGLES, position, power, [parsed.order])
    return why


def at_the_deadline(phase: str, units: dict[str, list[str]], orders: dict[str, list[str]],
                    **more: Any) -> dict[str, Any]:
    return adjudicate_json({"variant": "eagles", "phase": phase, "units": units, "orders": orders, "seed": "orders",
                            **more}, CATALOG)


# -- what the parser cannot read ---------------------------------------------------------------------

@pytest.mark.parametrize(("line", "message", "suggestion"), [
    ("F MIN attacks", 'missing what is attacked after "attacks": a province to move to, or a fleet: '
                      "F <sea> attacks F <sea> (<power>)", None),
    ("F MIN attack", 'missing what is attacked after "attacks"', None),
    ("F MIN attacks (Carthago Nova)", 'missing what is attacked after "attacks"', None),
    ("F MIN attacks F", "missing province", None),
    ("F MIN attacks F Mare Internun (Carthago Nova)", 'unknown province "Mare Internun"', "Mare Internum"),
    # the bracket names a power, never a province: Carthage is Carthago, no power of Eagles
    ("F MIN attacks F MIN (Carthage)", 'unknown power "Carthage"', "Carthago Nova"),
    ("F MIN attacks F MIN (Rome)", 'unknown power "Rome"', None),
    ("F MIN attacks F MIN (Carthago Nova", 'missing ")"', None),
    ("F MIN attacks F MIN (Carthago Nova) now", 'unexpected "now" at the end of the order', None),
    ("attacks F MIN (Carthago Nova)", '"attacks" comes after the unit it orders: write the unit first', None),
])
def test_an_attack_that_cannot_be_read_is_answered_with_what_is_wrong(line: str, message: str,
                                                                       suggestion: str | None) -> None:
    parsed = parse_line(line, GRAMMAR)
    assert parsed.order is None and len(parsed.diagnostics) == 1, parsed
    (diagnostic,) = parsed.diagnostics
    assert diagnostic.message.startswith(message), diagnostic.message
    assert diagnostic.suggestion == suggestion


def test_attacks_still_read_as_moves_where_no_fleet_is_named() -> None:
    assert str(parse_line("F Mare Internum attacks Carthago", GRAMMAR).order) == "F MIN - CAR"
    assert str(parse_line("A Carthago attacks Numidia", GRAMMAR).order) == "A CAR - NUM"


# -- what the rules forbid ---------------------------------------------------------------------------

SEAS = board("S118M", {"Alexandria": ["F MIN", "A CAR", "F ALX", "F MSA"],
                       "Carthago Nova": ["F MIN", "F PEL", "F MTY", "F MSA"], "Ephesus": ["F MSA", "F SIC"],
                       "Lutetia": ["A LUT"], "Neutral": ["A CRN"]})


@pytest.mark.parametrize(("line", "why"), [
    ("A CAR attacks F MIN (Carthago Nova)", "only a fleet attacks (fleets)"),
    ("F MIN attacks A CAR", "a fleet attacks only fleets"),
    ("F ALX attacks F Memphis (Carthago Nova)", "no fleet can be in Memphis"),
    ("F MIN attacks F MTY (Carthago Nova)", "a fleet attacks fleets in its own sea, not in the next one"),
    ("F ALX attacks F Caesarea Maritima (Carthago Nova)",
     "Caesarea Maritima is not within reach of F ALX: a fleet attacks in its own sea, a port next to it, "
     "or (in port) along the coast"),
    ("F ALX attacks F ALX", "a fleet in port attacks along the coast, not its own port"),
    ("F MIN attacks F MIN (Alexandria)", "a fleet does not attack its own power's fleets"),
    ("F MSA attacks F MSA", "say whose fleets in Mare Sardoum are attacked: F MSA attacks F MSA (<power>)"),
    ("F ALX attacks F Mare Aegyptium",
     "no other power's fleet is in Mare Aegyptium to attack (to attack fleets sailing in, name their power: "
     "F ALX attacks F MAG (<power>))"),
    ("F MIN attacks F MIN (Lutetia)", "Lutetia has no fleet in or next to Mare Internum to attack"),
    ("F MIN attacks F MIN (Leptis Magna)", "Leptis Magna has no fleet in or next to Mare Internum to attack"),
    ("A CRN - ATH", "the unit in Corinthus is not Alexandria's"),
    ("F MTY attacks F MTY (Alexandria)", "the unit in Mare Tyrrhenum is not Alexandria's"),
])
def test_an_attack_the_rules_forbid_is_refused_with_the_reason(line: str, why: str) -> None:
    assert refusal(SEAS, "Alexandria", line) == why


@pytest.mark.parametrize("line", [
    "F MIN attacks F MIN (Carthago Nova)",
    "F MIN attacks F MIN",  # one other power's fleets there: its name may be left out
    "F MIN attacks F Sicilia",  # a port next to the sea
    "F MIN attacks F MIN (Ephesus)",  # Ephesus' fleets next door may sail in
    "F ALX attacks F Pelusium (Carthago Nova)",  # in port, along the coast
    "F ALX attacks F MAG (Carthago Nova)",  # in port, the sea next to it
])
def test_an_attack_the_rules_allow_counts(line: str) -> None:
    assert refusal(SEAS, "Alexandria", line) is None


def test_the_same_reasons_are_given_at_the_deadline() -> None:
    units = {"Alexandria": ["F MIN", "A CAR"], "Carthago Nova": ["F MIN"]}
    result = at_the_deadline("S118M", units, {"Alexandria": [
        "A CAR attacks F MIN (Carthago Nova)", "F MIN attacks F MIN (Lutetia)"]})
    assert [r["reason"] for r in result["results"]["Alexandria"]] == [
        "illegal: only a fleet attacks (fleets)", "illegal: Lutetia has no fleet in or next to Mare Internum to attack"]
    assert "rolls" not in result  # a refused attack rolls nothing
    empty = at_the_deadline("S118M", {"Alexandria": ["F MIN"]}, {"Alexandria": ["F MIN attacks F MIN"]})
    assert empty["results"]["Alexandria"][0]["reason"].startswith(
        "illegal: no other power's fleet is in Mare Internum to attack")


def test_a_neutral_defending_army_only_holds() -> None:
    result = at_the_deadline("S118M", {"Neutral": ["A CRN"]}, {"Neutral": ["A CRN - ATH"]})
    assert result["results"]["Neutral"][0]["reason"] == "illegal: a neutral defending army only holds"


# -- one fleet: a convoy or an attack, never both ----------------------------------------------------

def test_a_fleet_given_a_convoy_and_an_attack_follows_the_last_and_two_fleets_do_both() -> None:
    orders = {"Alexandria": ["F MIN C A CAR - SIC", "A CAR - SIC", "F MIN attacks F MIN (Carthago Nova)"]}
    one = at_the_deadline("S118M", {"Alexandria": ["F MIN", "A CAR"], "Carthago Nova": ["F MIN"]}, orders)
    convoy, army, attack = one["results"]["Alexandria"]
    assert convoy["reason"] == "superseded" and army["reason"] == "no convoy"
    assert attack["order"] == "F MIN ATTACKS F MIN (Carthago Nova)" and attack.get("reason") != "superseded"
    two = at_the_deadline("S118M", {"Alexandria": ["F MIN", "F MIN", "A CAR"], "Carthago Nova": ["F MIN"]}, orders)
    convoy, army, attack = two["results"]["Alexandria"]
    assert convoy["outcome"] == "succeeds" and army["outcome"] == "succeeds"
    assert attack.get("reason") != "superseded"


# -- damaged fleets (rule 4) ---------------------------------------------------------------------------

DAMAGED = board("S119M", {"Alexandria": ["F MIN", "F MTY", "A CAR", "A HER"], "Carthago Nova": ["F MIN", "F MTY"]},
                extra={"damaged": [{"power": "Alexandria", "unit": "F MIN", "damage": "light"},
                                   {"power": "Alexandria", "unit": "F MTY", "damage": "severe"}]})
LIGHT = "F MIN is lightly damaged by a winter storm: this Spring it may not attack or support"
SEVERE = "F MTY is severely damaged by a winter storm: this Spring it only holds and defends itself"


@pytest.mark.parametrize(("line", "why"), [
    ("F MIN attacks F MIN (Carthago Nova)", LIGHT),
    ("F MIN S A CAR - BYC", LIGHT),
    ("F MIN S A CAR", LIGHT),
    ("F MIN - MSA", None),
    ("F MIN C A CAR - SIC", None),
    ("F MIN H", None),
    ("F MTY attacks F MTY (Carthago Nova)", SEVERE),
    ("F MTY - MIN", SEVERE),
    ("F MTY C A HER - SIC", SEVERE),
    ("F MTY S F MIN", SEVERE),
    ("F MTY H", None),
])
def test_a_damaged_fleet_is_told_what_it_may_not_do(line: str, why: str | None) -> None:
    assert refusal(DAMAGED, "Alexandria", line) == why


# -- builds (rule 6) -----------------------------------------------------------------------------------

BUILDS = board("W118A", {"Alexandria": ["F MIN"], "Carthago Nova": ["A CNO"]},
               extra={"original_centres": {"Alexandria": ["ALX", "CAR", "TIN"], "Carthago Nova": ["CNO", "PAL", "PET"]}},
               centers={"Alexandria": ["ALX", "CAR", "TIN", "ROM", "HER", "NIC"], "Carthago Nova": ["CNO", "PAL", "PET"]})


@pytest.mark.parametrize(("line", "why"), [
    ("BUILD A Alexandria", None),  # an original centre
    ("BUILD F Tingis", None),
    ("BUILD F Roma", None),  # a central city it owns
    ("BUILD A Herculaneum", None),
    ("BUILD A Nicomedia", "Nicomedia is not a free supply centre where Alexandria may build"),  # owned, not original
    ("BUILD A Pompeii", "Pompeii is not a free supply centre where Alexandria may build"),  # not owned
    ("BUILD A Carthago Nova", "Carthago Nova is not a free supply centre where Alexandria may build"),
    ("BUILD F Mare Internum", "Mare Internum is not a free supply centre where Alexandria may build"),
    ("REMOVE F Mare Internum", "Alexandria has no units to remove"),
])
def test_a_build_outside_the_allowed_centres_is_refused_with_the_reason(line: str, why: str | None) -> None:
    assert refusal(BUILDS, "Alexandria", line) == why


# -- by mail: line by line, nothing else lost -------------------------------------------------------------

def test_wrong_eagles_orders_are_answered_line_by_line_and_the_rest_of_the_mail_counts(world: World) -> None:  # noqa: F811
    world.write_game("classis", "variant: eagles\ngm: master@example.test\nseats: 2\n")
    world.tick()
    post = Post(world)
    secret = ""
    for sender in ("prima@example.test", "secunda@example.test"):
        post.send(sender, "JOIN classis\n", subject="joining")
        found = re.search(r"^    (\S+-\S+-\S+-\d+)$", post.reply(sender), re.MULTILINE)
        assert found
        secret = secret or found.group(1)
    with world.services.db.sessions() as session:  # the board this test needs, for the powers drawn
        game = find_game(session, "classis")
        assert game is not None
        me = next(s.power for s in current_seats(game) if s.player.email == "prima@example.test")
        other = next(s.power for s in current_seats(game) if s.power != me)
        game.position = encode_position(board(
            "S118M", {me: ["F MIN", "A CAR", "F MTY"], other: ["F MIN", "A LUT"]},
            extra={"damaged": [{"power": me, "unit": "F MTY", "damage": "light"}]}))
        session.commit()
    lines = ["F MIN attacks", "A CAR attacks F MIN", "F MIN attacks F MTY", f"F MIN attacks F MIN ({me})",
             "F MTY S F MIN", "F MTY attacks F MTY", f"F MIN attacks F MIN ({other})", "A CAR - NUM",
             "F MTY - MIN"]
    post.send("prima@example.test", f"SIGNON {me} classis {secret}\n" + "\n".join(lines) + "\n")
    reply = post.reply("prima@example.test")
    answered = re.sub(r"\n {8,}", " ", reply)  # long answers are folded
    for line, answer in [
        ("F MIN attacks", 'ERROR: missing what is attacked after "attacks"'),
        ("A CAR attacks F MIN", "ERROR: only a fleet attacks (fleets)"),
        ("F MIN attacks F MTY", "ERROR: a fleet attacks fleets in its own sea, not in the next one"),
        (f"F MIN attacks F MIN ({me})", "ERROR: a fleet does not attack its own power's fleets"),
        ("F MTY S F MIN", "ERROR: F MTY is lightly damaged by a winter storm: this Spring it may not attack"),
        ("F MTY attacks F MTY", "ERROR: no other power's fleet is in Mare Tyrrhenum to attack"),
        (f"F MIN attacks F MIN ({other})", f"= Fleet Mare Internum attacks Fleet Mare Internum ({other})"),
        ("A CAR - NUM", "= Army Carthago -> Numidia"),
        ("F MTY - MIN", "= Fleet Mare Tyrrhenum -> Mare Internum"),
    ]:
        assert f"> {line}\n    {answer}" in answered, (line, answer, reply)
    current = reply[reply.index("Current orders"):]
    assert current.splitlines()[1:4] == [f"  Fleet Mare Internum attacks Fleet Mare Internum ({other})",
                                         "  Army Carthago -> Numidia", "  Fleet Mare Tyrrhenum -> Mare Internum"]
    assert "Still without orders" not in current
