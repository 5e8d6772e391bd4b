"""The web's pictures: the board of a phase, the board in play and the chart, as inline SVG drawn
by gm.render (each variant's own drawing), kept in memory once drawn.

A processed phase never changes, so its picture is kept by the phase's row; the board in play
and the chart by the game's phase counter, status and the board itself. Every province gets its
name as a ``<title>`` (shown on hover by any browser) and a ``data-name`` (the page's script
shows it beside the pointer); the root loses its fixed size so that the page can scale and zoom
it.

The orders a player types are drawn by the same scene code as the results pictures
(gm.render.scene.order_scene): the order box's answer carries the board's ``marks`` group (the
orders, units and removals) drawn with them, which the page's script puts in place of its own.
The full-size pictures are the PNGs the mails carry.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from markupsafe import Markup, escape
from sqlalchemy.orm import Session

from gm.adjudicator.variant import Variant
from gm.domain.orders import Order
from gm.domain.position import Position
from gm.games.context import Services
from gm.games.pictures import arrivals, chart_points, chart_title, current_png, phase_png, phase_report
from gm.render import render_phase_svg
from gm.render.chart import chart_svg, history_chart
from gm.render.colours import Palette
from gm.render.scene import order_scene
from gm.render.svg import scene_svg
from gm.store.models import Game, PhaseRecord

_PROVINCE = re.compile(r'<path id="p-([^"]+)"([^>]*?)/>')
_ROOT = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" width="[^"]*" height="[^"]*"')
MARKS = '<g class="marks">'  # the board's orders, units and removals (templates/map/board.svg.j2)
_GROUP = re.compile(r"<g[\s>]|</g>")


class PictureCache:
    """Text drawn once (SVG, a phase's results) by key, the least recently used dropped past
    ``entries`` (thread-safe: pages are built in worker threads)."""

    def __init__(self, entries: int = 400):
        self.entries = entries
        self._found: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, draw: Callable[[], Any]) -> Any:
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


def marks_of(svg: str) -> str:
    """The board's ``marks`` group, whole, out of its SVG ("" where it has none)."""
    start = svg.find(MARKS)
    if start < 0:
        return ""
    depth = 0
    for tag in _GROUP.finditer(svg, start):
        depth += -1 if tag.group() == "</g>" else 1
        if depth == 0:
            return svg[start:tag.end()]
    return ""


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

    def typed(self, game: Game, board: Position, orders: Sequence[tuple[str, Order]]) -> str:
        """The marks of ``orders`` (as typed, not yet judged) on ``board`` (the board in play, with
        what the orders place on it): the ``marks`` group the page puts in place of its own."""
        variant = self.services.variant_of(game)
        order = tuple(arrivals(game))
        key = ("typed", game.id, game.phase_seq, _board_key(game), tuple((p, str(o)) for p, o in orders), order)
        return str(self.cache.get(key, lambda: marks_of(scene_svg(order_scene(variant, board, orders,
                                                                              arrivals=order)))))

    def colours(self, game: Game, powers: Sequence[str]) -> dict[str, str]:
        """Each power's colour as the game's pictures draw it."""
        palette = Palette(self.services.variant_of(game), powers, tuple(arrivals(game)))
        return {power: palette.colour(power) for power in powers}

    def board_png(self, game: Game) -> bytes:
        """The board as it stands, full size, as the mails carry it."""
        return bytes(self.cache.get(("png", game.id, game.phase_seq, _board_key(game), tuple(arrivals(game))),
                                    lambda: current_png(self.services, game)))

    def phase_png(self, game: Game, record: PhaseRecord) -> bytes:
        """A processed phase's picture with its orders, full size, as its results mail carried it."""
        return bytes(self.cache.get(("png", game.id, record.id, tuple(arrivals(game))),
                                    lambda: phase_png(self.services, game, record)))

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
