"""A part gm depends on (the database, the inbox, the outbound server) as there or away, told in
the log as an operator wants to read it during an outage: once when it goes (the part named,
with the error), at most once a minute while it stays away, and once when it is back, with how
long it was away and what waited for it. No traceback: an outage is expected, not a fault.

One ``Part`` per thing watched and process; every thread that meets the outage tells the same
``Part`` (it is thread-safe), so three loops waiting on one database make one line, not three.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

REPEAT = 60.0  # seconds between two lines about the same outage
NAMED = 8  # what waited: so many named, the rest counted


class Part:
    def __init__(self, name: str, log: logging.Logger, clock: Callable[[], float] = time.monotonic,
                 repeat: float = REPEAT):
        self.name = name
        self.log = log
        self.clock = clock
        self.repeat = repeat
        self._lock = threading.Lock()
        self._since: float | None = None  # when it went away (clock time)
        self._said = 0.0  # when the log last said so
        self._waited: dict[str, None] = {}  # what waited for it, in the order met
        self._error = ""

    @property
    def away_now(self) -> bool:
        return self._since is not None

    def away(self, error: str, waiting: str | None = None) -> None:
        """The part failed (``error``: its words, one line); ``waiting``: the work that waits."""
        error = error.strip().splitlines()[0] if error.strip() else "no answer"
        with self._lock:
            now = self.clock()
            if waiting:
                self._waited[waiting] = None
            self._error = error
            if self._since is None:
                self._since = self._said = now
                self.log.warning("%s is away: %s; the work that needs it waits (nothing is lost), tried again "
                                 "until it is back", self.name, error)
            elif now - self._said >= self.repeat:
                self._said = now
                self.log.warning("%s still away after %s: %s; waiting: %s", self.name, _span(now - self._since),
                                 error, self._what_waited())

    def back(self) -> None:
        """The part answered again (cheap when it was not away)."""
        if self._since is None:
            return
        with self._lock:
            if self._since is None:
                return
            gone = self.clock() - self._since
            waited = self._what_waited()
            self._since, self._waited = None, {}
        self.log.info("%s is back after %s; what waited goes on now: %s", self.name, _span(gone), waited)

    def _what_waited(self) -> str:
        names = list(self._waited)
        if not names:
            return "nothing yet"
        shown = ", ".join(names[:NAMED])
        return shown if len(names) <= NAMED else f"{shown} and {len(names) - NAMED} more"


def _span(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 120:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 120:
        return f"{minutes} min {seconds} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"
