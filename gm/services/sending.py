"""Draining the outbox: each queued mail is built, pictures attached, and handed to the sender.

A mail that fails for now is tried again later (1 min, 5 min, 30 min, then every 2 hours, up to
a day); a permanent failure is recorded and the game master (or the administrator) is told.
Every mail carries a Message-ID that gm recognises as its own (no mail loops).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

from sqlalchemy import select

from gm.games.context import Services
from gm.games.notices import tell_gm
from gm.games.pictures import current_png, phase_png, start_png
from gm.render import MissingShapes
from gm.store.models import Game, OutboundMail, OutboundStatus, PhaseRecord
from gm.transport import PermanentFailure, Sender, TemporaryFailure

log = logging.getLogger(__name__)
RETRY_DELAYS = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=30)) + (timedelta(hours=2),) * 12
AUTOMATIC = {"reply": "auto-replied", "refusal": "auto-replied", "map": "auto-replied", "paused": "auto-replied"}


class Dispatcher:
    def __init__(self, services: Services, sender: Sender):
        self.services = services
        self.sender = sender

    async def drain(self, limit: int = 500) -> int:
        """Send what is due now; the number sent."""
        now = self.services.clock.now()
        with self.services.db.sessions() as session:
            due = list(session.scalars(
                select(OutboundMail.id).where(OutboundMail.status == OutboundStatus.PENDING,
                                              OutboundMail.next_attempt_at <= now)
                .order_by(OutboundMail.id).limit(limit)
            ))
        pictures: dict[tuple[int | None, int | None], bytes | None] = {}
        sent = 0
        for mail_id in due:
            sent += await self._send_one(mail_id, pictures)
        return sent

    async def _send_one(self, mail_id: int, pictures: dict) -> int:  # type: ignore[type-arg]
        with self.services.db.sessions() as session:
            mail = session.get(OutboundMail, mail_id)
            if mail is None or mail.status != OutboundStatus.PENDING:
                return 0
            message = self.build(session, mail, pictures)
        try:
            await self.sender.send(message)
        except TemporaryFailure as exc:
            self._retry(mail_id, str(exc))
            return 0
        except PermanentFailure as exc:
            self._give_up(mail_id, str(exc))
            return 0
        with self.services.db.unit_of_work() as session:
            mail = session.get(OutboundMail, mail_id)
            assert mail is not None
            mail.status = OutboundStatus.SENT
            mail.sent_at = self.services.clock.now()
            mail.attempts += 1
        return 1

    def build(self, session, mail: OutboundMail, pictures: dict) -> EmailMessage:  # type: ignore[no-untyped-def, type-arg]
        config = self.services.config
        message = EmailMessage()
        message["From"] = formataddr((config.judge_name, config.judge_address))
        message["To"] = mail.to_address
        message["Subject"] = mail.subject
        message["Date"] = format_datetime(mail.created_at)
        message["Message-ID"] = mail.message_id
        message["Auto-Submitted"] = AUTOMATIC.get(mail.kind, "auto-generated")  # RFC 3834: do not answer us
        message["X-GM-Kind"] = mail.kind
        if mail.in_reply_to:
            message["In-Reply-To"] = mail.in_reply_to
            message["References"] = mail.in_reply_to
        message.set_content(mail.body)
        picture = self._picture(session, mail, pictures)
        if picture is not None:
            message.add_attachment(picture, maintype="image", subtype="png", filename=self._picture_name(session, mail))
        return message

    def _picture(self, session, mail: OutboundMail, pictures: dict) -> bytes | None:  # type: ignore[no-untyped-def, type-arg]
        if mail.attach_phase_id is None and mail.kind not in ("map", "start"):
            return None
        key = (mail.game_id, mail.attach_phase_id)
        if key not in pictures:
            pictures[key] = None
            game = session.get(Game, mail.game_id) if mail.game_id else None
            try:
                if game is not None and mail.attach_phase_id is not None:
                    record = session.get(PhaseRecord, mail.attach_phase_id)
                    pictures[key] = phase_png(self.services, game, record) if record else None
                elif game is not None and mail.kind == "start":
                    pictures[key] = start_png(self.services, session, game)
                elif game is not None and game.position is not None:
                    pictures[key] = current_png(self.services, game)
            except MissingShapes as exc:
                log.warning("no map picture for %s: %s", game.name if game else "?", exc)
        return pictures[key]

    def _picture_name(self, session, mail: OutboundMail) -> str:  # type: ignore[no-untyped-def]
        record = session.get(PhaseRecord, mail.attach_phase_id) if mail.attach_phase_id else None
        game = session.get(Game, mail.game_id) if mail.game_id else None
        name = game.name if game else "map"
        if mail.kind == "start":
            return f"{name}-start.png"
        return f"{name}-{record.phase if record else (game.phase if game else 'board')}.png"

    def _retry(self, mail_id: int, error: str) -> None:
        with self.services.db.unit_of_work() as session:
            mail = session.get(OutboundMail, mail_id)
            assert mail is not None
            mail.attempts += 1
            mail.last_error = error
            if mail.attempts > len(RETRY_DELAYS):
                self._failed(session, mail, f"still failing after {mail.attempts} attempts: {error}")
            else:
                mail.next_attempt_at = self.services.clock.now() + RETRY_DELAYS[mail.attempts - 1]
                log.info("mail %s to %s deferred: %s", mail_id, mail.to_address, error)

    def _give_up(self, mail_id: int, error: str) -> None:
        with self.services.db.unit_of_work() as session:
            mail = session.get(OutboundMail, mail_id)
            assert mail is not None
            mail.attempts += 1
            self._failed(session, mail, error)

    def _failed(self, session, mail: OutboundMail, error: str) -> None:  # type: ignore[no-untyped-def]
        mail.status = OutboundStatus.FAILED
        mail.last_error = error
        log.error("mail %s to %s failed: %s", mail.id, mail.to_address, error)
        if mail.kind == "gm-alert":
            return  # never alert about an alert: no loops
        game = session.get(Game, mail.game_id) if mail.game_id else None
        if game is not None and mail.to_address.lower() == self.services.settings_of(game).gm.lower():
            game = None  # the GM cannot be told by a mail to the GM: tell the administrator
        tell_gm(self.services, session, game, subject=f"mail to {mail.to_address} failed",
                text=f"The mail {mail.subject!r} to {mail.to_address} could not be delivered: {error}")
