"""Games made and steered by mail: CREATE from an address the operator allows (game_masters),
the new game's file written with every default and read back; SETTINGS sends the file, and
SETTINGS ... ENDSETTINGS changes it, checked as an edited file is (problems by their line in the
mail), written back with its comments and layout, everyone told; an edit on the server while a
change by mail is made is not lost."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from gm.app import App
from gm.clock import ManualClock
from gm.commands.reader import read_invocations
from gm.commands.registry import CommandTable
from gm.config import AppConfig, default_config
from gm.games.context import Faults
from gm.games.lifecycle import find_game
from gm.games.passwords import hash_secret
from gm.services.mailtext import readable_lines
from gm.services.sending import Dispatcher
from gm.settings import edit
from gm.settings.reader import read_settings
from gm.store.models import GameStatus, OutboundMail
from tests.mail.conftest import Post
from tests.mail.test_sending import FakeSender
from tests.store.conftest import World, database_url, game_file  # noqa: F401  (fixtures)
from tests.variants.by_mail import secret_in

GM = "gm@club.example"
OPERATOR = "operator@example.test"
SECRET = "club-master-secret-7"
PATTERNS = (GM, "*@games.example")

# A file as a GM writes it by hand, with comments, blank lines and its own layout.
COMMENTED = """\
# Autumn league, board 2 (kept by hand)
variant: standard
gm: gm@club.example        # the club's GM
timezone: Europe/Rome

# Slow game: two days a move
deadlines:
    movement: 48h          # two days
    retreats: 24h
    adjustments: 24h
press: white               # signed press only
grace: 6h
players:
    - {email: austria@example.test, power: Austria}
    - {email: england@example.test, power: England}   # Ed
# end of file
"""


@pytest.fixture
def judge(database_url: str, tmp_path: Path) -> Iterator[World]:
    base = default_config(tmp_path / "home")
    config = AppConfig(**{**base.__dict__, "database_url": database_url, "judge_address": "judge@example.test",
                          "admin_address": OPERATOR, "game_masters": PATTERNS})
    config.games_dir.mkdir(parents=True, exist_ok=True)
    app = App(config, clock=ManualClock(), faults=Faults())
    yield World(config, app.services.clock, app)
    app.close()


@pytest.fixture
def post(judge: World) -> Post:
    return Post(judge)


def _file(post: Post, name: str) -> Path:
    return post.world.config.games_dir / f"{name}.yaml"


def _settings(post: Post, name: str):  # type: ignore[no-untyped-def]
    with post.world.services.db.sessions() as session:
        return post.world.services.settings_of(find_game(session, name))


def _answer(reply: str, command: str) -> str:
    """The reply's answer to the command whose line is ``command``."""
    after = reply.split(f"> {command}\n", 1)[1]
    return "\n".join(line for line in after.split("\n") if not line.startswith("> "))


def _game_with_file(post: Post, name: str, text: str) -> Path:
    path = post.world.write_game(name, text)
    post.world.tick()
    with post.world.services.db.unit_of_work() as session:
        find_game(session, name).gm_secret_hash = hash_secret(SECRET)
    return path


# -- CREATE ------------------------------------------------------------------------------------

def test_an_allowed_gm_creates_a_game_with_every_default_and_gets_its_secret(post: Post) -> None:
    post.send(GM, "CREATE Club1 standard\n")
    reply = post.reply(GM)
    assert "The game club1 (standard) is created, and you are its game master" in reply
    secret = secret_in(reply)
    path = _file(post, "club1")
    written = path.read_text(encoding="utf-8")
    assert "\n".join(written.rstrip("\n").split("\n")) in reply  # the file as written, whole
    # in force at once, in the same unit of work: the game is there before any tick
    with post.world.services.db.sessions() as session:
        game = find_game(session, "club1")
        assert game is not None and game.status == GameStatus.FORMING and game.settings_source == str(path)
    (settings,) = read_settings(written, str(path), post.world.services.known_variant, post.world.services.rule_problems)
    (minimal,) = read_settings(f"variant: standard\ngm: {GM}\n", str(path), post.world.services.known_variant)
    assert settings == dataclasses.replace(minimal, seats=7)  # every setting at its default
    assert all(len(line) <= 72 for line in written.split("\n"))
    # the scheduler finds the file already read: no second game, no "created" mail with another secret
    post.world.tick()
    assert not post.mails(kind="created") and not post.mails(kind="settings")
    post.send(GM, f"SIGNON GM club1 {secret}\nSTART\n")
    assert "Signed on as the game master of club1" in post.reply(GM)


def test_the_secret_a_create_gives_is_masked_in_the_outbox_once_sent(post: Post) -> None:
    post.send(GM, "CREATE club2\n")
    secret = secret_in(post.reply(GM))
    sender = FakeSender()
    asyncio.run(Dispatcher(post.world.services, sender).drain())
    assert any(secret in m.get_content() for m in sender.sent if m["To"] == GM)  # the GM got it
    with post.world.services.db.sessions() as session:
        for mail in session.query(OutboundMail):
            assert secret not in mail.body and not mail.secrets


def test_create_then_settings_in_one_mail(post: Post) -> None:
    """CREATE signs its GM on, as njudge's create does: the settings follow in the same mail."""
    post.send(GM, "CREATE club3 rise of rome ii\nSETTINGS\ntimezone: Europe/Rome\npress: grey\nENDSETTINGS\n")
    reply = post.reply(GM)
    assert "The game club3 (rise-of-rome-ii) is created" in reply
    assert "press: " in _answer(reply, "SETTINGS") and "ERROR" not in reply
    settings = _settings(post, "club3")
    assert settings.variant == "rise-of-rome-ii" and settings.schedule.zone.key == "Europe/Rome" and settings.press.grey
    text = _file(post, "club3").read_text(encoding="utf-8")
    assert "timezone: Europe/Rome   # deadlines are set and shown in it" in text  # its comment kept


@pytest.mark.parametrize(("sender", "allowed"), [
    (GM, True), ("GM@Club.Example", True), ("anyone@games.example", True),
    ("someone@club.example", False), ("x@sub.games.example", False), ("x@games.example.evil", False),
])
def test_who_may_create_is_the_operators_choice(post: Post, sender: str, allowed: bool) -> None:
    post.send(sender, "CREATE league\n")
    reply = post.reply(sender.lower())
    assert ("is created" in reply) is allowed
    assert _file(post, "league").exists() is allowed
    if not allowed:
        assert f"has not allowed {sender.lower()} to create games" in reply
        assert OPERATOR in reply and "game_masters" in reply


def test_no_one_creates_where_the_operator_named_no_game_masters(judge: World) -> None:
    judge.app.services.config = dataclasses.replace(judge.config, game_masters=())
    post = Post(judge)
    post.send(GM, "CREATE league\n")
    assert "has not allowed gm@club.example to create games" in post.reply(GM)
    assert not list(judge.config.games_dir.glob("*.yaml"))


@pytest.mark.parametrize(("command", "why"), [
    ("CREATE", "write CREATE <game> [variant]"),
    ("CREATE ../evil", "use letters, digits, - and _"),
    ("CREATE .hidden", "use letters, digits, - and _"),
    ("CREATE a/b", "use letters, digits, - and _"),
    ("CREATE " + "x" * 41, "at most 40"),
    ("CREATE gm", "a word the judge keeps"),
    ("CREATE signon", "a word the judge keeps"),
    ("CREATE con", "keep it for a device"),
    ("CREATE Taken", "there is a game taken already"),
    ("CREATE stray", "there is a settings file stray.yml already"),
    ("CREATE league chess", "there is no variant 'chess'"),
])
def test_bad_names_and_variants_are_refused(post: Post, command: str, why: str) -> None:
    _game_with_file(post, "taken", f"variant: standard\ngm: {GM}\n")
    (post.world.config.games_dir / "stray.yml").write_text("not: a game\n", encoding="utf-8")
    files = sorted(p.name for p in post.world.config.games_dir.glob("*.y*ml"))
    post.send(GM, command + "\n")
    reply = post.reply(GM)
    assert "ERROR" in reply and why in reply, reply
    assert sorted(p.name for p in post.world.config.games_dir.glob("*.y*ml")) == files


# -- SETTINGS: reading ---------------------------------------------------------------------------

def test_settings_sends_the_file_as_it_stands(post: Post) -> None:
    path = _game_with_file(post, "autumn", COMMENTED)
    post.send(GM, f"SIGNON GM autumn {SECRET}\nSETTINGS\n")
    answer = _answer(post.reply(GM), "SETTINGS")
    assert COMMENTED.rstrip("\n") in answer and "SETTINGS autumn" in answer
    # from the GM's own address, naming the game, no sign-on is needed to read: the reply goes there
    post.send(GM, "SETTINGS autumn\nPREVIEW\n")
    reply = post.reply(GM)
    assert COMMENTED.rstrip("\n") in _answer(reply, "SETTINGS autumn")
    assert "ERROR: sign on first" in _answer(reply, "PREVIEW")  # a command after it is a command
    # an edit on the server not read yet: the file as it stands, and a word that it is not in force
    path.write_text(COMMENTED.replace("grace: 6h", "grace: 8h"), encoding="utf-8")
    post.send(GM, "SETTINGS autumn\n")
    answer = _answer(post.reply(GM), "SETTINGS autumn")
    assert "grace: 8h" in answer and "differs from the settings in force" in answer


def test_only_the_game_master_reads_them(post: Post) -> None:
    _game_with_file(post, "autumn", COMMENTED)
    _game_with_file(post, "hidden", f"variant: standard\ngm: {GM}\nprivate: true\n")
    post.send("austria@example.test", "SETTINGS autumn\n")
    reply = post.reply("austria@example.test")
    assert "ERROR: only the game master of autumn may do that" in reply and "gm@club.example        #" not in reply
    post.send("stranger@example.test", "SETTINGS hidden\n")
    assert "ERROR: there is no game 'hidden'" in post.reply("stranger@example.test")


# -- SETTINGS: changing --------------------------------------------------------------------------

def test_a_change_keeps_the_files_comments_and_layout_and_everyone_is_told(post: Post) -> None:
    path = _game_with_file(post, "autumn", COMMENTED)
    post.send(GM, f"SIGNON GM autumn {SECRET}\nSETTINGS\npress: grey\ndeadlines:\n  movement: 72h\n"
                  "  retreats: 24h\n  adjustments: 12h\nobservers: [watcher@example.test]   # the club's archive\n"
                  "ENDSETTINGS\n")
    reply = post.reply(GM)
    assert "ERROR" not in reply, reply
    assert path.read_text(encoding="utf-8") == """\
# Autumn league, board 2 (kept by hand)
variant: standard
gm: gm@club.example        # the club's GM
timezone: Europe/Rome

# Slow game: two days a move
deadlines:
    movement: 72h
    retreats: 24h
    adjustments: 12h
press: grey                # signed press only
grace: 6h
players:
    - {email: austria@example.test, power: Austria}
    - {email: england@example.test, power: England}   # Ed
# end of file
observers: [watcher@example.test]   # the club's archive
"""
    settings = _settings(post, "autumn")
    assert settings.press.grey and settings.schedule.movement.after.total_seconds() == 72 * 3600
    answer = _answer(reply, "SETTINGS")
    assert "press:" in answer and "observers: none -> watcher@example.test" in answer
    told = {m.to_address: m.body for m in post.mails(kind="settings")}
    # the players, and the new observer; not the GM, whose reply says it all
    assert sorted(told) == ["austria@example.test", "england@example.test", "watcher@example.test"]
    assert "The game master changed the settings of autumn by mail" in told["austria@example.test"]
    assert "observers: changed" in told["austria@example.test"] and "watcher@" not in told["austria@example.test"]
    # the file reads back as what is in force: the scheduler has nothing to do
    post.world.tick()
    assert len(post.mails(kind="settings")) == 3


def test_a_problem_is_named_by_its_line_in_the_mail(post: Post) -> None:
    path = _game_with_file(post, "autumn", COMMENTED)
    body = (f"SIGNON GM autumn {SECRET}\n"      # 1
            "\n"                                # 2
            "SETTINGS\n"                        # 3
            "grace: 2h\n"                       # 4
            "> a line quoted from an earlier mail, left out\n"  # 5
            "press: purple\n"                   # 6
            "deadlines:\n"                      # 7
            "  movement: soonish\n"             # 8
            "remindres: [1h]\n"                 # 9
            "ENDSETTINGS\n")
    post.send(GM, body)
    answer = _answer(post.reply(GM), "SETTINGS")
    assert "the settings were refused, and nothing was changed" in answer
    assert "line 6: press 'purple'" in answer
    assert "line 8: 'soonish' is not a duration" in answer
    assert "line 9: unknown setting 'remindres'" in answer
    assert "line 4" not in answer
    assert path.read_text(encoding="utf-8") == COMMENTED and _settings(post, "autumn").grace.total_seconds() == 6 * 3600
    assert not post.mails(kind="settings")
    post.send(GM, f"SIGNON GM autumn {SECRET}\nSETTINGS\ngrace: 2h\n  bad: [indent\ngrace: 1h\nENDSETTINGS\n")
    assert "line 4: not valid YAML" in _answer(post.reply(GM), "SETTINGS")
    post.send(GM, f"SIGNON GM autumn {SECRET}\nSETTINGS\ngrace: 2h\npress: grey\ngrace: 1h\nENDSETTINGS\n")
    assert "line 5: 'grace' is written twice (first on line 3)" in _answer(post.reply(GM), "SETTINGS")
    assert path.read_text(encoding="utf-8") == COMMENTED


def test_a_problem_of_the_file_itself_is_named_by_its_line_there(post: Post) -> None:
    """A change of the variant that the file's other settings do not fit: the file's line."""
    text = "variant: rise-of-rome-ii\ngm: gm@club.example\nrules: {rebellion_after: 1}\n"
    _game_with_file(post, "rr", text)
    post.send(GM, f"SIGNON GM rr {SECRET}\nSETTINGS\nvariant: standard\nENDSETTINGS\n")
    answer = _answer(post.reply(GM), "SETTINGS")
    assert "rr.yaml, line 3: standard has no rule 'rebellion_after'" in answer, answer


def test_a_setting_given_empty_takes_its_default(post: Post) -> None:
    path = _game_with_file(post, "autumn", COMMENTED)
    post.send(GM, f"SIGNON GM autumn {SECRET}\nSETTINGS\ngrace:\nENDSETTINGS\n")
    assert "grace: 6h -> 0m" in _answer(post.reply(GM), "SETTINGS")
    assert "grace: 0m\n" in path.read_text(encoding="utf-8")


def test_settings_that_may_not_change_are_refused_with_the_reason(post: Post) -> None:
    text = game_file().replace("gm: master@example.test", f"gm: {GM}")
    path = _game_with_file(post, "g", text)
    with post.world.services.db.sessions() as session:
        assert find_game(session, "g").status == GameStatus.ACTIVE
    for change, why in [
        ("variant: eagles", "the variant of a started game cannot change (it is standard)"),
        ("name: other", "line 4: 'name': a game's name stays as it was created"),
        ("gm: friend@elsewhere.example", "line 4: the game can pass only to a game master this judge allows"),
    ]:
        post.send(GM, f"SIGNON GM g {SECRET}\n\nSETTINGS\n{change}\nENDSETTINGS\n")
        answer = _answer(post.reply(GM), "SETTINGS")
        assert why in answer, answer
        assert path.read_text(encoding="utf-8") == text
    post.send(GM, f"SIGNON GM g {SECRET}\nSETTINGS\ngm: friend@games.example\nseats: 7\nENDSETTINGS\n")
    answer = _answer(post.reply(GM), "SETTINGS")
    assert "friend@games.example is the game master from now on" in answer
    assert "The game has started, so seats no longer change anything" in answer


def test_an_edit_on_the_server_while_a_change_by_mail_is_made_is_not_lost(post: Post,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The file is edited on the server after gm read it and before it writes it back: the mail's
    change is laid again on the file as it now stands, and both are kept."""
    path = _game_with_file(post, "autumn", COMMENTED)
    real = edit.change
    calls = []

    def edited_meanwhile(file_text, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(file_text)
        changed = real(file_text, *args, **kwargs)
        if len(calls) == 1:  # the GM's editor saves the file just now
            path.write_text(file_text.replace("timezone: Europe/Rome", "timezone: Europe/London"), encoding="utf-8")
        return changed

    monkeypatch.setattr(edit, "change", edited_meanwhile)
    post.send(GM, f"SIGNON GM autumn {SECRET}\nSETTINGS\npress: grey\nENDSETTINGS\n")
    assert "ERROR" not in post.reply(GM)
    assert len(calls) == 2 and "Europe/London" in calls[1]
    text = path.read_text(encoding="utf-8")
    assert "timezone: Europe/London" in text and "press: grey" in text and "# Slow game" in text
    settings = _settings(post, "autumn")
    assert settings.schedule.zone.key == "Europe/London" and settings.press.grey
    post.world.tick()
    assert _settings(post, "autumn").press.grey  # the scheduler reads the same file: nothing lost either way


def test_an_edit_on_the_server_not_yet_read_is_kept_by_a_change_by_mail(post: Post) -> None:
    path = _game_with_file(post, "autumn", COMMENTED)
    path.write_text(COMMENTED.replace("grace: 6h", "grace: 12h"), encoding="utf-8")  # no tick since
    post.send(GM, f"SIGNON GM autumn {SECRET}\nSETTINGS\npress: none\nENDSETTINGS\n")
    answer = _answer(post.reply(GM), "SETTINGS")
    assert "grace: 6h -> 12h" in answer  # what changed in force: the server's edit too
    settings = _settings(post, "autumn")
    assert settings.grace.total_seconds() == 12 * 3600 and not settings.press.white


def test_a_settings_body_keeps_its_indentation_and_its_lines_numbers() -> None:
    table = CommandTable()
    lines = readable_lines("SIGNON GM g x\nSETTINGS\ndeadlines:\n> quoted\n  movement: 72h\nENDSETTINGS\nSETTINGS g\n"
                           "PREVIEW\nSETTINGS g\nSTART\n")
    signon, change, show, preview, show_again, start = read_invocations(lines, table.spellings, table.bodied,
                                                                        table.misspelt)
    assert change.name == "SETTINGS" and change.body == ["deadlines:", "  movement: 72h"] and change.body_lines == [3, 5]
    assert (show.name, show.body, preview.name) == ("SETTINGS", [], "PREVIEW")  # alone: the file is asked for
    assert (show_again.body, start.name) == ([], "START")  # a command after it is a command


def test_help_lists_create_and_settings(post: Post) -> None:
    post.send("someone@example.test", "HELP\n")
    reply = post.reply("someone@example.test")
    assert "CREATE <game> [variant]" in reply and "SETTINGS [game]" in reply
