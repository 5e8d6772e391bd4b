"""HELP: the command list; a variant's rules as this judge reads them (HELP <variant>, HELP
RULES, and after the command list in a game of that variant); the mails that mention them."""

from __future__ import annotations

import pytest

from gm.domain.orders import Convoy, Move, Order, SupportHold, SupportMove
from gm.domain.units import Unit
from gm.games.lifecycle import current_seats, find_game
from gm.games.passwords import hash_secret
from gm.orders import OrderGrammar, parse_line
from tests.mail.conftest import Post, secret_of
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)

CLASSICAL = """\
variant: classical
gm: master@example.test
timezone: Europe/Rome
deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}
players:
  - {email: rome@example.test, power: Rome}
  - {email: carthage@example.test, power: Carthage}
  - {email: macedon@example.test, power: Macedon}
  - {email: egypt@example.test, power: Egypt}
  - {email: syria@example.test, power: Syria}
"""
WIDTH = 72


@pytest.fixture
def post(world: World) -> Post:  # noqa: F811
    world.write_game("punic", CLASSICAL)
    world.write_game("g", game_file())
    world.tick()
    with world.services.db.unit_of_work() as session:
        for name in ("punic", "g"):
            for seat in current_seats(find_game(session, name)):
                seat.secret_hash = hash_secret(secret_of(seat.power))
    return Post(world)


def answer(post: Post, sender: str, body: str) -> list[str]:
    """The lines of the reply's last section (what the last command answered)."""
    post.send(sender, body)
    text = post.reply(sender)
    return text.rstrip("\n").split("\n\n> ")[-1].split("\n")[1:]


def after_examples(lines: list[str]) -> list[str]:
    """The HELP list from the first blank line on (the sentence before it gives example orders)."""
    return lines[lines.index(""):]


def rules_of_classical(post: Post) -> list[str]:
    return answer(post, "someone@example.org", "HELP classical\n")


def test_help_says_how_to_ask_for_a_variants_rules(post: Post) -> None:
    lines = answer(post, "someone@example.org", "HELP\n")
    text = "\n".join(lines)
    assert lines[0].startswith("Commands, one a line.")
    assert "  HELP [command | topic | variant]" in lines
    assert "HELP <variant> gives a variant's rules as this judge reads them (LIST\nshows each game's variant)." in text
    assert "CLASSICAL DIPLOMACY" not in text  # not signed on: the list alone
    assert all(len(line) <= WIDTH for line in lines)


def test_help_with_a_variant_name_gives_its_rules_anywhere(post: Post) -> None:
    lines = rules_of_classical(post)
    assert lines[0] == "CLASSICAL DIPLOMACY (Andy Schwarz and Vincent Mous), as this judge"
    for heading in ("The calendar (rule 3)", "Victory (rule 4)", "Builds (rule 6)", "Land bridges (rule 8)",
                    "What the results show"):
        assert heading in lines
    text = "\n".join(lines)
    assert "holds 18 or more supply centres" in text  # from the map's rules
    assert "  Capua - The Mamertines (across Liparae)" in lines  # every bridge, from the map
    assert "  Rome       Army Brundisium, Fleet Capua, Army Roma" in lines
    assert all(len(line) <= WIDTH for line in lines), [line for line in lines if len(line) > WIDTH]
    assert answer(post, "someone@example.org", "help Classical\n") == lines


def example_orders(lines: list[str]) -> list[str]:
    """The example orders: lines indented six spaces after a line ending in 'e.g.:'."""
    found, inside = [], False
    for line in lines:
        if line.endswith("e.g.:"):
            inside = True
        elif inside and line.startswith("      "):
            found.append(line.strip())
        else:
            inside = False
    return found


def test_every_example_order_reads_and_fits_the_board(post: Post) -> None:
    variant = post.world.services.catalog.get("classical")
    grammar = OrderGrammar.for_variant(variant)
    examples = example_orders(rules_of_classical(post))
    assert len(examples) >= 10
    kinds = set()
    for text in examples:
        parsed = parse_line(text, grammar)
        assert parsed.ok, f"{text}: {parsed.diagnostics}"
        order: Order = parsed.order  # type: ignore[assignment]
        kinds.add(type(order).__name__)
        unit = Unit("Rome", order.unit.type, order.unit.location) if order.unit else None
        if isinstance(order, Move) and not order.via_convoy:
            assert variant.destinations(unit, order.destination.province), text
        elif isinstance(order, (SupportHold, SupportMove)):
            goal = order.destination.province if isinstance(order, SupportMove) else order.supported.location.province
            assert variant.can_support_into(unit, goal), text
        elif isinstance(order, Convoy):
            assert variant.convoy_province(order.unit.location.province), text
    assert kinds >= {"Move", "Hold", "SupportHold", "SupportMove", "Convoy", "Retreat", "Disband", "Build", "Waive"}


def test_signed_on_to_a_game_help_adds_its_rules_and_help_rules_gives_them(post: Post) -> None:
    signon = f"SIGNON Rome punic {secret_of('Rome')}\n"
    rules = rules_of_classical(post)
    assert answer(post, "rome@example.test", signon + "HELP RULES\n") == rules
    lines = answer(post, "rome@example.test", signon + "HELP\n")
    commands = answer(post, "someone@example.org", "HELP\n")
    assert after_examples(lines) == after_examples(commands) + [""] + rules  # its examples are Rome's own


def test_a_game_of_a_variant_without_rules_text_gets_the_list_alone(post: Post) -> None:
    signon = f"SIGNON France g {secret_of('France')}\n"
    signed_on = answer(post, "france@example.test", signon + "HELP\n")
    assert after_examples(signed_on) == after_examples(answer(post, "someone@example.org", "HELP\n"))
    assert answer(post, "france@example.test", signon + "HELP RULES\n") == [
        "No rules text is written for standard: it is played by the standard",
        "rules, read as the DATC v3.0 prefers, on its own map."]


def test_help_rules_needs_a_game_and_an_unknown_word_is_refused(post: Post) -> None:
    # (from a player's address: a stranger gets one refusal an hour)
    refused = answer(post, "france@example.test", "HELP RULES\n")
    assert refused == ["ERROR: sign on to a game first, or write HELP <variant>"]
    assert answer(post, "france@example.test", "HELP nosuch\n") == [
        "ERROR: unknown command 'NOSUCH'. HELP lists the commands and topics."]
    assert answer(post, "france@example.test", "HELP list\n") == [
        "LIST [game | PROVINCES [variant | game]]",
        "  the games on this judge under a header, each with its variant, state, phase and next deadline (and "
        "the powers open to take over); one game's state (seats taken and open "
        "while it forms; each power's deadlines kept and missed once in play); or the board's province names and "
        "abbreviations"]


def test_the_joined_and_start_mails_of_such_a_game_say_where_its_rules_are(post: Post) -> None:
    (joined,) = post.mails(to="rome@example.test", kind="joined")
    assert "HELP classical gives the rules of classical as this judge reads them." in joined.body
    (start,) = post.mails(to="rome@example.test", kind="start")
    assert "HELP RULES, after your SIGNON, gives the rules of Classical Diplomacy as\nthis judge reads them." \
        in start.body
    for mail in post.mails(to="france@example.test"):
        assert "HELP RULES" not in mail.body and "gives the rules" not in mail.body
