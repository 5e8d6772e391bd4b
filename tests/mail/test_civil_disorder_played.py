"""Civil disorder played (missed: {policy: play}), in every variant: at the deadline the judge
writes plausible orders for each power that owes some and gave none, the results say so, the
phase still counts as missed (after two in a row the power is in civil disorder and the judge
plays on); a ROLLBACK and the phase processed again give the same orders (the bot is seeded by
the game's secret seed, the phase and the power); the default (hold) is unchanged."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from gm.games.lifecycle import current_seats, find_game
from gm.games.passwords import hash_secret
from gm.games.stand_ins import orders_for
from gm.store.models import GameStatus, PhaseRecord, SeatStatus
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of
from tests.mail.conftest import GM_SECRET, Post, secret_of
from tests.store.conftest import World, database_url, world  # noqa: F401  (fixtures)

GM = "master@example.test"
VARIANTS = sorted(VariantCatalog().names())
SEATS = {"eagles": 4, "diplomacy-of-the-empire": 6, "roman-diplomacy-i": 3, "roman-diplomacy-ii": 3}


def started(world: World, variant: str, missed: str = "{policy: play, after: 2}") -> Post:
    catalog = world.services.catalog
    rules = catalog.get(variant)
    seats = SEATS.get(variant, setup_of(rules).player_counts()[1])
    text = (f"variant: {variant}\ngm: {GM}\nseats: {seats}\nstart: manual\nearly: false\nmissed: {missed}\n"
            "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\n")
    if not setup_of(rules).open_membership:
        text += "players:\n" + "".join(f"  - p{n}@example.test\n" for n in range(seats))
    world.write_game("g", text)
    world.tick()
    post = Post(world)
    if setup_of(rules).open_membership:  # the players found their empires by mail
        for n, name in enumerate(("Alpha", "Beta", "Gamma")):
            choice = setup_of(rules).joining_choices(world.services.position_of(_game(world)) if _game(world).position
                                           else rules.initial_position())[n * 5]
            post.send(f"p{n}@example.test", f"JOIN g {choice} as {name}\n")
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        game.gm_secret_hash = hash_secret(GM_SECRET)
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nSTART\n")
    assert _game(world).status == GameStatus.ACTIVE
    return post


def _game(world: World):  # type: ignore[no-untyped-def]
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        session.expunge_all()
        return game


def _deadline_passes(world: World) -> None:
    game = _game(world)
    world.clock.set(game.deadline + timedelta(minutes=1))
    world.tick()


def _records(world: World) -> list[PhaseRecord]:
    with world.services.db.sessions() as session:
        rows = list(session.scalars(select(PhaseRecord).order_by(PhaseRecord.id)))
        session.expunge_all()
        return rows


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_judge_plays_every_silent_power_in_every_variant_and_says_so(world: World, variant: str) -> None:
    post = started(world, variant)
    before = _game(world)
    owing = sorted(p for p in world.services.variant_of(before).map.powers or [s.power for s in current_seats(before)]
                   if any(s.power == p for s in current_seats(before)))
    _deadline_passes(world)
    (record,) = _records(world)
    played = record.results["played"]
    assert played and set(played) <= set(owing)
    assert all(record.orders[power] for power in played)
    results = " ".join(post.mails(to=GM, kind="results")[-1].body.split())
    assert f"The judge wrote the orders of {', '.join(played)}: no orders came by the deadline" in results
    assert any(r["succeeded"] or r["reason"] for r in record.results["results"])
    game = _game(world)
    assert all(s.missed == 1 and s.status == SeatStatus.ACTIVE for s in current_seats(game) if s.power in played), \
        [(s.power, s.missed, s.status) for s in current_seats(game)]


@pytest.mark.parametrize("variant", ["standard", "eagles", "roman-diplomacy-i"])
def test_the_same_orders_after_a_rollback_and_civil_disorder_after_two_misses(world: World, variant: str) -> None:
    post = started(world, variant)
    _deadline_passes(world)
    first = _records(world)[0]
    post.send(GM, f"SIGNON GM g {GM_SECRET}\nROLLBACK {first.phase}\n")
    assert "is back at" in post.reply(GM)
    _deadline_passes(world)
    again = _records(world)[-1]
    assert again.phase == first.phase and again.id != first.id
    assert again.orders == first.orders and again.results["played"] == first.results["played"]
    game = _game(world)
    if game.status == GameStatus.ACTIVE:
        _deadline_passes(world)  # a second phase missed in a row
        game = _game(world)
        silent = [s for s in current_seats(game) if s.power in _records(world)[-1].results["played"]]
        assert silent and all(s.status == SeatStatus.CIVIL_DISORDER for s in silent)
        assert any("in civil disorder" in m.subject for m in post.mails(to=GM, kind="gm-alert"))


def test_a_power_with_orders_is_never_played_and_by_default_nobody_is(world: World) -> None:
    post = started(world, "standard")
    with world.services.db.unit_of_work() as session:
        for seat in current_seats(find_game(session, "g")):
            seat.secret_hash = hash_secret(secret_of(seat.power))
    france = next(s for s in current_seats(_game(world)) if s.power == "France").player.email
    post.send(france, f"SIGNON France g {secret_of('France')}\nA Paris - Burgundy\n")
    _deadline_passes(world)
    (record,) = _records(world)
    assert "France" not in record.results["played"] and record.orders["France"] == ["A PAR - BUR"]
    assert len(record.results["played"]) == 6


def test_by_default_a_silent_power_holds(world: World) -> None:
    started(world, "standard", missed="{policy: hold}")
    _deadline_passes(world)
    (record,) = _records(world)
    assert record.results["played"] == [] and record.orders == {}


def test_the_bots_orders_come_from_the_games_secret_seed_not_from_what_players_know(world: World) -> None:
    started(world, "standard")
    game = _game(world)
    position = world.services.position_of(game)
    mine = orders_for(world.services, game, position, "Russia")
    assert mine == orders_for(world.services, game, position, "Russia")
    game.dice_seed = "0" * 64
    assert orders_for(world.services, game, position, "Russia") != mine


def test_roman_diplomacy_rule_9_counts_no_miss_for_an_empire_the_judge_plays(world: World) -> None:
    """Roman Diplomacy's civil disorder (rule 9) follows missed movement phases; the judge's orders
    are the empire's orders, so an empire it plays keeps its centres (the GM who wants rule 9 as
    written keeps missed: hold, the default)."""
    started(world, "roman-diplomacy-i")
    movements = 0
    while movements < 3 and _game(world).status == GameStatus.ACTIVE:
        movements += _game(world).phase.endswith("M")
        _deadline_passes(world)
    assert movements == 3
    position = world.services.position_of(_game(world))
    assert not position.extra.get("missed") and position.extra.get("empires")
    assert all(record.results["played"] for record in _records(world) if record.phase.endswith("M"))
