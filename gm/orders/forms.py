"""The forms of orders a game takes, as HELP ORDERS lists them and a reply shows them when a line
went wrong after its order word ("write it as F <sea> attacks F <sea> (<power>), e.g. ...").

A form is the order as written (``usage``), what it does, when it is given, the order words that
start or name it, and how to make an example of it from a power's own units on the board. The
standard forms are here; a variant adds its own by declaring the part ``ORDER_FORMS`` (as its
part ``ORDER_GRAMMAR`` adds their words), each with its example. The standard forms'
examples are made where the replies are written (gm.reports.examples).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from gm.adjudicator.parts import Part
from gm.adjudicator.variant import Variant
from gm.domain.phases import PhaseKind
from gm.domain.position import Position
from gm.orders import verbs

MOVEMENT = frozenset({PhaseKind.MOVEMENT})
RETREATS = frozenset({PhaseKind.RETREATS})
ADJUSTMENTS = frozenset({PhaseKind.ADJUSTMENTS})
ANY_PHASE = frozenset(PhaseKind)

Example = Callable[[Position, str], "str | None"]  # (board, power) -> an order that power could send


@dataclass(frozen=True)
class OrderForm:
    name: str  # what HELP calls it: "move", "pay", "attack at sea"
    usage: str  # "<unit> - <province>"
    summary: str  # what it does, one sentence
    words: tuple[str, ...] = ()  # the order words (normalised) that start it or follow its unit
    phases: frozenset[PhaseKind] = MOVEMENT
    example: Example | None = None  # None: the standard example of this form's name

    def when(self) -> str:
        if self.phases == ANY_PHASE:
            return "any phase"
        names = {PhaseKind.MOVEMENT: "movement", PhaseKind.RETREATS: "retreat", PhaseKind.ADJUSTMENTS: "build"}
        kinds = [names[k] for k in PhaseKind if k in self.phases]
        return " or ".join(kinds) + " phases"


STANDARD_FORMS: tuple[OrderForm, ...] = (
    OrderForm("hold", "<unit> H", "the unit stays where it is (a unit without an order holds too)",
              verbs.HOLD_WORDS),
    OrderForm("move", "<unit> - <province>", "the unit moves (attacks) into a neighbouring province, or by "
              "convoy across the sea (add \"via convoy\" to insist)", verbs.MOVE_WORDS),
    OrderForm("support", "<unit> S <unit> [- <province>]", "the unit adds its strength to another unit's "
              "hold, or to its move into a province the supporting unit could move to", verbs.SUPPORT_WORDS),
    OrderForm("convoy", "F <sea> C A <province> - <province>", "a fleet at sea carries an army along a chain "
              "of fleets", verbs.CONVOY_WORDS),
    OrderForm("retreat", "<unit> R <province>", "a dislodged unit retreats to an empty neighbouring province "
              "(or is destroyed with DISBAND)", verbs.RETREAT_WORDS, RETREATS),
    OrderForm("disband", "DISBAND <unit>", "in a retreat phase, a dislodged unit is given up; in a build "
              "phase (REMOVE), a unit is removed", verbs.DISBAND_WORDS, RETREATS | ADJUSTMENTS),
    OrderForm("build", "BUILD <type> <province>", "a new unit in a vacant supply centre where the power may "
              "build", verbs.BUILD_WORDS, ADJUSTMENTS),
    OrderForm("waive", "WAIVE", "one build not made (one WAIVE a build)", verbs.WAIVE_WORDS, ADJUSTMENTS),
)


# A variant's own forms of orders (a form of a standard one's name replaces it).
ORDER_FORMS: Final = Part[tuple[OrderForm, ...]]("order_forms")


def own_forms(variant: Variant) -> tuple[OrderForm, ...]:
    """The variant's own forms (its part ``ORDER_FORMS``)."""
    return variant.parts.get(ORDER_FORMS) or ()


def forms_of(variant: Variant) -> tuple[OrderForm, ...]:
    """The standard forms and the variant's own (a variant's form of the same name replaces the
    standard one)."""
    own = own_forms(variant)
    names = {f.name for f in own}
    return tuple(f for f in STANDARD_FORMS if f.name not in names) + own


def form_for(variant: Variant, word: str) -> OrderForm | None:
    """The form an order word belongs to (the variant's own first), or None."""
    key = word.lower()
    for form in (*own_forms(variant), *forms_of(variant)):
        if key in form.words or key == form.name:
            return form
    return None
