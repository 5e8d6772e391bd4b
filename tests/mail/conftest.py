"""Mail intake tests: a started game whose players' secrets are known, and a way to send mail."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from email.message import EmailMessage

import pytest
from sqlalchemy import select

from gm.games.lifecycle import current_seats, find_game
from gm.games.passwords import hash_secret
from gm.services.intake import Intake
from gm.store.models import OutboundMail
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)

_ids = itertools.count(1)


def wait_until(what: Callable[[], object], within: float = 60):  # type: ignore[no-untyped-def]
    """``what()`` once it is true, polled every 50 ms; fails after ``within`` seconds."""
    deadline = time.monotonic() + within
    while not (found := what()):
        assert time.monotonic() < deadline, f"not within {within} s"
        time.sleep(0.05)
    return found


def secret_of(power: str) -> str:
    return f"{power.lower()}-secret-42"


GM_SECRET = "master-secret-42"


class Post:
    """Sends mail to the judge and reads what it answered."""

    def __init__(self, world: World):
        self.world = world
        self.intake = Intake(world.services)

    def send(self, sender: str, body: str, subject: str = "orders", html: bool = False, **headers: str) -> int | None:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = "judge@example.test"
        message["Subject"] = subject
        message["Message-ID"] = headers.pop("message_id", f"<test.{next(_ids)}@example.test>")
        for name, value in headers.items():
            message[name.replace("_", "-")] = value
        if html:
            message.set_content("")
            message.make_alternative()
            message.get_payload().clear()
            message.add_alternative(body, subtype="html")
        else:
            message.set_content(body)
        return self.intake.receive(bytes(message))

    def mails(self, to: str | None = None, kind: str | None = None) -> list[OutboundMail]:
        with self.world.services.db.sessions() as session:
            query = select(OutboundMail).order_by(OutboundMail.id)
            if to:
                query = query.where(OutboundMail.to_address == to)
            if kind:
                query = query.where(OutboundMail.kind == kind)
            return list(session.scalars(query))

    def reply(self, to: str) -> str:
        replies = self.mails(to=to, kind=None)
        answers = [m for m in replies if m.kind in ("reply", "refusal", "map")]
        assert answers, f"no reply to {to}"
        return answers[-1].body


@pytest.fixture
def post(world: World) -> Post:
    world.write_game("g", game_file(extra="press: grey\n"))
    world.tick()
    with world.services.db.unit_of_work() as session:
        game = find_game(session, "g")
        game.gm_secret_hash = hash_secret(GM_SECRET)
        for seat in current_seats(game):
            seat.secret_hash = hash_secret(secret_of(seat.power))
    return Post(world)
