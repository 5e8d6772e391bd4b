"""CREATE and SETTINGS: a game made and steered by mail, its settings file the one truth
(gm.games.gamefiles writes it; gm.settings.edit lays a change on it)."""

from __future__ import annotations

from gm.commands.base import BodyRule, Command, CommandError, Invocation, MailContext
from gm.commands.topics import variant_named
from gm.games import gamefiles
from gm.games.lifecycle import find_game, settings_changes
from gm.games.mailer import hang
from gm.games.names import NameRefused, game_name
from gm.games.privacy import hidden_from, no_such_game
from gm.settings import edit
from gm.store.models import Game, GameStatus

END_SETTINGS = ("ENDSETTINGS", "END SETTINGS")
DEFAULT_VARIANT = "standard"  # as njudge's CREATE: the standard game unless another is named
# Settings that change nothing once the game has started (its seats are taken by then).
FORMING_ONLY = ("players", "seats", "assignment", "start")


class Create(Command):
    name = "CREATE"
    usage = "CREATE <game> [variant]"
    summary = ("create a game and be its game master, where this judge's operator allows your address: its "
               "settings file is written with every setting at its default and sent to you with your game master "
               "secret; the variant is standard unless you name one (HELP VARIANTS). You are signed on as its "
               "game master for the rest of the mail")

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        ctx.leave()  # whatever happens, nothing signed on to before counts after this line
        words = invocation.args.split(maxsplit=1)
        if not words:
            raise CommandError(f"write {self.usage}")
        config = ctx.services.config
        if not config.may_create(ctx.sender):
            raise CommandError(f"this judge's operator has not allowed {ctx.sender} to create games. Ask the "
                               f"operator ({config.admin_address}) to add your address to game_masters in the "
                               "judge's configuration; until then a game is made by the operator, from a settings "
                               "file.")
        if config.require_authentication_results and not ctx.authenticated:
            raise CommandError("this judge takes CREATE only in mail that its mail server found signed by the domain "
                               "of your address (a DKIM or DMARC pass), and this one was not: send it straight from "
                               "your own mail provider")
        try:
            name = game_name(words[0], config.judge_name)
        except NameRefused as exc:
            raise CommandError(str(exc)) from None
        variant = variant_named(ctx.services.catalog, words[1]) if len(words) > 1 else \
            ctx.services.catalog.get(DEFAULT_VARIANT)
        if variant is None:
            raise CommandError(f"there is no variant {words[1].lower()!r} (HELP VARIANTS lists them)")
        try:
            created = gamefiles.create(ctx.services, ctx.session, name, variant.name, ctx.sender)
        except gamefiles.FileRefused as exc:
            raise CommandError(str(exc)) from None
        ctx.revealed.append(created.secret)  # masked in the outbox's copy once sent
        ctx.enter(created.game, as_gm=True)
        return [
            hang(f"The game {name} ({variant.name}) is created, and you are its game master (signed on as such for "
                 "the rest of this mail).", 0),
            "",
            "Your game master secret is:",
            "",
            f"    {created.secret}",
            "",
            hang(f"Sign on with it to use the game master's commands: SIGNON GM {name} <secret>. Players join with "
                 f"JOIN {name}; the game starts once every power has a player (start: when-full).", 0),
            "",
            hang(f"Its settings file, {created.path.name}, as written (every setting at its default):", 0),
            "",
            *created.text.rstrip("\n").split("\n"),
            "",
            *_how_to_change(name),
        ]


class Settings(Command):
    for_gm = True
    name = "SETTINGS"
    usage = "SETTINGS [game], then settings and ENDSETTINGS to change them"
    summary = ("alone: mails you the game's settings file as it stands. Followed by settings as they stand in "
               "the file (deadlines:, press: ...), then ENDSETTINGS: those settings replace the file's own (each "
               "setting given whole; the others stay as they are; a setting with nothing after it takes its "
               "default). The change is checked as an edit of the file is (a problem named by its line in your "
               "mail), written into the file with its comments kept, and everyone in the game is told what changed")
    body_rule = BodyRule(END_SETTINGS, edit.opens_settings)

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        changing = bool(invocation.body)
        game = self._game(ctx, invocation.args.strip(), changing)
        if not changing:
            return self._show(ctx, game)
        return self._change(ctx, game, invocation)

    def _game(self, ctx: MailContext, name: str, changing: bool) -> Game:
        """The game named (else the one signed on to), if the sender may read or change its settings:
        its game master signed on; to read, its game master's address is enough (the reply goes there)."""
        if not name:
            if changing or ctx.game is not None:
                game = ctx.require_game()
            else:
                raise CommandError("name the game: SETTINGS <game> (to change its settings, after SIGNON GM <game> "
                                   "<secret>)")
        else:
            found = find_game(ctx.session, name, lock=changing) or find_game(ctx.session, name.lower(), lock=changing)
            if found is None or hidden_from(ctx.services, found, ctx.sender):
                raise CommandError(no_such_game(name))
            game = found
        if ctx.is_gm and ctx.game is not None and ctx.game.id == game.id:
            return game
        if not changing and ctx.sender == ctx.services.settings_of(game).gm.lower():
            return game
        raise CommandError(f"only the game master of {game.name} may do that (SIGNON GM {game.name} <secret>)")

    def _show(self, ctx: MailContext, game: Game) -> list[str]:
        text, note = gamefiles.current(ctx.services, game)
        return [
            hang(f"The settings of {game.name}, as its file holds them:", 0),
            "",
            *text.rstrip("\n").split("\n"),
            *(["", hang(note, 0)] if note else []),
            "",
            *_how_to_change(game.name),
        ]

    def _change(self, ctx: MailContext, game: Game, invocation: Invocation) -> list[str]:
        numbers = invocation.body_lines or list(range(invocation.line_no + 1, invocation.line_no + 1 + len(invocation.body)))
        try:
            mailed = edit.mailed(invocation.body, numbers)
        except edit.EditRefused as exc:
            raise CommandError(_refused(exc.problems)) from None
        if not mailed.keys:
            raise CommandError("no settings between SETTINGS and ENDSETTINGS: nothing was changed")
        before = ctx.services.settings_of(game)
        new_gm = str(mailed.value("gm") or "").strip().lower()
        if "gm" in mailed.keys and new_gm != before.gm.lower() and not ctx.services.config.may_create(new_gm):
            raise CommandError(_refused([f"line {mailed.lines['gm']}: the game can pass only to a game master this "
                                         f"judge allows, and {new_gm or 'nobody'} is not one (ask the operator, "
                                         f"{ctx.services.config.admin_address})"]))
        try:
            changed = gamefiles.change(ctx.services, ctx.session, game, mailed, by=ctx.sender)
        except gamefiles.FileRefused as exc:
            raise CommandError(_refused(exc.problems) if exc.problems else f"{exc}; nothing was changed") from None
        changes = settings_changes(before, changed.settings)
        if not changes:
            return [hang(f"Nothing changed: the settings given are those of {game.name} already "
                         f"({changed.path.name} holds them as you wrote them).", 0)]
        lines = [hang(f"The settings of {game.name} are changed and in force; {changed.path.name} holds them, its "
                      "comments and other settings kept. What changed (everyone in the game has been told):", 0), ""]
        lines += [hang(f"  {change}", 4) for change in changes]
        late = [key for key in FORMING_ONLY if key in mailed.keys]
        if late and game.status != GameStatus.FORMING:
            lines += ["", hang(f"The game has started, so {', '.join(late)} no longer change anything (REPLACE "
                               "gives a power a new player).", 0)]
        if changed.settings.gm.lower() != before.gm.lower():
            lines += ["", hang(f"{changed.settings.gm} is the game master from now on, with the same secret.", 0)]
        return lines


def _how_to_change(game: str) -> list[str]:
    return [hang("To change settings, send them back as they stand in the file (only those to change, each "
                 "whole), after SIGNON GM:", 0),
            "",
            f"    SETTINGS {game}",
            "    deadlines: {movement: 72h, retreats: 24h, adjustments: 24h}",
            "    ENDSETTINGS"]


def _refused(problems: list[str]) -> str:
    return "\n".join(["the settings were refused, and nothing was changed:",
                      *(hang(f"  {problem}", 4) for problem in problems)])
