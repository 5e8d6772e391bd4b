"""The mail text's folding (gm.games.mailer.wrap and hang): a line that fits is given back
without asking textwrap, and the answer is always textwrap's, a no-break space (how names are
kept whole) never broken at and given back as a plain space."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.games.mailer import KEEP, hang, wrap

# spaces, tabs, other whitespace and non-breaking spaces, the characters that decide folding
TEXT = st.text(alphabet=st.sampled_from(list("ab -:()*,.'é") + ["\t", "\x0b", "\x0c", "\r", "\u00a0", "\u2003"]),
               max_size=90)


@settings(max_examples=3000, deadline=None)
@given(text=TEXT, width=st.sampled_from([10, 40, 72]), indent=st.sampled_from([0, 4, 11]))
def test_hang_is_textwrap(text: str, width: int, indent: int) -> None:
    assert hang(text, indent, width) == textwrap.fill(
        text, width=width, subsequent_indent=" " * indent, break_long_words=False, break_on_hyphens=False
    ).replace(KEEP, " ")


@settings(max_examples=3000, deadline=None)
@given(lines=st.lists(TEXT, max_size=4), width=st.sampled_from([10, 40, 72]), indent=st.sampled_from(["", "  "]))
def test_wrap_is_textwrap_per_line(lines: list[str], width: int, indent: str) -> None:
    expected = "\n".join(textwrap.fill(p, width=width, initial_indent=indent, subsequent_indent=indent,
                                       break_on_hyphens=KEEP not in p, break_long_words=KEEP not in p
                                       ).replace(KEEP, " ")
                         if p.strip() else "" for p in lines)
    assert wrap("\n".join(lines), width, indent) == expected


def test_a_short_order_line_is_kept_as_it_is() -> None:
    line = "Austria:   A Vienna -> Galicia  (*bounced*)"
    assert hang(line, 11) == line
    assert wrap(line, indent="  ") == "  " + line


def test_a_name_kept_whole_is_never_broken() -> None:
    name = KEEP.join(["St", "Petersburg", "(north", "coast)"])
    line = f"Russia:    Fleet {name} SUPPORT Army Moscow -> {KEEP.join(['Mid-Atlantic', 'Ocean'])}  (*cut*)"
    folded = hang(line, 11)
    assert folded == ("Russia:    Fleet St Petersburg (north coast) SUPPORT Army Moscow ->\n"
                      "           Mid-Atlantic Ocean  (*cut*)")
    assert KEEP not in folded and KEEP not in wrap(line, 40)
    assert wrap(f"Army {name}", 12) == "Army\nSt Petersburg (north coast)"  # longer than the line: alone on it
