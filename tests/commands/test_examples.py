"""Every mail's example orders are ones the reader could send in its game: the
joined mail's first order and HELP's examples, once signed on, are written from the player's own
units (never a Paris in a Classical game), and each reads and counts on the board."""

from __future__ import annotations

import pytest

from gm.games.orderbook import check_orders
from gm.orders import OrderGrammar, parse_line
from gm.reports.examples import examples_for
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of
from tests.commands.test_help import answer, post  # noqa: F401  (fixture)
from tests.mail.conftest import Post, secret_of
from tests.store.conftest import database_url, world  # noqa: F401  (fixtures)

CATALOG = VariantCatalog()


@pytest.mark.parametrize("name", [n for n in CATALOG.names() if not setup_of(CATALOG.get(n)).open_membership])
def test_each_powers_examples_are_its_own_legal_orders(name: str) -> None:
    variant = CATALOG.get(name)
    position = variant.initial_position()
    grammar = OrderGrammar.for_variant(variant)
    for power in sorted({u.power for u in position.units} - set(variant.unplayed_powers)):
        examples = examples_for(variant, position, power)
        assert examples.move is not None and examples.hold is not None, power
        mine = {u.location.province for u in position.units_of(power)}
        orders = []
        for text in (examples.move, examples.support, examples.hold):
            if text is None:
                continue
            parsed = parse_line(text, grammar)
            assert parsed.ok and parsed.order is not None and parsed.order.unit is not None, text
            assert parsed.order.unit.province in mine, text
            orders.append(parsed.order)
        assert check_orders(variant, position, power, orders) == [None] * len(orders), (power, orders)
        assert parse_line(examples.build or "", grammar).ok


def test_the_joined_mail_shows_a_first_order_of_the_players_own_units(post: Post) -> None:  # noqa: F811
    (joined,) = post.mails(to="carthage@example.test", kind="joined")
    assert "    SIGNON Carthage punic " in joined.body
    assert "\n    F Carthage - Magna Grecian Sea\n" in joined.body and "Paris" not in joined.body


def test_help_once_signed_on_gives_examples_of_the_players_own_units(post: Post) -> None:  # noqa: F811
    signon = f"SIGNON Rome punic {secret_of('Rome')}\n"
    lines = answer(post, "rome@example.test", signon + "HELP\n")
    sentence = " ".join(lines[:lines.index("")])
    assert "Paris" not in sentence and \
        "(A Brundisium - Samnium, A Roma S A Brundisium - Samnium, F Capua H, BUILD A Brundisium)" in sentence
    assert all(len(line) <= 72 for line in lines)
