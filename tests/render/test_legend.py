"""The legend lists the powers in play by the names the mails give them and counts the board the
picture shows once its phase is over (builds and removals made), as the results text counts it;
leaders and garrisons apart."""

from __future__ import annotations

import random

from gm.adjudicator.engine import adjudicate
from gm.adjudicator.phaselog import PhaseLog
from gm.bots.plausible import PlausiblePlayer
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.render.scene import build_scene
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

CATALOG = VariantCatalog()


def details(scene) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {e.name: e.detail for e in scene.legend}


def first_builds(seed: int = 3) -> tuple[Position, list]:  # type: ignore[type-arg]
    """A standard Winter with builds, and the bot's orders for it."""
    variant = CATALOG.get("standard")
    player = PlausiblePlayer(variant, random.Random(seed))
    position = variant.initial_position()
    while position.phase.kind is not PhaseKind.ADJUSTMENTS:
        position = adjudicate(variant, position, player.orders(position)).next
    return position, player.orders(position)


def test_the_winter_picture_counts_the_units_after_the_builds() -> None:
    variant = CATALOG.get("standard")
    winter, orders = first_builds()
    report = adjudicate(variant, winter, orders)
    after = report.next
    grew = [p for p in variant.map.powers if len(after.units_of(p)) > len(winter.units_of(p))]
    assert grew, "some power built"
    shown = details(build_scene(variant, winter, report))
    for power in variant.map.powers:
        units, centres = len(after.units_of(power)), len(after.centres_of(power))
        plural = "s" if units != 1 else ""
        assert shown[power] == f"{centres} centre{'s' if centres != 1 else ''}, {units} unit{plural}"
    assert details(build_scene(variant, winter))[grew[0]] != shown[grew[0]]  # without its report, the board before


def test_a_two_player_eagles_game_lists_its_two_generals_and_the_neutrals() -> None:
    variant = CATALOG.get("eagles")
    log = PhaseLog("seed")
    powers = setup_of(variant).powers_in_play(2, log)[:2]
    start = setup_of(variant).opening(powers, log)
    playing = variant.in_play(start)
    assert len(playing) == 2
    names = [e.name for e in build_scene(variant, start).legend]
    assert names == [p for p in variant.map.powers if p in playing] + ["Neutral"]


def test_a_six_player_empire_leaves_out_the_claimant_not_in_play() -> None:
    variant = CATALOG.get("diplomacy-of-the-empire")
    log = PhaseLog("seed")
    powers = setup_of(variant).powers_in_play(6, log)
    assert len(powers) == 6
    start = setup_of(variant).opening(powers, log)
    names = [e.name for e in build_scene(variant, start).legend]
    left_out = [p for p in variant.map.powers if p not in powers]
    assert len(names) == 6 and not set(left_out) & set(names)


def test_leaders_are_named_and_garrisons_counted_apart() -> None:
    rome = CATALOG.get("rise-of-rome-ii")
    player = PlausiblePlayer(rome, random.Random(1))
    position = rome.initial_position()
    report = adjudicate(rome, position, player.orders(position))  # the leaders come onto the board
    shown = details(build_scene(rome, report.next))
    assert all("(Leader, " in d for name, d in shown.items() if name != "Barbarians")
    roman = shown["Rome"]
    leader = next(u for u in report.next.units if u.power == "Rome" and u.type.name == "leader")
    where = rome.map.provinces[leader.location.province].name
    assert f"{rome.leader_name(leader)} (Leader, {where})" in roman  # type: ignore[attr-defined]  # as mails name him
    empires = CATALOG.get("roman-diplomacy-i")
    start = empires.initial_position()
    neutral = details(build_scene(empires, start))["Neutral"]
    garrisons = sum(1 for u in start.units if u.type.name == "garrison")
    assert neutral == f"{garrisons} garrisons"


def test_the_legend_names_each_power_as_the_mails_do() -> None:
    eagles = CATALOG.get("eagles")
    log = PhaseLog("seed")
    start = setup_of(eagles).opening(setup_of(eagles).powers_in_play(12, log), log)
    names = [e.name for e in build_scene(eagles, start).legend]
    assert "Carthago Nova" in names and "Leptis Magna" in names
    assert not {d.adjective for d in eagles.map.powers.values()} & set(names) - set(eagles.map.powers)
