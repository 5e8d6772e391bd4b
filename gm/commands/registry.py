"""The command table: every command a mail may carry, in the order HELP lists them; and HELP,
which also gives a variant's rules as this judge reads them (templates/rules/VARIANT.txt.j2)."""

from __future__ import annotations

import difflib

from gm.adjudicator.variant import Variant
from gm.domain.position import Position
from gm.commands import absence, account, ending, master, player, press, topics, web
from gm.commands import gamefiles, history, observing, summary, takeover
from gm.commands.base import BodyRule, Command, CommandError, Invocation, MailContext
from gm.commands.reader import ORDERS, PRESS_BODY, UNKNOWN
from gm.commands.secrecy import MISSPELT_REACH, REACH, nearest
from gm.games.mailer import hang
from gm.reports.examples import examples_for
from gm.store.models import Game
from gm.variants.setup import setup_of

PLAYER_COMMANDS: tuple[type[Command], ...] = (
    player.List, player.Join, player.Signon, player.Status, player.Clear, press.SendPress, press.Broadcast,
    history.History, player.Map, player.Wait, player.NoWait, player.Draw, player.NoDraw, player.Concede,
    player.NoConcede, player.Resign, account.Set, absence.Cancel, account.Confirm, web.Web,
    takeover.StandBy, takeover.UnStandBy, summary.Summary, observing.Observe, observing.Unobserve,
    gamefiles.Create,
)
GM_COMMANDS: tuple[type[Command], ...] = (
    master.Process, master.Preview, master.Rollback, master.Pause, master.Resume, master.Eject,
    master.Replace, master.Rename, master.Become, master.Start, ending.Terminate, ending.Unstart,
    takeover.Approve, takeover.Refuse, gamefiles.Settings,
)


RULES_WORD = "RULES"  # HELP RULES: the rules of the game signed on to
DICE_WORD = "DICE"  # HELP DICE: how the judge rolls dice, and how to check a roll


class Help(Command):
    read_only = True
    name = "HELP"
    usage = "HELP [command | topic | variant]"
    summary = ("this list; how to write one command; a topic: ORDERS (the orders of your game, with "
               "examples from your units), an order by its word (HELP PAY), PROVINCES (the board's "
               "names), RULES (your game's rules), DICE, VARIANTS; or a variant's rules")

    def __init__(self, table: CommandTable):
        self.table = table

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        wanted = invocation.args.strip()
        if not wanted:  # the list; in a game whose variant has its rules written, they follow
            lines = self._commands(ctx)
            if ctx.game is not None and ctx.services.mailer.rules_template(ctx.game.variant):
                lines += ["", *_rules(ctx, ctx.services.variant_of(ctx.game), ctx.game)]
            return lines
        word, _, rest = wanted.upper().partition(" ")
        if word in topics.ORDERS:  # before the command ORDERS (STATUS): how to write them
            variant, position, power = _game_board(ctx, rest)
            return topics.orders_topic(variant, position, power)
        if word in topics.PROVINCES:
            return topics.provinces_of(ctx, wanted[len(word):].strip())
        if word in topics.VARIANTS and not rest:
            return topics.variants_topic(ctx.services.catalog)
        command = self.table.find(wanted.upper())
        if command is not None:
            return [command.usage or command.name, f"  {command.summary}"]
        if wanted.upper() == DICE_WORD:
            return ctx.services.mailer.render("commands/dice.txt.j2").rstrip("\n").split("\n")
        if wanted.upper() == RULES_WORD:
            if ctx.game is None:
                raise CommandError("sign on to a game first, or write HELP <variant>")
            return _rules(ctx, ctx.services.variant_of(ctx.game), ctx.game)
        variant = _variant_named(ctx, wanted)
        if variant is not None:
            return _rules(ctx, variant)
        game_variant, position, power = _signed_board(ctx)
        form = topics.form_topic(wanted, ctx.services.catalog, game_variant, position, power)
        if form is not None:
            return form
        raise CommandError(self.table.unknown(wanted.upper()).replace("the commands.", "the commands and topics."))

    def _commands(self, ctx: MailContext) -> list[str]:
        examples: list[str] = []
        if ctx.game is not None and ctx.game.position and ctx.seat is not None and not ctx.is_gm:
            variant = ctx.services.variant_of(ctx.game)
            examples = examples_for(variant, ctx.services.position_of(ctx.game), ctx.seat.power).listed()
        text = ctx.services.mailer.render("commands/help.txt.j2", player_commands=self.table.player_commands,
                                          gm_commands=self.table.gm_commands, examples=examples)
        return text.rstrip("\n").split("\n")


def _signed_board(ctx: MailContext) -> tuple[Variant | None, Position | None, str | None]:
    """The variant, board and power of the game signed on to (the power: None for a game master
    who has not BECOME one)."""
    if ctx.game is None:
        return None, None, None
    variant = ctx.services.variant_of(ctx.game)
    position = ctx.services.position_of(ctx.game) if ctx.game.position else None
    return variant, position, ctx.power


def _game_board(ctx: MailContext, named: str) -> tuple[Variant, Position | None, str | None]:
    """For a topic about one variant: the variant named after the topic (HELP ORDERS eagles), else
    the game signed on to's, else standard play's."""
    if named:
        variant = _variant_named(ctx, named)
        if variant is None:
            raise CommandError(f"there is no variant {named.lower()!r} (HELP VARIANTS lists them)")
        return variant, None, None
    found, position, power = _signed_board(ctx)
    if found is not None:
        return found, position, power
    return ctx.services.catalog.get("standard"), None, None


def _variant_named(ctx: MailContext, text: str) -> Variant | None:
    """A variant by its name as players write it ("Rise of Rome II" or rise-of-rome-ii)."""
    return topics.variant_named(ctx.services.catalog, text)


def _rules(ctx: MailContext, variant: Variant, game: Game | None = None) -> list[str]:
    template = ctx.services.mailer.rules_template(variant.name)
    if template is None:
        return hang(f"No rules text is written for {variant.name}: it is played by the standard rules, "
                    "read as the DATC v3.0 prefers, on its own map.", 0).split("\n")
    settings = ctx.services.settings_of(game) if game is not None else None
    text = ctx.services.mailer.render(template, variant=variant, setup=setup_of(variant), game=game, settings=settings)
    return text.rstrip("\n").split("\n")


class Unknown(Command):
    read_only = True
    name = "?"
    summary = "a misspelt command"

    def __init__(self, table: CommandTable):
        self.table = table

    def secrets(self, invocation: Invocation) -> list[str]:
        return self.table.line_secrets(invocation.text)  # SINGON France g <secret>: masked as SIGNON's

    def run(self, ctx: MailContext, invocation: Invocation) -> list[str]:
        raise CommandError(self.table.unknown(invocation.text.split()[0]))


class CommandTable:
    def __init__(self) -> None:
        self.player_commands: list[Command] = [Help(self), *(c() for c in PLAYER_COMMANDS)]
        self.gm_commands: list[Command] = [c() for c in GM_COMMANDS]
        self.orders = player.Orders(self.line_secrets)
        self.unknown_command = Unknown(self)
        self._misspelt: dict[str, bool] = {}
        self._taken_for: dict[tuple[str, ...], tuple[Command, str, int] | None] = {}
        self.by_name: dict[str, Command] = {}
        for command in [*self.player_commands, *self.gm_commands]:
            for spelling in (command.name, *command.aliases):
                self.by_name[spelling.upper()] = command
        self.secret_forms = {form: command for command in [*self.player_commands, *self.gm_commands]
                             for form in command.secret_forms}

    @property
    def spellings(self) -> dict[str, str]:
        return {spelling: command.name for spelling, command in self.by_name.items()}

    @property
    def bodied(self) -> dict[str, BodyRule]:
        """The commands that take the lines after them, each with how it takes them."""
        return {c.name: c.body_rule or PRESS_BODY for c in self.by_name.values() if c.takes_body or c.body_rule}

    def find(self, name: str) -> Command | None:
        if name == ORDERS:
            return self.orders
        if name == UNKNOWN:
            return self.unknown_command
        return self.by_name.get(name.upper())

    def misspelt(self, word: str) -> bool:
        """A word that is no command but close to one, and could not start an order."""
        known = self._misspelt.get(word)
        if known is None:  # remembered: the same words start line after line of a long mail
            if len(self._misspelt) >= 10_000:
                self._misspelt.clear()
            known = self._misspelt[word] = len(word) >= 4 and word.isalpha() and word not in ("ARMY", "FLEET") and bool(
                difflib.get_close_matches(word, list(self.by_name), n=1, cutoff=MISSPELT_REACH))
        return known

    def closest(self, word: str) -> str | None:
        found = difflib.get_close_matches(word.upper(), list(self.by_name), n=1, cutoff=REACH)
        return self.by_name[found[0]].name if found else None

    def line_secrets(self, text: str) -> list[str]:
        """The secrets of a line that is no command as written but within the suggester's reach
        of one that carries a secret (``SINGON``, ``SIGN ON``, ``STE PASSWORD``, ``CONFRIM``):
        the words that command would take for secrets, masked as they are in it."""
        words = text.split()
        if not words:
            return []
        key = tuple(word.upper().rstrip(":") for word in words[:2])
        if key not in self._taken_for:  # remembered: the same words start line after line of a long mail
            if len(self._taken_for) >= 10_000:
                self._taken_for.clear()
            self._taken_for[key] = self._nearest_secret_form(key)
        found = self._taken_for[key]
        if found is None:
            return []
        command, form, used = found
        args = " ".join([*form.split()[1:], *words[used:]])
        return command.secrets(Invocation(command.name, args, 0, text))

    def _nearest_secret_form(self, key: tuple[str, ...]) -> tuple[Command, str, int] | None:
        """The command, its form and the words of the line it takes (one word, or two written
        apart or run together), nearest to the line's first words within ``REACH``."""
        written = [(key[0], 1)] + ([(" ".join(key), 2), ("".join(key), 2)] if len(key) > 1 else [])
        best: tuple[float, str, int] | None = None
        for text, used in written:
            found = nearest(text, self.secret_forms)
            if found is not None and (best is None or found[0] > best[0]):
                best = (found[0], found[1], used)
        return (self.secret_forms[best[1]], best[1], best[2]) if best is not None else None

    def unknown(self, word: str) -> str:
        near = self.closest(word)
        hint = f" Did you mean {near}?" if near else ""
        return f"unknown command {word!r}.{hint} HELP lists the commands."
