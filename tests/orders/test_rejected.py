"""Lines the parser rejects: an error naming what is wrong, with a suggestion where one helps."""

from __future__ import annotations

import pytest

from gm.orders import Severity, parse_line

# (line, fragments the error message must contain, suggestion or None)
REJECTED = [
    ("A PAR - Burgundi", ['unknown province "Burgundi"'], "Burgundy"),
    ("A PAR - Bergundy", ['unknown province "Bergundy"'], "Burgundy"),
    ("A Pari - BUR", ['unknown province "Pari"'], "Paris"),
    ("F LON - North Sae", ['unknown province "North Sae"'], "North Sea"),
    ("F StP/nc - Norwegian See", ['unknown province "Norwegian See"'], "Norwegian Sea"),
    ("F NAO - North Atlantik Ocean", ['unknown province "North Atlantik Ocean"'], "North Atlantic Ocean"),
    ("A MUN S A BER - Silesiaa", ['unknown province "Silesiaa"'], "Silesia"),
    ("F NTH C A Londn - BEL", ['unknown province "Londn"'], "London"),
    ("A PAR SUPORT A MAR", ['unknown order "SUPORT"', 'after "A PAR"'], "support"),
    ("A PAR HOLDD", ['unknown order "HOLDD"'], "hold"),
    ("F NTH CONVOI A LON - BEL", ['unknown order "CONVOI"'], "convoy"),
    ("BIULD A PAR", ['unknown order "BIULD"', "start of the line"], "build"),
    ("A PAR XYZ", ['expected an order after "A PAR", found "XYZ"'], None),
    ("hello world", ['expected a unit or an order at the start of the line, found "hello"'], None),
    ("A PAR", ["no order for A PAR", "A PAR H"], None),
    ("Burgundy", ["no order for BUR"], None),
    ("A PAR -", ["missing destination"], None),
    ("A PAR - BUR -", ["missing destination"], None),
    ("A PAR -> ->", ['expected a destination, found "->"'], None),
    ("A MUN S", ["missing supported unit"], None),
    ("A MUN S German", ["missing supported unit"], None),
    ("F NTH C A LON", ["convoy of A LON needs a destination"], None),
    ("F NTH C", ["missing convoyed army"], None),
    ("A SER R", ["retreat of A SER needs a destination"], None),
    ("BUILD", ["missing unit to build"], None),
    ("BUILD A", ["missing province"], None),
    ("DISBAND", ["missing unit to disband"], None),
    ("A", ["missing province"], None),
    ("F STP/XC - BOT", ['unknown coast "XC"'], None),
    ("F STP/ - BOT", ['missing coast after "/"'], None),
    ("A PAR - BUR H", ['unexpected "H" at the end of the order'], None),
    ("A PAR - BUR please", ['unexpected "please"'], None),
    ("A PAR - BUR; A MAR - SPA", ['unexpected "A MAR - SPA"'], None),  # one order per line
    ("A LON - BEL VIA CONVOY CONVOY", ['unexpected "CONVOY"'], None),
    ("waive all", ['unexpected "all"'], None),
    ("-", ["no order on this line"], None),
    ("1.", ["no order on this line"], None),
    ("> A PAR - BUR", ['unexpected ">" at the start of the line'], None),  # a quoted mail line
    ("S", ['found "S"'], None),
]


@pytest.mark.parametrize(("line", "fragments", "suggestion"), REJECTED, ids=[row[0] for row in REJECTED])
def test_rejected(grammar, line, fragments, suggestion):
    parsed = parse_line(line, grammar, line_no=3)
    assert parsed.order is None
    assert not parsed.ok
    assert parsed.line_no == 3
    assert parsed.text == line.strip()
    assert len(parsed.diagnostics) == 1
    error = parsed.diagnostics[0]
    assert error.severity is Severity.ERROR
    for fragment in fragments:
        assert fragment in error.message
    assert error.suggestion == suggestion
    if suggestion:
        assert str(error) == f"{error.message} — did you mean {suggestion}?"
    else:
        assert str(error) == error.message


def test_message_format_of_the_brief(grammar):
    error = parse_line("A PAR - Burgundi", grammar).diagnostics[0]
    assert str(error) == 'unknown province "Burgundi" — did you mean Burgundy?'
