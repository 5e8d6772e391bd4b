"""The web's pictures: the board of a phase, the board in play and the chart, as inline SVG drawn
by gm.render (each variant's own drawing), kept in memory once drawn.

A processed phase never changes, so its picture is kept by the phase's row; the board in play
and the chart by the game's phase counter, status and the board itself. Every province gets its
name as a ``<title>`` (shown on hover by any browser) and a ``data-name`` (the page's script
shows it beside the pointer); the root loses its fixed size so that the page can scale and zoom
it.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from markupsafe import Markup, escape
from sqlalchemy.orm import Session

from gm.adjudicator.variant import Variant
from gm.games.context import Services
from gm.games.pictures import arrivals, chart_points, chart_title, phase_report
from gm.render import render_phase_svg
from gm.render.chart import chart_svg, history_chart
from gm.store.models import Game, PhaseRecord

_PROVINCE = re.compile(r'<path id="p-([^"]+)"([^>]*?)/>')
_ROOT = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" width="[^"]*" height="[^"]*"')


class PictureCache:
    """Text drawn once (SVG, a phase's results) by key, the least recently used dropped past
    ``entries`` (thread-safe: pages are built in worker threads)."""

    def __init__(self, entries: int = 400):
        self.entries = entries
        self._found: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, draw: Callable[[], str]) -> str:
        with self._lock:
            found = self._found.get(key)
            if found is not None:
                self._found.move_to_end(key)
                return found
        drawn = draw()  # outside the lock: two threads may draw one picture, never wait on another's
        with self._lock:
            self._found[key] = drawn
            while len(self._found) > self.entries:
                self._found.popitem(last=False)
        return drawn


def for_the_page(svg: str, variant: Variant, css_class: str, label: str) -> str:
    """gm.render's SVG made for a page: provinces named on hover, the size left to the page."""
    names = {pid.casefold(): province.name for pid, province in variant.map.provinces.items()}

    def named(match: re.Match[str]) -> str:
        name = escape(names.get(match.group(1).casefold(), match.group(1)))
        return f'<path id="p-{match.group(1)}" data-name="{name}"{match.group(2)}><title>{name}</title></path>'

    svg = _PROVINCE.sub(named, svg)
    return _ROOT.sub(f'<svg xmlns="http://www.w3.org/2000/svg" class="{css_class}" role="img" '
                     f'aria-label="{escape(label)}"', svg, count=1)


def _board_key(game: Game) -> str:
    return hashlib.sha256(json.dumps(game.position, sort_keys=True).encode("utf-8")).hexdigest()


class Pictures:
    def __init__(self, services: Services, cache: PictureCache | None = None):
        self.services = services
        self.cache = cache or PictureCache()

    def board_now(self, game: Game) -> Markup:
        variant = self.services.variant_of(game)
        order = tuple(arrivals(game))
        return Markup(self.cache.get(("now", game.id, game.phase_seq, _board_key(game), order), lambda: for_the_page(
            render_phase_svg(variant, self.services.position_of(game), arrivals=order), variant, "board",
            f"The board of {game.name} as it stands")))

    def phase(self, game: Game, record: PhaseRecord) -> Markup:
        variant = self.services.variant_of(game)
        order = tuple(arrivals(game))

        def draw() -> str:
            position, report = phase_report(variant, record, game.dice_seed)
            return for_the_page(render_phase_svg(variant, position, report, arrivals=order), variant, "board",
                                f"The board of {game.name}, {record.phase}, with its orders and their results")

        return Markup(self.cache.get(("phase", game.id, record.id, order), draw))

    def chart(self, session: Session, game: Game) -> Markup | None:
        variant = self.services.variant_of(game)
        order = tuple(arrivals(game))

        def draw() -> str:
            points = chart_points(self.services, session, game, now=True)
            if not points:
                return ""
            svg = chart_svg(history_chart(variant, game.name, points, order))
            return _ROOT.sub(f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label='
                             f'"{escape(game.name)}: {escape(chart_title(variant))} year by year"', svg, count=1)

        found = self.cache.get(("chart", game.id, game.phase_seq, game.status, _board_key(game), order), draw)
        return Markup(found) if found else None
