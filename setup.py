"""Compiles the adjudicator's hot modules with mypyc (docs/design/performance.md).

They are ordinary Python and run unchanged without it: ``GM_PURE_PYTHON=1`` skips the
compilation, and without a C compiler gm installs as pure Python (the extensions are optional).
Everything else about the package is in pyproject.toml.
"""

import os

from setuptools import setup

COMPILED = [
    "gm/adjudicator/engine.py",
    "gm/adjudicator/legality.py",
    "gm/adjudicator/unit_finder.py",  # the unit each order names
    "gm/adjudicator/retreat_review.py",
    "gm/adjudicator/movement.py",  # a movement phase, cut along its seams into the seven below
    "gm/adjudicator/nodes.py",
    "gm/adjudicator/graph.py",
    "gm/adjudicator/resolver.py",
    "gm/adjudicator/strengths.py",
    "gm/adjudicator/conditions.py",
    "gm/adjudicator/claims.py",
    "gm/adjudicator/results.py",
    "gm/adjudicator/rulings.py",
    "gm/adjudicator/effects.py",
    "gm/adjudicator/steps.py",
    "gm/adjudicator/retreats.py",
    "gm/adjudicator/dice.py",
    "gm/adjudicator/phaselog.py",  # one per phase: what the phase rolled and announced
    "gm/adjudicator/convoys.py",
    "gm/adjudicator/adjustments.py",  # builds and removals (gm adjudicate: 0.111 to 0.097 ms an adjustment phase)
    "gm/adjudicator/variant.py",  # the standard rules every variant starts from
    "gm/adjudicator/supply.py",  # what the builds and the look for a winner count, once a position
    "gm/domain/outcomes.py",  # the results the adjudicator makes, one per order
    "gm/domain/phases.py",  # phases and the calendar: every phase makes the next
    "gm/domain/position.py",  # positions: every phase makes several
    "gm/interchange_board.py",  # gm adjudicate --jsonl: every unit and centre read and written
    "gm/interchange.py",  # gm adjudicate --jsonl: each line's JSON, variant and orders
    "gm/orders/fastlane.py",  # plain order lines read straight from the name tables
]


def compiled_extensions() -> list:
    if os.environ.get("GM_PURE_PYTHON") == "1":
        return []
    from mypyc.build import mypycify

    extensions = mypycify(COMPILED, opt_level="3", group_name="gm.adjudicator.native")
    for extension in extensions:
        extension.optional = True  # a failed compilation leaves the pure-Python modules in use
    return extensions


setup(ext_modules=compiled_extensions())
