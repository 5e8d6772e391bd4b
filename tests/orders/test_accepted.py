"""Spellings the parser accepts, each with the exact order it must give."""

from __future__ import annotations

import pytest

from gm.domain.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from gm.orders import Severity, parse_line

from .helpers import L, U

PAR_BUR = Move(U("A PAR"), L("BUR"))
LON_BEL_VIA = Move(U("A LON"), L("BEL"), via_convoy=True)
MAO_SPA_NC = Move(U("F MAO"), L("SPA/NC"))
BAR_STP_NC = Move(U("F BAR"), L("STP/NC"))
STP_SC_BOT = Move(U("F STP/SC"), L("BOT"))
MUN_S_BER = SupportHold(U("A MUN"), U("A BER"))
MUN_S_BER_SIL = SupportMove(U("A MUN"), U("A BER"), L("SIL"))
NTH_C_LON_BEL = Convoy(U("F NTH"), U("A LON"), L("BEL"))
SER_R_ALB = Retreat(U("A SER"), L("ALB"))
BUILD_A_PAR = Build(U("A PAR"))
BUILD_F_STP_NC = Build(U("F STP/NC"))
DISBAND_F_TRI = Disband(U("F TRI"))
REMOVE_A_MUN = Disband(U("A MUN"))

# (line, order, fragment of the one expected warning or None for no diagnostics at all)
ACCEPTED = [
    # holds
    ("A PAR H", Hold(U("A PAR")), None),
    ("a par hold", Hold(U("A PAR")), None),
    ("Army Paris holds", Hold(U("A PAR")), None),
    ("F Brest stands", Hold(U("F BRE")), None),
    ("A Paris stand.", Hold(U("A PAR")), None),
    ("PAR H", Hold(U("PAR")), None),
    ("F London HOLD", Hold(U("F LON")), None),
    ("fleet st petersburg (south coast) holds", Hold(U("F STP/SC")), None),
    # moves: separators
    ("A PAR - BUR", PAR_BUR, None),
    ("A PAR-BUR", PAR_BUR, None),
    ("A PAR -> BUR", PAR_BUR, None),
    ("A PAR => BUR", PAR_BUR, None),
    ("A PAR > BUR", PAR_BUR, None),
    ("A PAR to BUR", PAR_BUR, None),
    ("A PAR move to BUR", PAR_BUR, None),
    ("A PAR moves to BUR", PAR_BUR, None),
    ("A PAR moves BUR", PAR_BUR, None),
    ("A PAR M BUR", PAR_BUR, None),
    ("A PAR BUR", PAR_BUR, None),
    ("Army Paris - Burgundy", PAR_BUR, None),
    ("army paris -> burgundy", PAR_BUR, None),
    ("Army Paris to Burgundy", PAR_BUR, None),
    ("PAR - BUR", Move(U("PAR"), L("BUR")), None),
    ("Paris Burgundy", Move(U("PAR"), L("BUR")), None),
    # moves: noise
    ("A Par \u2013 Bur", PAR_BUR, None),
    ("A Par \u2014 Bur", PAR_BUR, None),
    ("A Par \u2192 Bur", PAR_BUR, None),
    ("A PAR - BUR.", PAR_BUR, None),
    ("  A   PAR\t-\tBUR ;", PAR_BUR, None),
    ("1. A PAR - BUR", PAR_BUR, None),
    ("2) A PAR - BUR", PAR_BUR, None),
    ("3 A PAR - BUR", PAR_BUR, None),
    ("- A PAR - BUR", PAR_BUR, None),
    ("* A PAR - BUR", PAR_BUR, None),
    ("\u2022 A PAR - BUR", PAR_BUR, None),
    ("A PAR - BUR,", PAR_BUR, None),
    ("A PAR - BUR!", PAR_BUR, None),
    # moves: multi-word names and aliases
    ("F North Atlantic Ocean - Mid-Atlantic Ocean", Move(U("F NAO"), L("MAO")), None),
    ("F NAO - MAO", Move(U("F NAO"), L("MAO")), None),
    ("F nat - mid", Move(U("F NAO"), L("MAO")), None),
    ("F Mid-Atlantic - Western Mediterranean", Move(U("F MAO"), L("WES")), None),
    ("F Mid Atlantic - Spain", Move(U("F MAO"), L("SPA")), None),
    ("F Gulf of Lyon - Tyrrhenian Sea", Move(U("F LYO"), L("TYS")), None),
    ("F gol - tys", Move(U("F LYO"), L("TYS")), None),
    ("F Gulf of Lyons - WES", Move(U("F LYO"), L("WES")), None),
    ("F Eastern Mediterranean - Aegean Sea", Move(U("F EAS"), L("AEG")), None),
    ("F NorthSea - Helgoland Bight", Move(U("F NTH"), L("HEL")), None),
    ("A Sevastapol - Armenia", Move(U("A SEV"), L("ARM")), None),
    ("A Tyrol - Vienna", Move(U("A TYR"), L("VIE")), None),
    ("F ENG - English Channel", Move(U("F ENG"), L("ENG")), None),
    ("A SER - ALB", Move(U("A SER"), L("ALB")), None),  # in a retreat phase the engine reads a retreat
    # moves: coasts
    ("F MAO - Spain", Move(U("F MAO"), L("SPA")), None),  # no coast guessed (DATC 4.B.1/4.B.2)
    ("F MAO - SPA/NC", MAO_SPA_NC, None),
    ("F MAO - spa/nc", MAO_SPA_NC, None),
    ("F MAO - SPA(NC)", MAO_SPA_NC, None),
    ("F MAO - SPA (NC)", MAO_SPA_NC, None),
    ("F MAO - Spain (north coast)", MAO_SPA_NC, None),
    ("F MAO - Spain north coast", MAO_SPA_NC, None),
    ("F MAO - spa nc", MAO_SPA_NC, None),
    ("F MAO - spa/n", MAO_SPA_NC, None),
    ("F MAO - Spa (n.c.)", MAO_SPA_NC, None),
    ("F MAO - Spain NC", MAO_SPA_NC, None),
    ("F MAO - Spain north", MAO_SPA_NC, None),
    ("F MAO - spa-nc", MAO_SPA_NC, None),
    ("F MAO - spa/north coast", MAO_SPA_NC, None),
    ("F BAR - St Petersburg (north coast)", BAR_STP_NC, None),
    ("F BAR - St. Petersburg north coast", BAR_STP_NC, None),
    ("F BAR - Saint Petersburg/nc", BAR_STP_NC, None),
    ("F BAR - StP/NC", BAR_STP_NC, None),
    ("F BAR - stpete nc", BAR_STP_NC, None),
    ("F BAR - St.Petersburg(NC)", BAR_STP_NC, None),
    ("F StP/SC - BOT", STP_SC_BOT, None),
    ("F STP(SC) - BOT", STP_SC_BOT, None),
    ("F St Petersburg (south coast) - Gulf of Bothnia", STP_SC_BOT, None),
    ("F StP/sc-Bot", STP_SC_BOT, None),
    ("F CON - BUL/EC", Move(U("F CON"), L("BUL/EC")), None),
    ("F CON - Bulgaria east coast", Move(U("F CON"), L("BUL/EC")), None),
    ("F CON - BUL EAST", Move(U("F CON"), L("BUL/EC")), None),
    ("F BUL/SC - AEG", Move(U("F BUL/SC"), L("AEG")), None),
    ("F BUL (s.c.) - AEG", Move(U("F BUL/SC"), L("AEG")), None),
    ("F MAO - Spain west coast", Move(U("F MAO"), L("SPA")), "Spain has no west coast"),
    ("F GAS - Brest north coast", Move(U("F GAS"), L("BRE")), "Brest has no north coast"),
    ("F ENG - Brest/nc", Move(U("F ENG"), L("BRE")), "Brest has no north coast"),
    ("A STP/NC - MOS", Move(U("A STP"), L("MOS")), "takes no coast"),
    ("A MOS - STP/NC", Move(U("A MOS"), L("STP")), "takes no coast"),
    # moves: convoys and paths
    ("A LON - BEL VIA CONVOY", LON_BEL_VIA, None),
    ("A LON - BEL via convoy", LON_BEL_VIA, None),
    ("A LON - BEL by convoy", LON_BEL_VIA, None),
    ("A LON - BEL VIA", LON_BEL_VIA, None),
    ("A LON - BEL (via convoy)", LON_BEL_VIA, None),
    ("A LON BEL VIA", LON_BEL_VIA, None),
    ("A London to Belgium via convoy.", LON_BEL_VIA, None),
    ("A LON - NTH - BEL", Move(U("A LON"), L("BEL")), "path NTH ignored"),
    ("A LON-NTH-BEL", Move(U("A LON"), L("BEL")), "path NTH ignored"),
    ("A LON - ENG - MAO - POR VIA CONVOY", Move(U("A LON"), L("POR"), True), "path ENG - MAO ignored"),
    # supports
    ("A MUN S A BER", MUN_S_BER, None),
    ("A MUN S A BER H", MUN_S_BER, None),
    ("A MUN S A BER hold", MUN_S_BER, None),
    ("A MUN support A BER", MUN_S_BER, None),
    ("A MUN supports A BER holds", MUN_S_BER, None),
    ("A MUN S BER", SupportHold(U("A MUN"), U("BER")), None),
    ("Army Munich supports Army Berlin", MUN_S_BER, None),
    ("A MUN S German A BER", MUN_S_BER, None),
    ("A MUN S Germany's A BER", MUN_S_BER, None),
    ("A MUN S A BER - SIL", MUN_S_BER_SIL, None),
    ("A MUN S A BER-SIL", MUN_S_BER_SIL, None),
    ("A MUN S A BER to SIL", MUN_S_BER_SIL, None),
    ("A MUN S A BER SIL", MUN_S_BER_SIL, None),
    ("A MUN S A BER M SIL", MUN_S_BER_SIL, None),
    ("A MUN supports A BER moving to SIL", MUN_S_BER_SIL, None),
    ("A MUN S A BER - SIL VIA CONVOY", MUN_S_BER_SIL, None),
    ("A MUN S BER - SIL", SupportMove(U("A MUN"), U("BER"), L("SIL")), None),
    ("A MUN S England's F LON - NTH", SupportMove(U("A MUN"), U("F LON"), L("NTH")), None),
    ("F NTH S English F LON - ENG", SupportMove(U("F NTH"), U("F LON"), L("ENG")), None),
    ("F MAO S F GAS - SPA/NC", SupportMove(U("F MAO"), U("F GAS"), L("SPA/NC")), None),
    ("F MAO S F GAS - Spain (north coast)", SupportMove(U("F MAO"), U("F GAS"), L("SPA/NC")), None),
    ("F MAO S F GAS - SPA", SupportMove(U("F MAO"), U("F GAS"), L("SPA")), None),
    # convoys
    ("F NTH C A LON - BEL", NTH_C_LON_BEL, None),
    ("F NTH convoy A LON - BEL", NTH_C_LON_BEL, None),
    ("F NTH convoys A LON to BEL", NTH_C_LON_BEL, None),
    ("F NTH C A LON BEL", NTH_C_LON_BEL, None),
    ("F North Sea C Army London - Belgium", NTH_C_LON_BEL, None),
    ("F NTH C English A LON - BEL", NTH_C_LON_BEL, None),
    ("F NTH convoys London to Belgium", Convoy(U("F NTH"), U("LON"), L("BEL")), None),
    # retreats
    ("A SER R ALB", SER_R_ALB, None),
    ("a ser r alb", SER_R_ALB, None),
    ("A SER retreat ALB", SER_R_ALB, None),
    ("A SER retreats to ALB", SER_R_ALB, None),
    ("A SER R - ALB", SER_R_ALB, None),
    ("A Serbia retreat to Albania", SER_R_ALB, None),
    ("RETREAT A SER TO ALB", SER_R_ALB, None),
    ("A SER R DISBAND", Disband(U("A SER")), None),
    # builds
    ("BUILD A PAR", BUILD_A_PAR, None),
    ("build a par", BUILD_A_PAR, None),
    ("A PAR B", BUILD_A_PAR, None),
    ("A PAR BUILD", BUILD_A_PAR, None),
    ("A PAR builds", BUILD_A_PAR, None),
    ("Build Army Paris", BUILD_A_PAR, None),
    ("Build an army at Paris", BUILD_A_PAR, None),
    ("Build fleet St Petersburg (north coast)", BUILD_F_STP_NC, None),
    ("build F STP/NC", BUILD_F_STP_NC, None),
    ("F StP/nc B", BUILD_F_STP_NC, None),
    ("B F KIE", Build(U("F KIE")), None),
    ("build a fleet in Kiel", Build(U("F KIE")), None),
    ("build PAR", Build(U("PAR")), None),  # DATC 4.C.3: the type is left to the adjudicator
    ("BUILD STP/NC", Build(U("STP/NC")), None),
    # disbands and removals
    ("F TRI D", DISBAND_F_TRI, None),
    ("F TRI disband", DISBAND_F_TRI, None),
    ("F TRI disbands", DISBAND_F_TRI, None),
    ("DISBAND F TRI", DISBAND_F_TRI, None),
    ("disband fleet trieste", DISBAND_F_TRI, None),
    ("D F TRI", DISBAND_F_TRI, None),
    ("REMOVE A MUN", REMOVE_A_MUN, None),
    ("A MUN removes", REMOVE_A_MUN, None),
    ("remove munich", Disband(U("MUN")), None),
    # waives
    ("WAIVE", Waive(), None),
    ("waive", Waive(), None),
    ("Waive build", Waive(), None),
    ("waive 1", Waive(), None),
    ("build waive", Waive(), None),
    ("WAIVES.", Waive(), None),
]


def test_table_is_large():
    assert len(ACCEPTED) >= 80


@pytest.mark.parametrize(("line", "order", "warning"), ACCEPTED, ids=[row[0] for row in ACCEPTED])
def test_accepted(grammar, line, order, warning):
    parsed = parse_line(line, grammar, line_no=7)
    assert parsed.ok, parsed.diagnostics
    assert parsed.order == order
    assert parsed.line_no == 7
    assert parsed.text == line.strip()
    if warning is None:
        assert parsed.diagnostics == ()
    else:
        assert len(parsed.diagnostics) == 1
        assert parsed.diagnostics[0].severity is Severity.WARNING
        assert warning in parsed.diagnostics[0].message


@pytest.mark.parametrize(("line", "order", "warning"), ACCEPTED, ids=[row[0] for row in ACCEPTED])
def test_canonical_form_reads_back(grammar, line, order, warning):
    again = parse_line(str(order), grammar)
    assert again.order == order
    assert again.diagnostics == ()
