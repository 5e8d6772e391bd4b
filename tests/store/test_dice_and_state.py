"""A game's dice seed, the rolls and rule effects in its results, and variant state (extra,
pending second moves) through processing, the store and rollback, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from gm.adjudicator.dice import derive
from gm.commands import gm_actions
from gm.domain.geography import Location
from gm.domain.position import Dislodgement, PendingMove, Position
from gm.domain.units import ARMY, Unit
from gm.games import orderbook
from gm.games.lifecycle import find_game
from gm.games.orderbook import note_orders_changed
from gm.services.processing import process
from gm.store.codec import decode_position, encode_position
from gm.store.models import AuditEntry, Game, OutboundMail, PhaseRecord
from gm.variants import catalog
from tests.store import stormy
from tests.store.conftest import World, game_file

GM = "master@example.test"


@pytest.fixture
def stormy_world(monkeypatch: pytest.MonkeyPatch, world: World) -> World:
    monkeypatch.setitem(catalog.RULES, "standard", stormy.DECLARED)  # catalogs load variants on first use
    world.write_game("g", game_file())
    world.tick()
    return world


def _submit(world: World, power: str, text: str) -> None:
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        orderbook.submit(world.services, session, game, power, text, by="test")
        note_orders_changed(world.services, session, game)


def _act(world: World, action, *args, **kwargs):  # type: ignore[no-untyped-def]
    with world.services.db.unit_of_work() as session:
        return action(world.services, session, find_game(session, "g"), *args, **kwargs)


def _mails(world: World, kind: str) -> list[OutboundMail]:
    with world.services.db.sessions() as session:
        return list(session.scalars(select(OutboundMail).where(OutboundMail.kind == kind).order_by(OutboundMail.id)))


def _records(world: World) -> list[PhaseRecord]:
    with world.services.db.sessions() as session:
        return list(session.scalars(select(PhaseRecord).order_by(PhaseRecord.seq, PhaseRecord.id)))


def _seed(world: World) -> str:
    with world.services.db.sessions() as session:
        return find_game(session, "g").dice_seed


def _section(body: str, title: str) -> str:
    """The lines of a mail from ``title`` to the next empty line."""
    start = body.index(f"\n{title}\n") + 1
    end = body.find("\n\n", start)
    return body[start:] if end < 0 else body[start:end]


def test_each_game_has_a_secret_seed_that_no_mail_record_or_log_shows(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    world.write_game("g", game_file())
    world.write_game("h", game_file().replace("@example.test", "@h.example.test"))
    world.tick()
    _submit(world, "France", "A PAR - BUR")
    world.clock.advance(timedelta(hours=49))
    assert world.tick().processed == ["g S1901M", "h S1901M"]
    with world.services.db.sessions() as session:
        games = list(session.scalars(select(Game).order_by(Game.name)))
        seeds = [g.dice_seed for g in games]
        assert all(re.fullmatch("[0-9a-f]{64}", s) for s in seeds) and seeds[0] != seeds[1]
        assert [g.dice_commitment for g in games] == [hashlib.sha256(s.encode()).hexdigest() for s in seeds]
        line = world.services.mailer.env.from_string("Dice: {{ game.dice_commitment }}")  # what a template writes
        assert line.render(game=games[0]) == f"Dice: {hashlib.sha256(seeds[0].encode()).hexdigest()}"
        mails = list(session.scalars(select(OutboundMail)))
        stored = [json.dumps([r.position_before, r.orders, r.results, r.position_after])
                  for r in session.scalars(select(PhaseRecord))]
        stored += [json.dumps(a.details) for a in session.scalars(select(AuditEntry))]
    assert len(mails) > 30 and len(stored) > 10
    for seed in seeds:
        assert not any(seed in m.body or seed in m.subject for m in mails)
        assert not any(seed in text for text in stored)
        assert seed not in caplog.text


def test_every_roll_and_rule_effect_is_in_the_results_and_the_preview_shows_no_die(stormy_world: World) -> None:
    world = stormy_world
    with world.services.db.unit_of_work() as session:
        find_game(session, "g").dice_seed = "storm seed 4"  # Edinburgh rolls 1, London 4, the harvest 5
    assert [derive("storm seed 4", m, 6) for m in ("S1901M|storm, F EDI|0", "S1901M|storm, F LON|0", "S1901R|harvest|0")] \
        == [1, 4, 5]
    _submit(world, "France", "A PAR - BUR")
    _submit(world, "Germany", "A MUN - RUH")
    _submit(world, "England", "F LON - NTH")
    _act(world, gm_actions.preview, actor=GM)
    world.clock.advance(timedelta(hours=49))
    assert world.tick().processed == ["g S1901M"]
    [record] = _records(world)
    assert record.results["rolls"] == [
        {"phase": "S1901M", "purpose": "storm, F EDI", "sides": 6, "value": 1, "effect": "sunk"},
        {"phase": "S1901M", "purpose": "storm, F LON", "sides": 6, "value": 4, "effect": "calm"},
        {"phase": "S1901R", "purpose": "harvest", "sides": 6, "value": 5, "effect": "5 talents to every treasury"},
    ]
    assert record.results["destroyed"] == [{"unit": "F EDI", "power": "England", "reason": "sunk in a storm"}]
    by_order = {r["order"]: r for r in record.results["results"]}
    assert by_order["A PAR - BUR"]["notes"] == ["strength 1½: led by the test"]
    assert by_order["A MUN - RUH"]["reason"] == "prevented: the Alps are snowed in"
    assert "notes" not in by_order["F LON - NTH"]
    assert record.position_after["extra"] == {"treasury": {}, "harvests": [{"phase": "S1901R", "talents": 5}]}
    assert "F EDI" not in record.position_after["units"]["England"]

    [results] = [m for m in _mails(world, "results") if m.to_address == "france@example.test"]
    [preview] = _mails(world, "preview")
    assert _section(results.body, "Dice:") == (
        "Dice:\n"
        "  Storm, F EDI, d6: 1 — sunk\n"
        "  Storm, F LON, d6: 4 — calm\n"
        "  Harvest (Spring 1901 retreats), d6: 5 — 5 talents to every treasury")
    assert _section(results.body, "Destroyed:") == "Destroyed:\n  The English fleet in Edinburgh: sunk in a storm."

    # The preview rolls no die of the game: what the storms decide waits on them, and
    # what no die touches is shown as processing gave it.
    assert "Dice:" not in preview.body and "Storm" not in preview.body and "sunk" not in preview.body
    assert "England:   Fleet Edinburgh HOLD (no order)\n             its result waits on the dice\n" in preview.body
    assert "France:    Army Paris -> Burgundy\n             strength 1½: led by the test\n" in preview.body
    assert "Germany:   Army Munich -> Ruhr  (*prevented: the Alps are snowed in*)\n" in preview.body
    assert "France:    Army Paris -> Burgundy\n             strength 1½: led by the test\n" in results.body
    assert "Germany:   Army Munich -> Ruhr  (*prevented: the Alps are snowed in*)\n" in results.body
    assert ("England:   Fleet London -> North Sea\n"
            "England:   Army Liverpool HOLD (no order)\n"
            "England:   Fleet Edinburgh HOLD (no order)  (*destroyed: sunk in a\n"
            "           storm*)\n") in results.body


def _state_position(world: World) -> Position:
    """Fall 1901 retreats: the Austrian army of Vienna dislodged, a French second move pending,
    and variant state of every JSON shape."""
    variant = world.services.catalog.get("standard")
    start = variant.initial_position()
    units = tuple(u for u in start.units if u.province not in ("VIE", "PAR")) + (Unit("France", ARMY, Location("BUR")),)
    return Position(
        variant.calendar.parse("F1901R"), units, start.centres,
        dislodged=(Dislodgement(Unit("Austria", ARMY, Location("VIE")), "TYR", (Location("BOH"), Location("GAL"))),),
        extra={"treasury": {"Austria": 10, "France": 2.5}, "cities": [{"name": "Atlantis", "walls": True, "level": 2}],
               "motto": "½ über alles", "nothing": None, "empty": {}, "grid": [[1, -2], [], [0.5]]},
        second_moves=(PendingMove(Unit("France", ARMY, Location("BUR")), (Location("PIC"),)),),
    )


def test_variant_state_and_second_moves_survive_processing_the_store_and_rollback(stormy_world: World) -> None:
    world = stormy_world
    variant = world.services.catalog.get("standard")
    stored = encode_position(_state_position(world))
    original = decode_position(variant, stored)
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        game.position, game.phase = stored, "F1901R"
    _submit(world, "Austria", "A VIE R BOH")
    with world.services.db.unit_of_work() as session:
        process(world.services, session, find_game(session, "g"))
    [first] = _records(world)
    assert first.position_before == stored and decode_position(variant, first.position_before) == original
    assert [(r["order"], r["succeeded"]) for r in first.results["results"]] == [
        ("A VIE R BOH", True), ("A BUR - PIC (second move)", True)]
    after = first.position_after
    assert "second_moves" not in after and "A PIC" in after["units"]["France"] and "A BOH" in after["units"]["Austria"]
    seed = _seed(world)
    autumn, winter = derive(seed, "F1901R|harvest|0", 6), derive(seed, "W1901A|harvest|0", 6)  # no adjustments: two season ends
    assert [(r["phase"], r["value"]) for r in first.results["rolls"]] == [("F1901R", autumn), ("W1901A", winter)]
    assert after["phase"] == "S1902M" and after["extra"] == {
        **stored["extra"], "treasury": {"Austria": 10 + autumn + winter, "France": 2.5 + autumn + winter},
        "harvests": [{"phase": "F1901R", "talents": autumn}, {"phase": "W1901A", "talents": winter}]}
    [mail] = [m for m in _mails(world, "results") if m.to_address == "france@example.test"]
    assert "France:    Army Burgundy -> Picardy (second move)\n" in mail.body
    assert "Austria:   Army Vienna RETREAT -> Bohemia\n" in mail.body
    assert _section(mail.body, "Dice:") == ("Dice:\n"
                                            f"  Harvest, d6: {autumn} — {autumn} talents to every treasury\n"
                                            f"  Harvest (Winter 1901 adjustments), d6: {winter} — {winter} talents to every treasury")

    _act(world, gm_actions.rollback, "F1901R", actor=GM)
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert game.phase == "F1901R" and game.position == stored
        assert world.services.position_of(game) == original
    with world.services.db.unit_of_work() as session:
        process(world.services, session, find_game(session, "g"))
    again = _records(world)[-1]
    assert again.rolled_back is False and again.id != first.id
    assert again.position_before == first.position_before
    assert again.results == first.results  # the same seed: the same harvest
    assert again.position_after == first.position_after
    with world.services.db.sessions() as session:
        bodies = [m.body for m in session.scalars(select(OutboundMail))]
    assert not any("Atlantis" in body or "über" in body for body in bodies)  # the state is no one's reading


def test_a_game_that_rolls_dice_commits_to_its_seed_in_every_mail_and_publishes_it_at_the_end(
        stormy_world: World) -> None:
    from gm.games import votes

    world = stormy_world
    seed = _seed(world)
    commitment = hashlib.sha256(seed.encode()).hexdigest()
    world.clock.advance(timedelta(hours=49))
    assert world.tick().processed == ["g S1901M"]
    for kind in ("start", "results"):
        for mail in _mails(world, kind):
            assert f"its SHA-256 is:\n    {commitment}\n" in mail.body and seed not in mail.body, kind
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        for power in votes.survivors(world.services, game):
            votes.vote_draw(world.services, session, game, power, True)
    [end, *_] = _mails(world, "end")
    assert f"The dice seed of this game was:\n    {seed}\nIts SHA-256 is the commitment" in end.body
    assert derive(seed, "S1901M|storm, F EDI|0", 6) == next(
        r["value"] for r in _records(world)[0].results["rolls"] if r["purpose"] == "storm, F EDI")
