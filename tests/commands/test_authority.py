"""No one reaches beyond their seat: every command of a game master, tried on
a game by everyone who is not its game master (one of its players, the game master of another
game who joins it or signs on to it as a player in the same mail, and one whose sign-on as its
game master failed, with another game's secret or with this game's secret from the wrong
address), is refused, and changes nothing in that game or in the game they do master."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from gm.commands.registry import CommandTable
from gm.games.lifecycle import current_seats, find_game
from gm.games.passwords import hash_secret, verify_secret
from gm.store.models import AuditEntry, GameStatus, OutboundMail, Press
from tests.mail.conftest import Post
from tests.store.conftest import World, database_url, game_file, world  # noqa: F401  (fixtures)
from tests.variants.by_mail import secret_in

RD, RD_GM, RD_SECRET = "rd", "master@example.test", "rd-master-secret-1"
H, H_GM, H_SECRET = "h", "other-gm@example.test", "h-master-secret-2"  # who also plays Pontus in rd
K, K_GM, K_SECRET = "k", "third-gm@example.test", "k-master-secret-3"  # who has no seat in rd
FOUNDERS = {"Latium": ("latium@example.test", "Rome"), "Carthago": ("carthago@example.test", "Tunis"),
            "Pontus": (H_GM, "Ankara"), "Dacia": ("dacia@example.test", "Marseilles")}
SETTINGS = ("variant: roman-diplomacy-i\ngm: master@example.test\ntimezone: Europe/Rome\n"
            "deadlines: {movement: 48h, retreats: 24h, adjustments: 24h}\npress: grey\nseats: 4\n")

# Every command only a game master may give, as it would be given to rd now (Spring A.D. 100).
GM_ONLY = ["PROCESS S100M", "PREVIEW", "ROLLBACK W99A", "PAUSE the holidays", "RESUME", "EJECT Latium",
           "REPLACE Latium thief@example.org", "RENAME Latium TO Samnium", "BECOME Latium", "START",
           "SET DEADLINE +30d", "APPROVE thief@example.org", "REFUSE thief@example.org",
           "TERMINATE nobody plays any more", "UNSTART", "SETTINGS\npress: none\nENDSETTINGS"]
GM_ACTIONS = {"process-now", "preview", "rollback", "paused", "resumed", "ejected", "replaced", "renamed",
              "become", "deadline-set", "started", "gm-secret-changed", "created", "taken-over",
              "takeover-refused", "finished", "unstarted"}
# And what a game master does differently from a player with the same words: press unsigned, the
# game master's secret, every press in HISTORY.
AS_ANYONE = ["SET PASSWORD hijacked-gm-secret", "PRESS\nThe game master extends the deadline.\nENDPRESS",
             "HISTORY"]


def test_gm_only_commands_are_the_command_tables() -> None:
    """The list above is every GM command (a new one must be tried here too)."""
    assert {c.name for c in CommandTable().gm_commands} | {"SET"} == {line.split()[0] for line in GM_ONLY}


@pytest.fixture
def rd(world: World) -> tuple[Post, dict[str, str]]:
    world.write_game(RD, SETTINGS)
    world.write_game(H, game_file().replace("gm: master@example.test", f"gm: {H_GM}"))
    world.write_game(K, "variant: standard\ngm: third-gm@example.test\n")
    world.tick()
    post = Post(world)
    secrets = {}
    for empire, (address, city) in FOUNDERS.items():
        post.send(address, f"JOIN {RD} {city} as {empire}\n")
        secrets[empire] = secret_in(post.reply(address))
    with world.services.db.unit_of_work() as session:
        for name, secret in ((RD, RD_SECRET), (H, H_SECRET), (K, K_SECRET)):
            find_game(session, name).gm_secret_hash = hash_secret(secret)
        assert find_game(session, RD).status == GameStatus.ACTIVE and find_game(session, H).status == GameStatus.ACTIVE
        deadline = find_game(session, RD).deadline
    world.clock.set(deadline + timedelta(minutes=1))
    assert world.tick().processed == [f"{RD} W99A"]
    post.send("latium@example.test", f"SIGNON Latium {RD} {secrets['Latium']}\nPRESS TO Dacia\nfor Dacia only\n"
                                     "ENDPRESS\n")
    assert "Press sent to Dacia." in post.reply("latium@example.test")
    return post, secrets


def _snapshot(post: Post) -> dict:  # type: ignore[type-arg]
    with post.world.services.db.sessions() as session:
        games = {}
        for name in (RD, H, K):
            game = find_game(session, name)
            games[name] = (game.status, game.phase, game.phase_seq, game.deadline, game.due_at, game.paused_reason,
                           game.gm_secret_hash, game.dice_seed,
                           sorted((s.power, s.player.email if s.player else None, s.status) for s in current_seats(game)
                                  if s.power != "Hellas"))  # Hellas: the newcomer a JOIN may add
        actions = [a.action for a in session.scalars(select(AuditEntry)) if a.action in GM_ACTIONS]
        kinds = sorted(m.kind for m in session.scalars(select(OutboundMail))
                       if m.kind in ("preview", "rollback", "pause", "resume", "renamed", "deadline", "removed", "start")
                       or m.to_address == "thief@example.org")
        gm_press = session.scalar(select(Press.id).where(Press.sender_power.is_(None)))
    return {"games": games, "actions": actions, "kinds": kinds, "gm_press": gm_press}


def _identities(secrets: dict[str, str]) -> dict[str, tuple[str, str, str]]:
    """Who tries: (address, how the mail starts, the refusal every GM command gets)."""
    only_gm = f"ERROR: only the game master of {RD} may do that"
    sign_on = "ERROR: sign on first"
    return {
        "a player of the game": ("carthago@example.test", f"SIGNON Carthago {RD} {secrets['Carthago']}\n", only_gm),
        "the GM of another game, who joins it": (K_GM, f"SIGNON GM {K} {K_SECRET}\nJOIN {RD} Greece as Hellas\n",
                                                 only_gm),
        "the GM of another game, signed on to it as a player": (
            H_GM, f"SIGNON GM {H} {H_SECRET}\nSIGNON Pontus {RD} {secrets['Pontus']}\n", only_gm),
        "the GM of another game, with that game's secret": (H_GM, f"SIGNON GM {H} {H_SECRET}\nSIGNON GM {RD} {H_SECRET}\n",
                                                            sign_on),
        "the GM of another game, with this game's secret from its own address": (
            H_GM, f"SIGNON GM {H} {H_SECRET}\nSIGNON GM {RD} {RD_SECRET}\n", sign_on),
    }


def _answers(reply: str) -> dict[str, list[str]]:
    """The reply's sections: the command's first line -> the lines answering it."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in reply.splitlines():
        if line.startswith("> "):
            if current is None or sections[current]:
                current = line[2:]
                sections[current] = []
        elif current is not None and line.strip():
            sections[current].append(line)
    return sections


@pytest.mark.parametrize("who", list(_identities({"Carthago": "", "Pontus": ""})))
def test_no_one_but_its_game_master_may_master_a_game(rd: tuple[Post, dict[str, str]], who: str) -> None:
    post, secrets = rd
    before = _snapshot(post)
    address, start, refusal = _identities(secrets)[who]
    post.send(address, start + "\n".join([*GM_ONLY, *AS_ANYONE]) + "\n")
    answers = _answers(post.reply(address))
    for command in GM_ONLY:
        first = command.split("\n")[0]
        assert any(line.startswith(refusal) for line in answers[first]), (command, answers[first])
    history = answers["HISTORY"]
    assert not any("for Dacia only" in line for line in history)  # private press of others stays private
    after = _snapshot(post)
    assert after == before, who  # nothing changed in rd, h or k: no GM action, no GM press, the GM secret kept
    with post.world.services.db.sessions() as session:
        assert not verify_secret("hijacked-gm-secret", find_game(session, RD).gm_secret_hash)
    assert not any("Press from the game master" in m.body for m in post.mails(kind="press"))
    # and the game's own master still may
    post.send(RD_GM, f"SIGNON GM {RD} {RD_SECRET}\nPAUSE the holidays\n")
    assert f"{RD} is paused." in post.reply(RD_GM)


def test_a_failed_sign_on_ends_the_authority_had_before(rd: tuple[Post, dict[str, str]]) -> None:
    """The GM of h who mistypes the secret of another game they master goes on in no game, not in h."""
    post, _ = rd
    post.send(H_GM, f"SIGNON GM {H} {H_SECRET}\nSIGNON GM {H}x {H_SECRET}\nPAUSE\nJOIN nogame\nRESUME\n")
    answers = _answers(post.reply(H_GM))
    assert answers["PAUSE"] == ["ERROR: sign on first: SIGNON <power> <game> <secret>"]
    assert answers["RESUME"] == ["ERROR: sign on first: SIGNON <power> <game> <secret>"]
    with post.world.services.db.sessions() as session:
        assert find_game(session, H).status == GameStatus.ACTIVE
