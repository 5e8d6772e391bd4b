"""The GMs' settings files: read when they change, refused whole when wrong.

A refused edit leaves the settings in force as they were; the GM is told once per bad
version of the file, with every bad line.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.games.context import Services
from gm.games.mailer import wrap
from gm.games.notices import tell_gm
from gm.settings.files import digest, not_read_yet, settings_files
from gm.store.models import AuditEntry, Game
from gm.store.retry import DatabaseBusy, in_transaction, said

if TYPE_CHECKING:
    from gm.settings.model import GameSettings

log = logging.getLogger(__name__)


@dataclass
class SyncReport:
    read: list[str] = field(default_factory=list)  # files accepted
    refused: list[str] = field(default_factory=list)  # messages
    busy: list[str] = field(default_factory=list)  # left for the next tick: why


class SettingsFiles:
    def __init__(self, services: Services):
        self.services = services
        self._seen: dict[Path, tuple[float, int]] = {}

    def files(self) -> list[Path]:
        return settings_files(self.services.config.games_dir)

    def sync(self, force: bool = False) -> SyncReport:
        """Read the files changed since this process last looked (all when ``force``): in a new
        process (a cron tick), each file whose games all carry its digest already is not read
        again, so a tick costs no parse per game in play."""
        report = SyncReport()
        changed = []
        for path in self.files():
            stat = path.stat()
            stamp = (stat.st_mtime, stat.st_size)
            if not force and self._seen.get(path) == stamp:
                continue
            self._seen[path] = stamp
            changed.append(path)
        if not changed:
            return report
        texts = {str(path): path.read_text(encoding="utf-8") for path in changed}
        made = {} if force else self._digests_made(list(texts))
        for source in not_read_yet({source: digest(text) for source, text in texts.items()}, made):
            self.sync_file(Path(source), report, texts[source])
        return report

    def _digests_made(self, sources: list[str]) -> dict[str, set[str]]:
        """The digests of the settings each file's games were made from, by file."""
        made: dict[str, set[str]] = {}
        with self.services.db.reading() as session:
            for source, version in session.execute(select(Game.settings_source, Game.settings_digest)
                                                   .where(Game.settings_source.in_(sources))):
                made.setdefault(source, set()).add(version)
        return made

    def sync_file(self, path: Path, report: SyncReport, text: str | None = None) -> None:
        from gm.games.lifecycle import GameError  # loaded when a file is read: most ticks read none
        from gm.settings.reader import SettingsError, read_settings

        text = path.read_text(encoding="utf-8") if text is None else text
        try:
            games = read_settings(text, str(path), self.services.known_variant, self.services.rule_problems)
        except SettingsError as exc:
            self._refuse(path, text, [str(p) for p in exc.problems], report)
            return
        for settings in games:
            try:
                before = in_transaction(self.services.db, f"game {settings.name} from {path}",
                                        lambda session, settings=settings: self._apply(session, settings, text, path))
            except GameError as exc:
                self._refuse(path, text, [f"game {settings.name}: {exc}"], report)
                continue
            except DatabaseBusy as exc:
                said(exc)
                report.busy.append(str(exc))
                self._seen.pop(path, None)  # read again at the next tick
                return
            if before is None:
                log.info("game %s created from %s (%s, GM %s)", settings.name, path, settings.variant, settings.gm)
            elif before != digest(text):
                log.info("game %s: settings from %s in force", settings.name, path)
        report.read.append(str(path))

    def _apply(self, session: Session, settings: GameSettings, text: str, path: Path) -> str | None:
        """Brings the game in line with its file; the digest of the settings it had (None: new)."""
        from gm.games.lifecycle import create_or_update

        before = session.scalar(select(Game.settings_digest).where(Game.name == settings.name))
        create_or_update(self.services, session, settings, text, str(path))
        return before

    def _refuse(self, path: Path, text: str, problems: list[str], report: SyncReport) -> None:
        message = (f"The settings file {path.name} was refused; the previous settings stay in force:\n"
                   + "\n".join(wrap(p, indent="  ") for p in problems))
        log.warning("%s: %s", path, message)
        report.refused.append(f"{path}: {message}")
        version = digest(text)
        with self.services.db.unit_of_work() as session:
            told = session.scalar(select(AuditEntry.id).where(
                AuditEntry.action == "settings-refused", AuditEntry.details["digest"].as_string() == version))
            if told:
                return
            games = list(session.scalars(select(Game).where(Game.settings_source == str(path))))
            self.services.audit(session, games[0] if games else None, "system", "settings-refused",
                                digest=version, source=str(path), problems=problems)
            if games:
                for game in games:
                    tell_gm(self.services, session, game, subject=f"settings of {game.name} refused", text=message)
            else:
                tell_gm(self.services, session, None, subject=f"settings file {path.name} refused", text=message)
