"""What HELP tells besides the commands: how to write orders in a game (HELP ORDERS, and one
order by its word: HELP PAY), the board's names (HELP PROVINCES, LIST PROVINCES) and the
variants this judge plays (HELP VARIANTS). Each answers as lines of at most 72 characters."""

from __future__ import annotations

from gm.adjudicator.variant import Variant
from gm.commands.base import CommandError, MailContext
from gm.domain.geography import Terrain
from gm.domain.position import Position
from gm.games.privacy import game_seen_by
from gm.games.mailer import hang, wrap
from gm.maps.model import normalise_name
from gm.orders.forms import OrderForm, form_for, forms_of, own_forms
from gm.reports.examples import example_of
from gm.variants.catalog import VariantCatalog
from gm.variants.setup import setup_of

ORDERS = ("ORDERS", "ORDER")
PROVINCES = ("PROVINCES", "PROVINCE", "NAMES", "MAP NAMES")
VARIANTS = ("VARIANTS", "VARIANT")

# What each variant brings, as the README's table says it.
OWN = {
    "standard": "the DATC v3.0 preferences throughout",
    "classical": "Roman-era board, land bridges, years B.C.",
    "rise-of-rome-ii": "leaders by name, sacking and double units, barbarians, land bridges closed by fleets",
    "roman-diplomacy-i": "empires founded by mail, garrisons, fleets of several steps, federations, "
                         "spreading barbarians",
    "roman-diplomacy-ii": "the same rules on a board of the eastern Mediterranean (Diadochi)",
    "eagles": "generals and allied centres drawn with provable dice, several fleets to a sea and attacks at "
              "sea, storms, barbarian lands",
    "diplomacy-of-the-empire": "talents, tribute and inflation, infantry, cavalry, catapults and fleets, "
                               "cities, forts and roads, second moves, PAY",
}


def variants_topic(catalog: VariantCatalog) -> list[str]:
    lines = [wrap("The variants this judge plays (HELP <variant> gives one's rules as this judge reads them):"), ""]
    for name in catalog.names():
        variant = catalog.get(name)
        fewest, most = setup_of(variant).player_counts()
        players = f"{most}" if fewest == most else (f"{fewest}-{most}" if most < 99 else "any number of")
        lines.append(hang(f"  {name}: {variant.map.title}, {players} players" + (f"; {OWN[name]}" if name in OWN else ""),
                          6))
    return lines


def orders_topic(variant: Variant, position: Position | None, power: str | None) -> list[str]:
    """Every form of order the variant takes, when, and an example from ``power``'s own units
    (where a power and its board are known)."""
    lines = [wrap(f"Orders in {variant.map.title}, one a line, in any usual spelling (unit types A, F and the "
                  "variant's own letters; provinces by abbreviation, name or alias: HELP PROVINCES lists them):"), ""]
    for form in forms_of(variant):
        lines += form_lines(form, variant, position, power)
    return lines


def form_lines(form: OrderForm, variant: Variant, position: Position | None, power: str | None) -> list[str]:
    example = example_of(form, variant, position, power) if position is not None else None
    lines = [hang(f"  {form.usage}", 6), hang(f"      {form.summary[:1].upper()}{form.summary[1:]}; in {form.when()}.", 6)]
    if example:
        lines.append(hang(f"      e.g. {example}", 11))
    return lines


def form_topic(word: str, catalog: VariantCatalog, variant: Variant | None, position: Position | None,
               power: str | None) -> list[str] | None:
    """One order by its word or name (HELP PAY, HELP SACK): the game's variant's, or, outside a
    game, every variant's own order of that word. None: no order has it."""
    key = normalise_name(word)
    if variant is not None:
        form = form_for(variant, key)
        return None if form is None else [f"In {variant.map.title}:", *form_lines(form, variant, position, power)]
    lines: list[str] = []
    for name in catalog.names():
        other = catalog.get(name)
        for form in own_forms(other):
            if key in form.words or key == normalise_name(form.name):
                lines += [f"In {other.map.title} ({name}):", *form_lines(form, other, None, None)]
    if not lines:
        standard = form_for(catalog.get("standard"), key)
        return None if standard is None else form_lines(standard, catalog.get("standard"), None, None)
    return lines


def provinces_topic(variant: Variant) -> list[str]:
    """The board's provinces by name: abbreviation, kind, supply centre, other names."""
    game_map = variant.map
    lines = [wrap(f"The provinces of {game_map.title}: abbreviation, name (* a supply centre), sea or coasts, "
                  "and the other names orders may use:"), ""]
    for pid, province in sorted(game_map.provinces.items(), key=lambda item: item[1].name.casefold()):
        kind = ", sea" if province.terrain is Terrain.SEA else ""
        centre = " *" if pid in game_map.supply_centres else ""
        coasts = ", ".join(game_map.coast_names.get(c, c) for c in province.coasts)
        text = f"  {pid:<4} {province.name}{centre}{kind}" + (f" ({coasts})" if coasts else "")
        if province.aliases:
            text += "; also " + ", ".join(province.aliases)
        lines.append(hang(text, 7))
    return lines


def variant_named(catalog: VariantCatalog, text: str) -> Variant | None:
    """A variant by its name as players write it ("Rise of Rome II" or rise-of-rome-ii)."""
    key = "-".join(text.lower().split())
    return catalog.get(key) if key in catalog.names() else None


def provinces_of(ctx: MailContext, named: str) -> list[str]:
    """HELP PROVINCES / LIST PROVINCES [variant | game]: the board of the variant or game named
    (a private game only for those inside it: to anyone else it names nothing), else of the game
    signed on to."""
    if named:
        variant = variant_named(ctx.services.catalog, named)
        if variant is None:
            word = named.split()[0]
            game = (game_seen_by(ctx.services, ctx.session, word, ctx.sender)
                    or game_seen_by(ctx.services, ctx.session, word.lower(), ctx.sender))
            if game is None:
                raise CommandError(f"there is no variant or game {named!r} (HELP VARIANTS and LIST show them)")
            variant = ctx.services.variant_of(game)
        return provinces_topic(variant)
    if ctx.game is None:
        raise CommandError("name a variant or a game (e.g. LIST PROVINCES classical), or sign on first")
    return provinces_topic(ctx.services.variant_of(ctx.game))
