"""GMs steer games by editing their settings files; gm picks the edits up without a restart."""

from __future__ import annotations

import os
from datetime import timedelta

from sqlalchemy import select

from gm.games.lifecycle import find_game
from gm.store.models import OutboundMail
from tests.store.conftest import STANDARD_PLAYERS, World, game_file


def _touch_later(path) -> None:  # type: ignore[no-untyped-def]
    stat = path.stat()
    os.utime(path, (stat.st_atime + 5, stat.st_mtime + 5))  # a later edit, whatever the clock's resolution


def _mails(world: World, kind: str) -> list[OutboundMail]:
    with world.services.db.sessions() as session:
        return list(session.scalars(select(OutboundMail).where(OutboundMail.kind == kind).order_by(OutboundMail.id)))


def test_an_edit_takes_effect_and_a_deadline_change_is_announced(world: World) -> None:
    path = world.write_game("g", game_file())
    world.tick()
    path.write_text(game_file().replace("movement: 48h", "movement: 72h"), encoding="utf-8")
    _touch_later(path)
    world.tick()
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert world.services.settings_of(game).schedule.movement.after == timedelta(hours=72)
        assert game.deadline == game.phase_started_at + timedelta(hours=72)
    announced = _mails(world, "deadline")
    assert len(announced) == 8 and "the game master changed the deadlines" in announced[0].body


def test_a_bad_edit_is_refused_whole_and_the_gm_is_told_once(world: World) -> None:
    path = world.write_game("g", game_file())
    world.tick()
    path.write_text(game_file().replace("movement: 48h", "movement: soonish").replace("reminders", "remindres"),
                    encoding="utf-8")
    _touch_later(path)
    report = world.tick()
    assert report.refused_settings and "line 4" in report.refused_settings[0] and "line 5" in report.refused_settings[0]
    with world.services.db.sessions() as session:
        game = find_game(session, "g")
        assert world.services.settings_of(game).schedule.movement.after == timedelta(hours=48)
    alerts = _mails(world, "gm-alert")
    assert [m.to_address for m in alerts] == ["master@example.test"]
    assert "soonish" in alerts[0].body and "previous settings stay in" in alerts[0].body
    _touch_later(path)
    world.app.scheduler.settings_files.sync(force=True)
    assert len(_mails(world, "gm-alert")) == 1  # the same bad version is reported once


def test_gm_reload_reads_the_files_at_once(world: World) -> None:
    world.write_game("g", game_file(players=3))
    report = world.app.scheduler.settings_files.sync(force=True)
    assert report.read == [str(world.config.games_dir / "g.yaml")]
    with world.services.db.sessions() as session:
        assert find_game(session, "g").status == "forming"


def test_everyone_is_told_what_an_edit_changed(world: World) -> None:
    path = world.write_game("g", game_file())
    world.tick()
    path.write_text(game_file(extra="grace: 6h\nobservers: [watcher@example.test]\n")
                    .replace("reminders: [24h]", "reminders: [12h, 1h]"), encoding="utf-8")
    _touch_later(path)
    world.tick()
    notices = {m.to_address: m.body for m in _mails(world, "settings")}
    assert sorted(notices) == sorted([*(f"{p}@example.test" for p in STANDARD_PLAYERS), "master@example.test",
                                      "watcher@example.test"])
    for body in notices.values():
        assert "grace: 0m -> 6h" in body and "reminders: 1d -> 12h, 1h" in body and "read again from g.yaml" in body
    # the addresses are the GM's to know: the others learn that the observers changed, not who they are
    assert "observers: none -> watcher@example.test" in notices["master@example.test"]
    assert "observers: changed" in notices["france@example.test"]
    assert "watcher@example.test" not in notices["france@example.test"]


def test_a_new_process_reads_only_the_files_changed_since_their_games_were_made(world: World, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from gm.services.settings_files import SettingsFiles

    kept = world.write_game("g", game_file())
    edited = world.write_game("h", game_file(players=3))
    world.tick()
    edited.write_text(game_file(players=3, extra="press: none\n"), encoding="utf-8")
    read: list[str] = []
    cron_tick = SettingsFiles(world.services)  # what a new process knows: nothing of the files' times
    sync_file = cron_tick.sync_file
    monkeypatch.setattr(cron_tick, "sync_file", lambda path, report, text=None: (read.append(path.name),
                                                                                  sync_file(path, report, text)))
    cron_tick.sync()
    assert read == ["h.yaml"]  # g.yaml's game carries its digest: not parsed again
    with world.services.db.sessions() as session:
        assert not world.services.settings_of(find_game(session, "h")).press.any
    read.clear()
    cron_tick.sync(force=True)  # gm reload reads every file
    assert read == [kept.name, edited.name]
