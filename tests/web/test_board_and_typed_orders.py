"""The board on the player's page: first, beside the order box, its full-size picture a click
away; the orders typed drawn on it as the box checks them, with the marks of the results
pictures from the same scene code; the powers' colours beside their names; one deadline, in the
game's zone."""

from __future__ import annotations

import json
import re
from datetime import timedelta

from gm.games.lifecycle import find_game
from gm.games.orderbook import board_for
from gm.render.colours import Palette
from gm.render.scene import order_scene
from gm.render.svg import scene_svg
from gm.web.pictures import marks_of
from tests.mail.conftest import Post, secret_of
from tests.web.conftest import Browser, csrf_of

PNG = b"\x89PNG\r\n\x1a\n"


def _check(browser: Browser, text: str) -> dict:
    page = browser.get("/games/g/play").text
    answer = browser.client.post("/games/g/play/check", content=json.dumps({"text": text}),
                                 headers={"content-type": "application/json", "x-csrf-token": csrf_of(page)})
    assert answer.status_code == 200, answer.text
    return answer.json()


def _drawn(browser: Browser, power: str, lines: list[str]) -> str:
    """The marks the results pictures' scene code gives ``lines`` of ``power`` on the board in play."""
    services = browser.world.services
    with services.db.reading() as session:
        game = find_game(session, "g")
        variant, position = services.variant_of(game), services.position_of(game)
        orders = services.orders_from(game, lines)
        scene = order_scene(variant, board_for(variant, position, power, orders), [(power, o) for o in orders])
    return marks_of(scene_svg(scene))


def test_the_board_comes_first_beside_the_order_box_with_its_full_size_picture(browser: Browser) -> None:
    browser.sign_in("France")
    page = browser.get("/games/g/play").text
    top = page[page.index('<div class="play-top">'):page.index('<p class="hint">')]
    board, box = top.index('<figure class="zoomable board-figure" data-typed>'), top.index('id="orders"')
    assert board < top.index("Orders for France") < box  # the board, then the order box, in one row
    assert top.index('<svg xmlns="http://www.w3.org/2000/svg" class="board"') > board
    assert '<g class="marks">' in top and 'href="/games/g/board.png"' in top
    picture = browser.get("/games/g/board.png")
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/png"
    assert picture.content.startswith(PNG)
    public = browser.get("/games/g").text
    assert "data-typed" not in public and 'href="/games/g/board.png"' in public  # nothing typed on it


def test_the_gms_page_has_the_board_without_an_order_box(browser: Browser) -> None:
    browser.sign_in(role="gm")
    page = browser.get("/games/g/play").text
    assert '<figure class="zoomable board-figure">' in page and 'id="orders"' not in page


def test_the_power_table_shows_each_powers_colour_as_the_board_draws_it(browser: Browser) -> None:
    page = browser.get("/games/g").text
    variant = browser.world.services.catalog.get("standard")
    palette = Palette(variant, variant.powers)
    for power in variant.powers:
        swatch = re.search(r'<td class="power"><svg class="swatch"[^>]*><rect [^>]*fill="(#[0-9a-f]{6})"[^>]*/></svg>' + power + "</td>",
                           page)
        assert swatch, power
        assert swatch.group(1) == palette.colour(power)
        assert f'fill="{palette.colour(power)}"' in page[page.index('class="board"'):]  # the same colour on the board
    assert len(set(re.findall(r'<svg class="swatch".*?fill="(#[0-9a-f]{6})"', page))) == 7


def test_one_deadline_in_the_games_zone_the_readers_own_added_by_the_script(browser: Browser) -> None:
    browser.sign_in("France")
    page = browser.get("/games/g/play").text
    times = re.findall(r'<time datetime="[^"]+" data-local data-zone="([^"]+)">([^<]+)</time>', page)
    assert len(times) == 1 and times[0][0] == "Europe/Rome" and times[0][1].endswith("(Europe/Rome)")
    assert "Deadline for" not in page  # not again in the orders' box, in another zone
    status = page[page.index('<pre class="text status">'):]
    assert "Current orders for France" in status[:status.index("</pre>")]
    assert "Deadline for" not in " ".join(_check(browser, "A Par - Bur")["summary"])


def test_the_check_answers_with_the_board_marks_of_the_orders_typed(browser: Browser, post: Post) -> None:
    browser.sign_in("France")
    none = _check(browser, "")
    assert none["lines"] == [] and none["marks"] == _drawn(browser, "France", [])  # nothing ordered yet
    assert 'class="order' not in none["marks"]
    typed = ["A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mid-Atlantic"]
    found = _check(browser, "\n".join(typed))
    assert all(line["ok"] for line in found["lines"])
    assert found["marks"] == _drawn(browser, "France", ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"])
    assert found["marks"].startswith('<g class="marks">') and found["marks"].endswith("</g>")
    assert found["marks"].count('<g class="order move">') == 2 and found["marks"].count('<g class="order support">') == 1
    # a line in error draws nothing of its own; the rest still do
    bad = _check(browser, "A Par - Bur\nA Parris - Picardy")
    assert not bad["lines"][1]["ok"] and bad["marks"].count('<g class="order move">') == 1
    # sent by mail, the orders stand: an empty box draws them, and what is typed adds to them
    post.send("france@example.test", f"SIGNON France g {secret_of('France')}\nA Par - Pic\n")
    assert _check(browser, "")["marks"] == _drawn(browser, "France", ["A PAR - PIC"])
    assert _check(browser, "F Bre - Eng")["marks"] == _drawn(browser, "France", ["A PAR - PIC", "F BRE - ENG"])


def test_no_marks_for_a_stranger_nor_a_session_gone(browser: Browser, other_browser: Browser) -> None:
    answer = other_browser.client.post("/games/g/play/check", content=json.dumps({"text": "A Par - Bur"}),
                                       headers={"content-type": "application/json", "x-csrf-token": "x"})
    assert answer.status_code == 403 and "marks" not in answer.json()
    browser.sign_in("France")
    csrf = csrf_of(browser.get("/games/g/play").text)
    browser.form("/games/g/play", "/games/g/signoff")
    gone = browser.client.post("/games/g/play/check", content=json.dumps({"text": "A Par - Bur"}),
                               headers={"content-type": "application/json", "x-csrf-token": csrf})
    assert gone.status_code == 403 and "marks" not in gone.json()


def test_a_phase_page_links_its_full_size_picture_with_its_orders(browser: Browser, post: Post) -> None:
    post.send("france@example.test", f"SIGNON France g {secret_of('France')}\nA Paris - Burgundy\n")
    browser.world.clock.advance(timedelta(hours=49))
    browser.world.tick()
    phase = browser.get("/games/g/phases/S1901M").text
    assert 'href="/games/g/phases/S1901M/board.png"' in phase
    picture = browser.get("/games/g/phases/s1901m/board.png")
    assert picture.status_code == 200 and picture.content.startswith(PNG)
    assert browser.get("/games/g/phases/F1901M/board.png").status_code == 404  # not processed yet


def test_a_private_games_pictures_are_for_its_own_readers(browser: Browser, other_browser: Browser) -> None:
    path = browser.world.config.games_dir / "g.yaml"
    browser.world.write_game("g", path.read_text() + "private: true\n")
    browser.world.tick()
    assert other_browser.get("/games/g/board.png").status_code == 404  # as a game that is not there
    browser.sign_in("France")
    assert browser.get("/games/g/board.png").content.startswith(PNG)


def test_a_build_typed_is_drawn_ringed_as_the_results_draw_it(browser: Browser, post: Post) -> None:
    from tests.mail.test_summary_reveal_statements import next_phase, phase

    post.send("france@example.test", f"SIGNON France g {secret_of('France')}\nA Mar - Spa\nF Bre - Mid-Atlantic\n")
    next_phase(post)
    post.send("france@example.test", f"SIGNON France g {secret_of('France')}\nF Mid-Atlantic - Por\n")
    next_phase(post)
    assert phase(post) == "W1901A"
    browser.sign_in("France")
    ring = 'stroke-width="3.4"'  # a new unit's ring (templates/map/board.svg.j2)
    assert ring not in _check(browser, "")["marks"]
    built = _check(browser, "Build A Marseilles\nBuild F Brest")
    assert all(line["ok"] for line in built["lines"])
    assert built["marks"] == _drawn(browser, "France", ["BUILD A MAR", "BUILD F BRE"])
    assert built["marks"].count(ring) == 2
