"""A game's pages kept as drawn (their bytes) until something they show changes.

A page is kept under what it depends on: the game (its id), the page (a phase, or the game as
it stands), the reader (no one signed in: the page every stranger gets; else the signed-in
session, whose page carries its own form token and, for an observer, its own press), and the
game's ``Stamp``: what a small query reads of the rows the page shows. The games row's version
(the ORM counts every change of it: a phase processed or rolled back, the deadline, the
settings, the status) stamps a phase of the history; the game as it stands shows more (its
seats and players, public press, open powers, deadline records), whose rows are counted too.
A new stamp makes new keys, and the old pages age out of the least recently used end.

Only what is the same for every holder of its key is kept: a page answered 200, and for a
stranger only one that shows no form token (each stranger's is its own). A private game's page
is never kept for a stranger: its render answers as a missing game (404), and a page kept for
a stranger at one version was drawn while the game was public at that version.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from gm.store.models import DeadlineRecord, Game, Opening, PhaseRecord, Player, Press, Seat

DEFAULT_BYTES = 64 * 1024 * 1024  # a 15-year game's pages are 230-260 KB each: some 250 of them
WAIT = 10.0  # seconds a thread waits for another drawing the page it wants, before drawing it itself


def _of_the_game(model: Any, column: Any, *where: Any) -> Any:
    """One aggregate of the game's rows of ``model``: a column of the stamp."""
    return select(column).select_from(model).where(model.game_id == Game.id, *where).scalar_subquery()


_VERSION = select(Game.id, Game.version).where(Game.name == bindparam("name"))
# The rows the game's own page shows besides the games row: each counted in a way an insert, a
# delete or a change of what the page shows moves (press published with results, an opening
# offered to everyone or closed, a phase rolled back).
_AS_IT_STANDS = select(
    Game.id, Game.version,
    _of_the_game(Press, func.count(Press.id)), _of_the_game(Press, func.max(Press.id)),
    _of_the_game(Press, func.count(Press.published_seq)),
    _of_the_game(Opening, func.count(Opening.id)), _of_the_game(Opening, func.max(Opening.id)),
    _of_the_game(Opening, func.count(Opening.public_at)), _of_the_game(Opening, func.count(Opening.closed_at)),
    _of_the_game(DeadlineRecord, func.count(DeadlineRecord.id)),
    _of_the_game(PhaseRecord, func.count(PhaseRecord.id)), _of_the_game(PhaseRecord, func.max(PhaseRecord.id)),
    _of_the_game(PhaseRecord, func.count(PhaseRecord.id), PhaseRecord.rolled_back.is_(True)),
).where(Game.name == bindparam("name"))
_SEATS = (select(Seat.id, Seat.power, Seat.status, Seat.player_id, Seat.left_at, Seat.first_seat_id, Player.name)
          .outerjoin(Player, Player.id == Seat.player_id).where(Seat.game_id == bindparam("game"))
          .order_by(Seat.id))


@dataclass(frozen=True)
class Stamp:
    """What a game's page depends on, as read now: equal stamps, equal pages."""

    game_id: int
    rows: tuple[object, ...]


def stamp(session: Session, name: str, *, as_it_stands: bool) -> Stamp | None:
    """The stamp of the game ``name`` (None: no such game): of a phase of its history, or of the
    game as it stands (``as_it_stands``: its seats, press and the rest counted as well)."""
    if not as_it_stands:
        found = session.execute(_VERSION, {"name": name}).first()
        return Stamp(found[0], tuple(found)) if found is not None else None
    found = session.execute(_AS_IT_STANDS, {"name": name}).first()
    if found is None:
        return None
    seats = tuple(tuple(row) for row in session.execute(_SEATS, {"game": found[0]}))
    return Stamp(found[0], (*found, seats))


@dataclass(frozen=True)
class Kept:
    body: bytes
    etag: str  # the quoted entity tag a browser sends back in If-None-Match


class PageCache:
    """Pages' bytes by key, the least recently used dropped past ``max_bytes`` in all
    (thread-safe: pages are drawn in worker threads)."""

    def __init__(self, max_bytes: int = DEFAULT_BYTES):
        self.max_bytes = max_bytes
        self._kept: OrderedDict[Hashable, Kept] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()
        self._drawing: dict[Hashable, threading.Event] = {}

    def get(self, key: Hashable) -> Kept | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def put(self, key: Hashable, body: bytes) -> Kept:
        kept = Kept(body, f'"{hashlib.blake2b(repr(key).encode() + body, digest_size=16).hexdigest()}"')
        if len(body) > self.max_bytes:
            return kept
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self._size -= len(old.body)
            self._kept[key] = kept
            self._size += len(body)
            while self._size > self.max_bytes:
                _, dropped = self._kept.popitem(last=False)
                self._size -= len(dropped.body)
        return kept

    @contextmanager
    def drawing(self, key: Hashable) -> Iterator[Kept | None]:
        """One thread draws a page at a time: a thread that wants a page another is drawing waits
        for it and gets what that one kept (None: draw it). After a phase is processed, many
        readers ask for the game's new page at once; it is drawn once, not by every worker."""
        with self._lock:
            other = self._drawing.get(key)
            if other is None:
                mine = self._drawing[key] = threading.Event()
        if other is not None:
            other.wait(WAIT)
            yield self.get(key)
            return
        try:
            yield None
        finally:
            with self._lock:
                del self._drawing[key]
            mine.set()

    @property
    def size(self) -> int:
        """The bytes kept."""
        return self._size

    def __len__(self) -> int:
        return len(self._kept)
