"""What the interchange carries beyond standard play (docs/adjudicate-interchange.md):
stacked units, units of no player, the variant's state, the dice seed and its rolls, result
notes, second moves, units a rule destroyed; and the retreat phase nobody can play, skipped."""

from __future__ import annotations

import pytest

from gm.adjudicator.dice import derive
from gm.adjudicator.variant import Variant
from gm.interchange import InterchangeError, adjudicate_json
from gm.variants.catalog import VariantCatalog

from .deltas import Garrisons, LeadersAndBridges, Roads, Seas
from .test_hooks import Following

DELTAS: dict[str, Variant] = {v.name: v for v in (Garrisons(), LeadersAndBridges(), Roads(), Seas())}
DELTAS["following"] = Following()
STANDARD = VariantCatalog()


class _Catalog:
    def get(self, name: str) -> Variant:
        return DELTAS[name] if name in DELTAS else STANDARD.get(name)


CATALOG = _Catalog()


def adjudicate(document: dict) -> dict:
    return adjudicate_json(document, CATALOG)  # type: ignore[arg-type]


def test_the_variant_state_goes_in_and_comes_out() -> None:
    extra = {"treasury": {"England": 35}, "roads": [["LON", "YOR"]], "note": None}
    result = adjudicate({"variant": "standard", "phase": "S1901M", "units": {"England": ["F LON"]}, "extra": extra})
    assert result["extra"] == extra
    assert "rolls" not in result and "second_moves" not in result and "destroyed" not in result


def test_extra_must_be_an_object_and_seed_a_string() -> None:
    with pytest.raises(InterchangeError, match="extra must be a JSON object"):
        adjudicate({"variant": "standard", "phase": "S1901M", "units": {}, "extra": [1]})
    with pytest.raises(InterchangeError, match="seed must be a string"):
        adjudicate({"variant": "standard", "phase": "S1901M", "units": {}, "seed": 7})


def test_a_retreat_phase_nobody_can_play_is_skipped() -> None:
    # The army in North Africa is dislodged from Tunis, its only land neighbour.
    result = adjudicate({
        "variant": "standard", "phase": "S1901M",
        "units": {"France": ["A NAF"], "Italy": ["A TUN", "F WES"]},
        "orders": {"Italy": ["A TUN - NAF", "F WES S A TUN - NAF"]},
    })
    assert result["dislodged"] == {"France": [{"unit": "A NAF", "attacker_from": "TUN", "retreats": []}]}
    assert result["next_phase"] == "F1901M"
    assert result["units"] == {"Italy": ["A NAF", "F WES"]}


def test_a_retreat_phase_with_a_choice_is_played() -> None:
    result = adjudicate({
        "variant": "standard", "phase": "S1901M",
        "units": {"France": ["A BUR"], "Germany": ["A MUN", "A RUH"]},
        "orders": {"Germany": ["A MUN - BUR", "A RUH S A MUN - BUR"]},
    })
    assert result["next_phase"] == "S1901R"


def test_stacked_units_and_units_of_no_player() -> None:
    result = adjudicate({
        "variant": "garrisons", "phase": "S100M",
        "units": {"Latium": ["G ROM", "A ROM"], "Neutral": ["G NAP"], "Gallia": ["A TUS", "A VEN", "A APU"]},
        "orders": {"Gallia": ["A TUS - ROM", "A VEN S A TUS - ROM", "A APU - NAP"]},
    })
    assert result["units"]["Latium"] == ["A ROM", "G ROM"]
    assert result["units"]["Neutral"] == ["G NAP"]
    assert result["results"]["Gallia"][0]["reason"] == "bounced"  # 2 against the garrison and the army


def test_a_stack_the_variant_refuses_is_not_a_position() -> None:
    with pytest.raises(InterchangeError, match="two units in BRE: A BRE and F BRE"):
        adjudicate({"variant": "standard", "phase": "S1901M", "units": {"France": ["A BRE", "F BRE"]}})
    with pytest.raises(InterchangeError, match="may not stand together"):
        adjudicate({"variant": "garrisons", "phase": "S100M", "units": {"Latium": ["A ROM"], "Gallia": ["G ROM"]}})


def test_several_fleets_in_one_sea_are_separate_entries_and_every_roll_is_listed() -> None:
    purpose = "attack by F MIN (Alexandria) on F MIN"
    seed = next(s for s in (f"s{n}" for n in range(500)) if derive(s, f"S118M|{purpose}|0", 6) == 6)
    result = adjudicate({
        "variant": "seas", "phase": "S118M", "seed": seed,
        "units": {"Alexandria": ["F MIN", "F MIN"], "Byzantium": ["F MIN"]},
        "orders": {"Alexandria": ["F MIN attacks F MIN (Byzantium)"]},
    })
    assert result["rolls"] == [{"phase": "S118M", "purpose": purpose, "sides": 6, "value": 6,
                                "effect": "F MIN (Byzantium) sunk",
                                "units": [{"power": "Alexandria", "unit": "F MIN"}, {"power": "Byzantium", "unit": "F MIN"}]}]
    assert result["destroyed"] == [{"power": "Byzantium", "unit": "F MIN", "reason": "sunk by F MIN (Alexandria)"}]
    assert result["units"] == {"Alexandria": ["F MIN", "F MIN"]}


def test_a_phase_that_must_roll_needs_a_seed() -> None:
    with pytest.raises(InterchangeError, match='no dice seed was given.*"seed"'):
        adjudicate({"variant": "seas", "phase": "S118M", "units": {"Alexandria": ["F MIN"], "Byzantium": ["F MIN"]},
                    "orders": {"Alexandria": ["F MIN attacks F MIN (Byzantium)"]}})


def test_second_moves_go_into_a_retreat_phase_and_their_results_come_out() -> None:
    result = adjudicate({
        "variant": "roads", "phase": "S-43R",
        "units": {"Numidia": ["C CEA"], "Italia": ["I BEA"]},
        "dislodged": {"Hispania": [{"unit": "I BEA", "retreats": ["TIN"]}]},
        "second_moves": {"Numidia": [{"unit": "C CEA", "then": ["TIN"]}]},
        "orders": {"Hispania": ["I BEA R TIN"]},
    })
    assert result["results"]["Hispania"] == [{"order": "I BEA R TIN", "unit": "I BEA", "outcome": "fails",
                                              "reason": "bounced"}]
    assert result["results"]["Numidia"] == [{"order": "C CEA - TIN (second move)", "unit": "C CEA",
                                             "outcome": "fails", "reason": "bounced"}]
    assert result["units"] == {"Italia": ["I BEA"], "Numidia": ["C CEA"]}
    assert result["next_phase"] == "F-43M"


def test_notes_say_what_a_rule_changed() -> None:
    result = adjudicate({
        "variant": "roads", "phase": "S-43M", "extra": {"forts": {"ITA": "Italia"}},
        "units": {"Italia": ["I ITA"], "Hispania": ["I NAR", "I RAE"]},
        "orders": {"Italia": ["I ITA H"], "Hispania": ["I NAR - ITA", "I RAE S I NAR - ITA"]},
    })
    assert result["results"]["Italia"] == [{"order": "I ITA H", "unit": "I ITA", "outcome": "succeeds",
                                            "notes": ["fortified city: +1 while it holds"]}]


def test_a_unit_called_by_its_name_is_found_on_the_board() -> None:
    result = adjudicate({"variant": "leaders", "phase": "S-220M", "units": {"Carthage": ["A CAR", "L THA"]},
                         "orders": {"Carthage": ["Hannibal - ZAM"]}})
    assert result["results"]["Carthage"] == [{"order": "L THA - ZAM", "unit": "L THA", "outcome": "succeeds"}]


def test_what_a_rule_announces_comes_out() -> None:
    result = adjudicate({"variant": "following", "phase": "S100R", "extra": {"marked": ["ROM"]},
                         "units": {"Gallia": ["A ROM"]},
                         "dislodged": {"Latium": [{"unit": "A ROM", "retreats": ["NAP"]}]}})
    assert result["announcements"] == ["the mark of A ROM is lost"]
    assert result["extra"] == {"marked": []}


def test_a_retreat_is_judged_by_the_rules_as_well_as_by_the_list_given() -> None:
    """A retreat phase's list of retreats names Albania, where a Turkish army now stands: the
    rules refuse the retreat there, and another place of the list counts."""
    dislodged = {"Austria": [{"unit": "A SER", "attacker_from": "BUL", "retreats": ["ALB", "GRE"]}]}
    units = {"Turkey": ["A SER", "A ALB"]}
    refused = adjudicate({"variant": "standard", "phase": "S1901R", "units": units, "dislodged": dislodged,
                          "orders": {"Austria": ["A SER R ALB"]}})
    assert refused["results"]["Austria"][0]["reason"] == "illegal: Albania is occupied by A ALB (Turkey)"
    assert "Austria" not in refused["units"]
    kept = adjudicate({"variant": "standard", "phase": "S1901R", "units": units, "dislodged": dislodged,
                       "orders": {"Austria": ["A SER R GRE"]}})
    assert kept["units"]["Austria"] == ["A GRE"]
