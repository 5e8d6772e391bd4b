"""What gm confirms, it does, with several processes at once: real `gm run` daemons
killed and started again, `gm tick` processes dying at every crash point, mails dropped into
the inbox or piped to `gm receive` while phases are processed, on PostgreSQL and on SQLite,
with natural timing (nothing in gm is mocked).

Afterwards every mail is stored once, handled once, answered once, and sent once (counted by
Message-ID in the delivered mail; a second copy only where a process died between handing a
mail over and recording it, and then with the same Message-ID), and every confirmed order set
is the one the phase its reply named was adjudicated with.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import select

from gm.bots.plausible import PlausiblePlayer
from gm.games.orderbook import needed
from gm.store.models import Game, InboundMail, InboundStatus, OrderSet, OutboundMail, OutboundStatus, PhaseRecord
from tests.races.judge import Judge
from tests.store.conftest import database_url  # noqa: F401  (fixture)

PHASES = 4
DAEMONS = 2
CRASH_POINTS = ["intake-before-commit", "after-adjudication", "after-mails-queued", "after-commit", "after-send"]
REPLY_KINDS = ("reply", "refusal", "map")
RESEND_AFTER = 6.0  # seconds a phase waits before the powers still owing orders send them again


class Racers:
    """The gm processes: daemons killed and started again, and ticks, some dying at a crash point."""

    def __init__(self, judge: Judge, seed: int):
        self.judge = judge
        self.stop = threading.Event()
        self.rng = random.Random(seed)
        self.threads = [threading.Thread(target=self._daemon, daemon=True) for _ in range(DAEMONS)]
        self.threads.append(threading.Thread(target=self._ticks, daemon=True))
        self.errors: list[BaseException] = []

    def __enter__(self) -> Racers:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=180)
        if self.errors:
            raise self.errors[0]

    def _guarded(self, body) -> None:  # type: ignore[no-untyped-def]
        try:
            body()
        except BaseException as exc:  # noqa: BLE001 - reported by __exit__
            self.errors.append(exc)
            self.stop.set()

    def _daemon(self) -> None:
        def body() -> None:
            while not self.stop.is_set():
                process = self.judge.spawn("run", "--interval", "1")
                self.stop.wait(self.rng.uniform(2.0, 5.0))
                process.kill()  # SIGKILL: wherever it is (intake, processing, sending)
                self.judge.finished(process)
        self._guarded(body)

    def _ticks(self) -> None:
        def body() -> None:
            while not self.stop.is_set():
                crash_at = self.rng.choice([None, None, *CRASH_POINTS])
                self.judge.finished(self.judge.spawn("tick", crash_at=crash_at), crash_at)
                self.stop.wait(0.3)
        self._guarded(body)


def _orders(judge: Judge, rng: random.Random) -> tuple[int, dict[str, list[str]]]:
    """The phase now, and every needed power's orders for it, as a bot plays them."""
    app = judge.app()
    with app.db.reading() as session:
        game = session.scalars(select(Game).where(Game.name == "g1")).one()
        variant = app.services.variant_of(game)
        position = app.services.position_of(game)
        owed = needed(variant, position)
        chosen: dict[str, list[str]] = {}
        for power, order in PlausiblePlayer(variant, rng).orders(position):
            if power in owed:
                chosen.setdefault(power, []).append(str(order))
        return game.phase_seq, {power: chosen.get(power, []) for power in owed}


def _play(judge: Judge, seed: int) -> None:
    """The players, for PHASES phases: every needed power's orders, then corrections from most of
    them, spread over the moments the phase is being processed. A power whose orders a late
    CLEAR wiped out sends them again, as a player told "still without orders" would."""
    rng = random.Random(seed)
    with ThreadPoolExecutor(max_workers=4) as pipes:

        def send(power: str, body: str, seq: int) -> None:
            raw = judge.mail(power, body, meant_for=seq)
            if rng.random() < 0.5:
                pipes.submit(judge.pipe, raw)  # handled at once, not at the next look into the inbox
            else:
                judge.drop(raw)

        for _ in range(PHASES):
            seq, orders = _orders(judge, rng)
            _, corrections = _orders(judge, random.Random(rng.random()))
            powers = sorted(orders)
            rng.shuffle(powers)
            for power in powers[:-1]:
                send(power, "\n".join(orders[power]), seq)
            time.sleep(rng.uniform(0, 0.5))
            # The last orders make the phase due at once; the corrections come with them, so
            # that some are read while the phase is being processed.
            send(powers[-1], "\n".join(orders[powers[-1]]), seq)
            for power in sorted(corrections):
                if rng.random() < 0.8:
                    time.sleep(rng.uniform(0, 0.1))
                    send(power, ("CLEAR\n" if rng.random() < 0.2 else "") + "\n".join(corrections[power]), seq)
            started = time.monotonic()
            deadline = started + 180
            again = started + RESEND_AFTER
            while judge.game_phase()[0] == seq:
                assert time.monotonic() < deadline, f"phase {seq} was never processed"
                if time.monotonic() > again:
                    again = time.monotonic() + RESEND_AFTER
                    for power, lines in _orders(judge, rng)[1].items():
                        send(power, "\n".join(lines), seq)
                time.sleep(0.2)
            print(f"phase {seq} processed {time.monotonic() - started:.1f} s after its last orders were sent")


def _settle(judge: Judge) -> None:
    """`gm tick` until nothing waits: the inbox read, every mail handled, the outbox empty."""
    deadline = time.monotonic() + 240
    while True:
        judge.finished(judge.spawn("tick"))
        with judge.app().db.reading() as session:
            new = session.scalars(select(InboundMail.id).where(InboundMail.status == InboundStatus.NEW)).all()
            pending = session.scalars(select(OutboundMail.id).where(OutboundMail.status == OutboundStatus.PENDING)).all()
        if not new and not pending and judge.unread_in_inbox() == 0:
            return
        assert time.monotonic() < deadline, f"never settled: {len(new)} new, {len(pending)} pending mails"
        time.sleep(1.0)  # a dead sender's claims run out after 3 s (outbox_lease), a mail it handed over after 25 s


def _check(judge: Judge) -> dict[str, int]:
    app = judge.app()
    with app.db.reading() as session:
        inbound = list(session.scalars(select(InboundMail)))
        outbox = list(session.scalars(select(OutboundMail)))
        sets = list(session.scalars(select(OrderSet).order_by(OrderSet.id)))
        records = {r.seq: r for r in session.scalars(select(PhaseRecord).where(PhaseRecord.rolled_back.is_(False)))}
        game = session.scalars(select(Game).where(Game.name == "g1")).one()
        variant = app.services.variant_of(game)

    # stored once, handled once
    stored = Counter(m.message_id for m in inbound)
    assert sorted(stored) == sorted(judge.sent_mails) and set(stored.values()) == {1}
    assert Counter(m.status for m in inbound) == {InboundStatus.DONE: len(inbound)}, [
        (m.id, m.status, m.error[-300:]) for m in inbound if m.status != InboundStatus.DONE]

    # answered once
    replies = Counter(m.in_reply_to for m in outbox if m.kind in REPLY_KINDS)
    assert replies == Counter({m.message_id: 1 for m in inbound})

    # sent once (a second copy only after a death between handing over and recording, with its ID)
    assert all(m.status == OutboundStatus.SENT for m in outbox), Counter(m.status for m in outbox)
    delivered = Counter(message["Message-ID"] for message in judge.delivered())
    assert set(delivered) == {m.message_id for m in outbox}
    copies = sum(count - 1 for count in delivered.values())
    assert copies <= judge.crashes["after-send"] + judge.kills

    # every confirmed order set is what its phase was adjudicated with, and its reply named that phase
    latest: dict[tuple[int, str], list[str]] = {}
    for order_set in sets:
        latest[(order_set.phase_seq, order_set.power)] = list(order_set.lines)
    for (seq, power), lines in latest.items():
        if seq in records:
            assert records[seq].orders.get(power, []) == lines, f"{power}'s orders for {records[seq].phase} were not used"
        else:
            assert seq == game.phase_seq
    reply_of = {m.in_reply_to: m.body for m in outbox if m.kind in REPLY_KINDS}
    message_of = {m.id: m.message_id for m in inbound}
    late = moved = 0
    for order_set in sets:
        moved += order_set.phase_seq != judge.meant_for[message_of[order_set.inbound_id]] if order_set.inbound_id else 0
        if order_set.inbound_id is None or order_set.submitted_text == "CLEAR":
            continue
        body = " ".join(reply_of[message_of[order_set.inbound_id]].split())
        title = variant.title(variant.calendar.parse(order_set.phase))
        assert f"Current orders for {order_set.power} in g1, {title}:" in body, body
        late += bool(re.search(r"Note: .* was adjudicated while your mail waited", body))
    assert len(records) >= PHASES
    return {"mails in": len(inbound), "mails out": len(outbox), "second copies": copies,
            "order sets for a later phase than sent for": moved, "late notes": late,
            "kills": judge.kills, **{f"died at {k}": v for k, v in judge.crashes.items()},
            **{f"pipes {k}": v for k, v in judge.piped.items()}}


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_several_processes_keep_every_promise(database_url: str, tmp_path: Path) -> None:  # noqa: F811
    judge = Judge(tmp_path / "judge", database_url)
    try:
        judge.start_game()
        seed = random.randrange(1 << 30)
        print(f"seed {seed}")
        with Racers(judge, seed):
            _play(judge, seed)
        settling = time.monotonic()
        _settle(judge)
        print(f"settled in {time.monotonic() - settling:.1f} s")
        figures = _check(judge)
        print(", ".join(f"{k}: {v}" for k, v in figures.items()))
    finally:
        judge.close()
