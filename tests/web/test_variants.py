"""Every variant's own drawing on the web: each province named on hover; a game's page, chart and
phase page for each variant whose map lists its powers (Diplomacy of the Empire's treasuries too)."""

from __future__ import annotations

import re

import pytest

from gm.render import render_phase_svg
from gm.variants.catalog import VariantCatalog
from gm.web.pictures import for_the_page
from tests.mail.conftest import Post
from tests.web.conftest import Browser
from tests.web.games import play, settings_for

VARIANTS = VariantCatalog().names()


@pytest.mark.parametrize("name", VARIANTS)
def test_every_province_of_every_board_is_named_on_hover(name: str) -> None:
    variant = VariantCatalog().get(name)
    svg = for_the_page(render_phase_svg(variant, variant.initial_position()), variant, "board", name)
    shapes = re.findall(r'<path id="p-([^"]+)" data-name="([^"]*)"[^>]*><title>([^<]*)</title></path>', svg)
    assert len(shapes) == svg.count('<path id="p-')
    names = {pid.casefold(): province.name for pid, province in variant.map.provinces.items()}
    for pid, data_name, title in shapes:
        assert data_name == title == names.get(pid.casefold(), pid) and title
    assert 'class="board"' in svg and 'width="' not in svg.split(">", 1)[0]


@pytest.mark.parametrize("name", [n for n in VARIANTS if VariantCatalog().get(n).map.powers])
def test_each_variants_game_has_its_pages(name: str, browser: Browser, post: Post) -> None:
    variant = VariantCatalog().get(name)
    browser.world.write_game("v", settings_for(name, list(variant.map.powers)))
    browser.world.tick()
    play(browser.world, "v", 2)
    page = browser.get("/games/v")
    assert page.status_code == 200 and 'class="board"' in page.text and 'class="chart"' in page.text
    assert "<title>" in page.text.split('class="board"', 1)[1]
    if not variant.map.supply_centres:  # territories and talents, and the treasuries as the results print them
        assert "talents" in page.text.lower()
    phase = re.search(r'href="/games/v/phases/([^"]+)"', page.text)
    assert phase is not None
    assert browser.get(f"/games/v/phases/{phase.group(1)}").status_code == 200
