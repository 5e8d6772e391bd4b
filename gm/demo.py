"""A game played by mail on the embedded defaults (SQLite, local Maildir folders), on a fast clock.

Any variant of the catalog: one player per power (named after it) writes orders as mails
(the plausible player's, with a mistake corrected in a second mail, and some press), which are
dropped into the judge's inbox folder; the judge answers into its outbox folder; the clock
moves on with the game: a phase whose orders are all in is processed five minutes later (its
results mail says so: processed early, every order in); one still waiting for an order (a line
refused) is processed by the game master's PROCESS, its results mail saying that too. Every
phase has the same length, so no deadline a mail names comes before one named before it. Everything goes through gm's real mail
path: the Maildir inbox, the intake, the scheduler, the outbox dispatcher. What each player
receives is printed.

The demo's clock starts two hours before the moment it is run (to the minute), so that the game
it leaves behind goes on in real time: its home holds a configuration (``gm.yaml``) and each
player's sign-on (``players.txt``), and it ends by printing how to play on (``gm demo mail``,
``gm --config HOME/gm.yaml receive --wait``, ``gm --config HOME/gm.yaml web``).

In a variant whose players found their powers (its map lists none), the players mail JOIN
with a choice the variant offers; the second asks first for the first one's choice and is
told to choose again; the game starts when the founders are in, and one more player joins
once it is under way.
"""

from __future__ import annotations

import asyncio
import mailbox
import random
import re
import shlex
import sys
import textwrap
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import TextIO

from gm.adjudicator.variant import Variant
from gm.app import App
from gm.bots.plausible import PlausiblePlayer
from gm.clock import ManualClock
from gm.config import AppConfig, MailboxConfig, default_config
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.games.lifecycle import find_game
from gm.orders import OrderGrammar, parse_line
from gm.reports.names import Namer
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

DOMAIN = "example.test"
SETTINGS = """\
variant: {variant}
gm: master@{domain}
timezone: Europe/Paris
deadlines: {{movement: 48h, retreats: 48h, adjustments: 48h}}  # one length: no deadline before the one before it
reminders: [24h]
early: {{delay: 5m}}
press: grey
{players}
"""
FOUNDERS = ("Latins", "Punics", "Hellenes", "Scythians")  # the players who found the game
LATECOMER = "Iberians"  # joins once the game is under way
LEAD = timedelta(hours=2)  # the demo's clock starts this long before it is run: its game ends in the past
CONFIG = """\
# gm's configuration for the game gm demo played (deploy/gm.example.yaml explains each key):
# SQLite and local Maildir folders; the players are {domain} addresses that only exist here.
home: {home}
database: {database}
games_dir: {games}
judge_address: {judge}
admin_address: {admin}
inbound: {{kind: maildir, path: {inbox}}}
outbound: {{kind: maildir, path: {outbox}}}
"""


class DemoUnsupported(ValueError):
    """The demo cannot play this variant yet."""


def players_of(variant: Variant) -> dict[str, str]:
    """Each power of the map, played by someone named after it ("greekstates" for Greek States);
    none where the players found their powers by joining with a choice the variant offers."""
    if setup_of(variant).open_membership and not setup_of(variant).joining_choices(variant.initial_position()):
        raise DemoUnsupported(f"{variant.name}: its map lists no powers and it offers no choice to join with")
    return {power: player_name(power) for power in variant.map.powers}


def player_name(power: str) -> str:
    return "".join(ch for ch in power.lower() if ch.isalnum())


class Demo:
    def __init__(self, home: Path, out: TextIO, seed: int = 1901, variant: str = "standard",
                 start: datetime | None = None):
        """``start``: the demo clock's first moment (default: two hours before now, to the minute)."""
        self.out = out
        self.variant = VariantCatalog().get(variant)
        self.players = players_of(self.variant)
        base = default_config(home)
        self.config = AppConfig(**{
            **base.__dict__,
            "judge_address": f"judge@{DOMAIN}",
            "admin_address": f"postmaster@{DOMAIN}",
            "inbound": MailboxConfig(kind="maildir", path=home / "mail" / "inbox"),
            "outbound": MailboxConfig(kind="maildir", path=home / "mail" / "outbox"),
        })
        self.config.games_dir.mkdir(parents=True, exist_ok=True)
        (home / "mail").mkdir(parents=True, exist_ok=True)
        if start is None:
            start = datetime.now(UTC).replace(second=0, microsecond=0) - LEAD
        self.clock = ManualClock(start)
        self.app = App(self.config, clock=self.clock)
        self.daemon = self.app.daemon()
        self.inbox = mailbox.Maildir(str(self.config.inbound.path), create=True)
        self.outbox = mailbox.Maildir(str(self.config.outbound.path), create=True)
        self.rng = random.Random(seed)
        self.secrets: dict[str, str] = {}
        self.gm_secret = ""

    def address(self, power: str) -> str:
        return f"{self.players[power]}@{DOMAIN}"

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    # -- the mail path ---------------------------------------------------------------

    def mail(self, power: str, body: str, subject: str = "orders") -> None:
        self.mail_as(self.players[power], body, subject)

    def mail_as(self, name: str, body: str, subject: str) -> None:
        """A mail from ``name``@ the demo's domain (a player, or the game master "master")."""
        address = f"{name}@{DOMAIN}"
        message = EmailMessage()
        message["From"] = f"{name.capitalize()} <{address}>"
        message["To"] = self.config.judge_address
        message["Subject"] = subject
        message["Message-ID"] = make_msgid(domain=DOMAIN)
        message.set_content(body)
        self.inbox.add(message)
        self.say(f"--> {address} mails the judge ({subject}):")
        self.say(textwrap.indent(body.rstrip(), "      | ", lambda line: True))

    def round(self) -> None:
        asyncio.run(self.daemon.once())
        self.read_post()

    def read_post(self) -> None:
        """Print what arrived in the players' mailboxes (a mail sent to several people once)."""
        for key, to, subject, text in print_post(self.outbox, sorted_keys(self.outbox), self.pictures, self.out):
            self._learn_secret(to, subject, text)
            self.outbox.remove(key)

    @property
    def pictures(self) -> Path:
        """Where the pictures the players receive are kept (the mails themselves are read and gone)."""
        return self.config.home / "pictures"

    def _learn_secret(self, to: str, subject: str, text: str) -> None:
        secret = re.search(r"^    ((?:[a-z]+-)+\d+)$", text, re.M)  # words and a number (gm.games.passwords)
        if secret and to == f"master@{DOMAIN}" and "created" in subject:
            self.gm_secret = secret.group(1)
            return
        power = next((p for p, name in self.players.items() if to.startswith(name + "@")), None)
        if secret and power and ("joined" in subject or "joining" in subject):
            self.secrets[power] = secret.group(1)

    # -- the story -----------------------------------------------------------------

    def run(self, years: int = 1) -> None:
        if setup_of(self.variant).open_membership:
            players = f"seats: {len(FOUNDERS)}  # the players join by mail"
        else:
            players = "players:\n" + "\n".join(f"  - {{email: {self.address(p)}, power: {p}}}" for p in self.players)
        settings = SETTINGS.format(variant=self.variant.name, domain=DOMAIN, players=players)
        (self.config.games_dir / "demo.yaml").write_text(settings)
        self.say(f"gm demo: {self.variant.map.title}; home {self.config.home}; database {self.config.database_url}")
        self.say(f"inbox {self.config.inbound.path}, outbox {self.config.outbound.path}")
        self.say("The game master writes games/demo.yaml; the judge reads it and starts the game.")
        self.round()
        if setup_of(self.variant).open_membership:
            self.found()
        first = True
        for _ in range(years * sum(len(season.kinds) for season in self.variant.calendar.seasons)):
            with self.app.db.sessions() as session:
                game = find_game(session, "demo")
                if game is None or game.status != "active":
                    break
                position = self.app.services.position_of(game)
                seq = game.phase_seq
            self.say()
            self.say(f"==== {self.variant.title(position.phase)}: the players write their orders ====")
            if setup_of(self.variant).open_membership and LATECOMER not in self.players and position.phase.kind is PhaseKind.MOVEMENT:
                self.join(LATECOMER, setup_of(self.variant).joining_choices(position)[-1])
                self.round()
            by_power = self.orders(position)
            writer = next(iter(by_power), None)  # the first to write makes a mistake, then corrects it
            for power, lines in by_power.items():
                body = f"SIGNON {power} demo {self.secrets.get(power, '?')}\n" + "\n".join(lines) + "\n"
                if first and power == writer:
                    body = misspelt(body, self.variant, position, power) + self.press(power)
                self.mail(power, body)
            self.round()
            if first and writer is not None:
                self.mail(writer, f"SIGNON {writer} demo {self.secrets.get(writer, '?')}\n"
                          + "\n".join(by_power[writer]) + "\nSTATUS\n", subject="corrected orders")
                self.round()
                first = False
            self.clock.advance(timedelta(minutes=6))  # everyone is in: early processing after 5 minutes
            self.round()
            self.deadline_passes(seq)
        self.say()
        self.say(f"Demo over. The pictures the players received are in {self.pictures}.")
        self.app.close()
        self.leave_behind()
        self.say("The whole game is in the database; the judge's files are in " + str(self.config.home))

    def leave_behind(self) -> None:
        """The configuration and sign-ons to play on with, and how."""
        home = self.config.home
        (home / "gm.yaml").write_text(CONFIG.format(
            domain=DOMAIN, home=home, database=self.config.database_url, games=self.config.games_dir,
            judge=self.config.judge_address, admin=self.config.admin_address, inbox=self.config.inbound.path,
            outbox=self.config.outbound.path), encoding="utf-8")
        signons = [f"{self.address(p)}  SIGNON {p} demo {self.secrets[p]}" for p in self.players if p in self.secrets]
        if self.gm_secret:
            signons.append(f"master@{DOMAIN}  SIGNON GM demo {self.gm_secret}")
        (home / PLAYERS).write_text("\n".join(signons) + "\n", encoding="utf-8")
        someone = next(iter(self.secrets), None)
        gm = f"{gm_command()} --config {shlex.quote(str(home / 'gm.yaml'))}"
        self.say()
        self.say(f"Play on from here (the game goes on in real time; {home / 'gm.yaml'} is its configuration):")
        if someone is not None:
            self.say(f"  {gm_command()} demo mail {self.players[someone]} --home {shlex.quote(str(home))}")
            self.say(f"      a mail from {self.address(someone)} to the judge: its sign-on is written for you, "
                     "add orders or")
            self.say("      commands (from a file: ... < orders.txt); every player's and the game master's sign-on "
                     f"is in {home / PLAYERS}")
        self.say(f"  {gm} receive --wait < mail.eml")
        self.say("      any whole mail (From:, To: judge@example.test, the body), as a mail server would hand it over;")
        self.say("      --wait: answered before it returns (a mail server's pipe leaves that to a process of its own)")
        self.say(f"  {gm} web")
        self.say("      the game's web pages on http://127.0.0.1:8080/games/demo (WEB demo, mailed, gives a sign-in link)")
        self.say(f"  {gm} run")
        self.say(f"      the judge itself: reads {self.config.inbound.path}, processes each phase at its deadline")
        self.say(f"  The judge's answers are mails in {self.config.outbound.path} (Maildir: one file each in new/);")
        self.say("  those a demo mail brings are printed too.")

    def found(self) -> None:
        """The founders join one by one; the second first asks for the first one's choice."""
        asked: list[str] = []
        for empire in FOUNDERS:
            choices = [c for c in setup_of(self.variant).joining_choices(self.variant.initial_position()) if c not in asked]
            choice = self.rng.choice(choices[:12])
            if len(asked) == 1:
                self.join(empire, asked[0])
                self.round()
            self.join(empire, choice)
            asked.append(choice)
            self.round()

    def join(self, empire: str, choice: str) -> None:
        self.players[empire] = player_name(empire)
        self.mail(empire, f"JOIN demo {choice} as {empire}\n", subject="joining")

    def deadline_passes(self, seq: int) -> None:
        """When a unit is still without orders (one refused), the phase would wait for its deadline,
        two days on: the game master processes it now instead (PROCESS), as a game master whose
        players are all in but one would. The clock never runs ahead of the deadlines the mails
        named, nor the game ahead of the real time it goes on in."""
        with self.app.db.sessions() as session:
            game = find_game(session, "demo")
            phase = game.phase if game is not None and game.phase_seq == seq and game.status == "active" else None
        if phase is not None:
            self.say("(a unit is still without orders: rather than wait for the deadline, the game master "
                     "processes the phase)")
            self.mail_as("master", f"SIGNON GM demo {self.gm_secret}\nPROCESS {phase}\n", "process")
            self.round()
            self.clock.advance(timedelta(minutes=1))  # processed by the scheduler's next round
            self.round()

    def orders(self, position: Position) -> dict[str, list[str]]:
        """Each power's orders for the phase as its player writes them, in the map's order: in
        words where the judge reads the words back, else in the orders' own short form."""
        namer, grammar = Namer(self.variant), OrderGrammar.for_variant(self.variant)
        by_power: dict[str, list[str]] = {p: [] for p in self.players}
        for power, order in PlausiblePlayer(self.variant, self.rng).orders(position, powers=list(self.players)):
            words = namer.order(order).replace(" HOLD", " holds")
            read = parse_line(words, grammar, context=position).order
            by_power[power].append(words if read == order else str(order))
        return {power: lines for power, lines in by_power.items() if lines}

    def press(self, power: str) -> str:
        """A word to the next power of the map."""
        powers = list(self.players)
        other = powers[(powers.index(power) + 1) % len(powers)]
        return f"PRESS TO {other}\nShall we keep the peace between us this year?\nENDPRESS\n"


PLAYERS = "players.txt"  # each player's address and sign-on line, written by the demo


def gm_command() -> str:
    """gm as the next steps print it: the checkout's `.venv/bin/gm` when run from the checkout,
    else the program that runs (its path, as typed), else `gm`."""
    if Path(".venv/bin/gm").exists():
        return ".venv/bin/gm"
    running = sys.argv[0] if sys.argv else ""
    return running if Path(running).name == "gm" else "gm"


def sorted_keys(box: mailbox.Maildir) -> list[str]:
    """The Maildir's keys in the order the mails were delivered: a key starts with the time of
    delivery, its microseconds and a counter ("1767614400.M5123P99Q12.host"), compared as numbers."""
    def order(key: str) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", key)[:4])
    return sorted(box.keys(), key=order)


def print_post(box: mailbox.Maildir, keys: list[str], pictures: Path, out: TextIO) -> list[tuple[str, str, str, str]]:
    """Print the mails of ``keys`` as their readers receive them (a mail sent to several people
    once), their pictures kept in ``pictures``; each mail as (key, to, subject, text)."""
    read = []
    received: dict[tuple[str, str], list[str]] = {}
    for key in keys:
        message = box[key]
        text, to, subject = _text_of(message), str(message["To"]), str(message["Subject"])
        read.append((key, to, subject, text))
        attached = [keep(part, pictures) for part in message.walk() if part.get_filename()]
        if attached:
            subject += f"  [attached: {', '.join(attached)}, kept in {pictures}]"
        received.setdefault((subject, text), []).append(to)
    for (subject, text), readers in received.items():
        names = ", ".join(sorted(r.split("@")[0] for r in readers))  # delivered in any order
        who = readers[0] if len(readers) == 1 else f"{len(readers)} readers ({names})"
        print(f"<-- {who} receive: {subject}", file=out)
        print(textwrap.indent(text.rstrip(), "      | ", lambda line: True), file=out)
    return read


def keep(part: mailbox.Message, pictures: Path) -> str:
    """An attachment saved in ``pictures`` under its own name (the same picture mailed to
    several readers is one file); its name."""
    name = Path(str(part.get_filename())).name
    payload = part.get_payload(decode=True)
    if isinstance(payload, bytes):
        pictures.mkdir(parents=True, exist_ok=True)
        (pictures / name).write_bytes(payload)
    return name


def misspelt(body: str, variant: Variant, position: Position, power: str) -> str:
    """The mail with the place of one of its units misspelt where an order names it first (the
    judge suggests the right one); the sign-on line is left alone."""
    namer = Namer(variant)
    lines = body.split("\n")
    for number, line in enumerate(lines[1:], start=1):
        for unit in position.units_of(power):
            written = namer.unit(unit)
            if line.startswith(written + " "):
                place = namer.place(unit.location.whole)
                lines[number] = written.replace(place, place + place[-1]) + line[len(written):]
                return "\n".join(lines)
    return body


def _text_of(message: mailbox.Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                return payload.decode(part.get_content_charset() or "utf-8", errors="replace")
    return ""
