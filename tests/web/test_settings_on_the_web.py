"""The game master's page shows the game's settings file and saves a change of it through the same
SETTINGS as a mail (checked alike, the file's comments kept, everyone told)."""

from __future__ import annotations

import html
import re

from gm.games.lifecycle import find_game
from gm.store.models import WebRole
from tests.web.conftest import Browser, csrf_of

_BOX = re.compile(r'<textarea id="settings" name="commands"[^>]*>(.*?)</textarea>', re.S)


def _box(page: str) -> str:
    found = _BOX.search(page)
    assert found, "no settings box on the page"
    return html.unescape(found.group(1))


def test_the_gm_reads_and_changes_the_settings_file_on_the_web(browser: Browser) -> None:
    path = browser.world.config.games_dir / "g.yaml"
    path.write_text("# the club's game\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    browser.world.app.scheduler.settings_files.sync(force=True)
    browser.sign_in(role=WebRole.GM)
    page = browser.get("/games/g/play").text
    box = _box(page)
    assert box.startswith("SETTINGS\n# the club's game\nvariant: standard\n") and box.endswith("\nENDSETTINGS")
    changed = box.replace("press: grey", "press: none").replace("reminders: [24h]", "reminders: [24h, 1h]")
    answer = browser.client.post("/games/g/play/gm", data={"csrf": csrf_of(page), "commands": changed})
    assert answer.status_code == 303
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# the club's game\n") and "press: none" in text and "reminders: [24h, 1h]" in text
    with browser.world.services.db.sessions() as session:
        settings = browser.world.services.settings_of(find_game(session, "g"))
    assert not settings.press.white and len(settings.reminders) == 2
    assert len(browser.post.mails(kind="settings")) == 7  # every player told; the GM has the answer
    bad = box.replace("press: grey", "press: purple")
    refused = browser.client.post("/games/g/play/gm", data={"csrf": csrf_of(page), "commands": bad})
    line = bad.split("\n").index("press: purple") + 1
    shown = html.unescape(browser.get(refused.headers["location"]).text)
    assert f"line {line}: press 'purple'" in shown  # by its line in the box
    assert path.read_text(encoding="utf-8") == text  # refused whole


def test_a_player_sees_no_settings_box(browser: Browser) -> None:
    browser.sign_in("France")
    assert 'id="settings"' not in browser.get("/games/g/play").text
