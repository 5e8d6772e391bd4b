"""`gm adjudicate`: the position interchange contract of docs/adjudicate-interchange.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gm import interchange
from gm.interchange import InterchangeError, adjudicate_json, adjudicate_line
from gm.variants.catalog import VariantCatalog

CATALOG = VariantCatalog()
EXAMPLE = {
    "variant": "standard",
    "phase": "S1901M",
    "units": {"England": ["F LON", "F EDI", "A LVP"], "Russia": ["F STP/SC"]},
    "centers": {"England": ["LON", "EDI", "LVP"]},
    "orders": {"England": ["F LON - NTH", "A LVP - YOR", "F EDI - NTH"]},
}


def gm(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gm.cli.main", "adjudicate", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_the_documented_example() -> None:
    result = adjudicate_json(EXAMPLE, CATALOG)
    assert result["phase"] == "S1901M"
    assert result["results"]["England"] == [
        {"order": "F LON - NTH", "unit": "F LON", "outcome": "fails", "reason": "bounced"},
        {"order": "A LVP - YOR", "unit": "A LVP", "outcome": "succeeds"},
        {"order": "F EDI - NTH", "unit": "F EDI", "outcome": "fails", "reason": "bounced"},
    ]
    assert result["units"] == {"England": ["A YOR", "F EDI", "F LON"], "Russia": ["F STP/SC"]}
    assert result["dislodged"] == {}
    assert result["centers"] == {"England": ["EDI", "LON", "LVP"]}
    assert result["next_phase"] == "F1901M"
    assert result["winner"] is None


def test_names_in_any_spelling_and_default_centres() -> None:
    position = {
        "variant": "Standard",
        "phase": "F1901M",
        "units": {"france": ["A Paris", "F St Petersburg (south coast)"], "GERMANY": ["A Munich"]},
        "orders": {"France": ["a paris -> burgundy", "A Par-Pic"], "Germany": ["Munich holds", "A Kiel - Berlin"]},
    }
    result = adjudicate_json(position, CATALOG)
    assert result["units"] == {"France": ["A PIC", "F STP/SC"], "Germany": ["A MUN"]}
    france = result["results"]["France"]
    assert france[0] == {"order": "A PAR - BUR", "unit": "A PAR", "outcome": "fails", "reason": "superseded"}
    assert france[1]["outcome"] == "succeeds"
    assert result["results"]["Germany"][1]["reason"].startswith("illegal: there is no unit in Kiel")
    # Fall is over: the centres change hands (default centres: home centres not held by others)
    assert result["centers"]["France"] == ["BRE", "MAR", "PAR", "STP"]
    assert "STP" not in result["centers"].get("Russia", [])
    assert result["next_phase"] == "W1901A"


def test_a_dislodgement_and_the_retreat_phase() -> None:
    movement = {
        "variant": "standard", "phase": "S1901M",
        "units": {"Austria": ["A SER"], "Turkey": ["A BUL", "A RUM"]},
        "orders": {"Turkey": ["A BUL - SER", "A RUM S A BUL - SER"]},
    }
    result = adjudicate_json(movement, CATALOG)
    assert result["dislodged"] == {"Austria": [{"unit": "A SER", "attacker_from": "BUL",
                                                 "retreats": ["ALB", "BUD", "GRE", "TRI"]}]}
    assert result["next_phase"] == "S1901R"
    retreat = {
        "variant": "standard", "phase": "S1901R", "units": result["units"],
        "dislodged": {"Austria": [{"unit": "A SER", "retreats": ["ALB", "GRE"]}]},
        "orders": {"Austria": ["A SER R TRI"]},
    }
    after = adjudicate_json(retreat, CATALOG)
    assert after["results"]["Austria"][0]["reason"].startswith("illegal")
    assert "Austria" not in after["units"]
    assert after["next_phase"] == "F1901M"


def test_an_unreadable_line_is_reported_and_the_run_goes_on() -> None:
    position = {**EXAMPLE, "orders": {"England": ["F LON - Burgandi", "hello world"]}}
    result = adjudicate_json(position, CATALOG)
    first, second = result["results"]["England"]
    assert first["unit"] is None and first["outcome"] == "fails" and "Burgundy" in first["reason"]
    assert second["reason"].startswith("illegal")


@pytest.mark.parametrize(
    ("document", "fragment"),
    [
        ({**EXAMPLE, "variant": "chess"}, "unknown variant"),
        ({**EXAMPLE, "units": {"England": ["A Atlantis"]}}, "Atlantis"),
        ({**EXAMPLE, "units": {"Narnia": ["A LON"]}}, "unknown power"),
        ({**EXAMPLE, "units": {"England": ["F STP"]}}, "coast"),
        ({**EXAMPLE, "phase": "Spring"}, "phase"),
        ([1, 2], "object"),
    ],
)
def test_input_that_is_not_a_position(document: object, fragment: str) -> None:
    with pytest.raises(InterchangeError, match=fragment):
        adjudicate_json(document, CATALOG)


def test_command_line_file_and_stdin(tmp_path: Path) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(EXAMPLE))
    done = gm(str(path))
    assert done.returncode == 0 and json.loads(done.stdout)["next_phase"] == "F1901M"
    done = gm("-", stdin=json.dumps(EXAMPLE))
    assert done.returncode == 0 and json.loads(done.stdout)["phase"] == "S1901M"


def test_command_line_errors_exit_2_with_one_line() -> None:
    done = gm("-", stdin="{not json")
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "not JSON" in done.stderr
    done = gm("-", stdin=json.dumps({**EXAMPLE, "variant": "chess"}))
    assert done.returncode == 2 and "unknown variant" in done.stderr


@pytest.mark.parametrize("extra", [{}, {"big": 2**70, "small": -(2**70), "name": "Gaul é – 🏛", "f": 1.5e-7},
                                   {"not JSON": float("nan"), "inf": float("inf")}])
@pytest.mark.parametrize("msgspec", [True, False], ids=["msgspec", "without msgspec"])
def test_a_jsonl_line_gives_the_json_the_standard_library_would(extra: dict, msgspec: bool, monkeypatch) -> None:
    """msgspec reads and writes the lines (gm.interchange.adjudicate_line): the same JSON values
    as ``json`` would give, whole numbers of any size included; what msgspec refuses (NaN, which
    the standard library reads and writes) is left to ``json``, as everything is without msgspec."""
    if not msgspec:
        monkeypatch.setattr(interchange, "_FAST_DECODER", None)
        monkeypatch.setattr(interchange, "_FAST_ENCODER", None)
    line = json.dumps({**EXAMPLE, "extra": extra})
    assert json.loads(adjudicate_line(line, CATALOG)) == json.loads(json.dumps(adjudicate_json(json.loads(line), CATALOG)))
    assert json.loads(adjudicate_line(line, CATALOG))["extra"].keys() == extra.keys()
    assert json.loads(adjudicate_line("{broken", CATALOG)) == {
        "error": "not JSON: Expecting property name enclosed in double quotes at line 1 column 2"}


def test_jsonl_stream_keeps_going_after_a_bad_line() -> None:
    lines = [json.dumps(EXAMPLE), "{broken", json.dumps({**EXAMPLE, "variant": "chess"}), json.dumps(EXAMPLE)]
    done = gm("--jsonl", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 4
    assert out[0]["next_phase"] == "F1901M" and out[3]["next_phase"] == "F1901M"
    assert "error" in out[1] and "unknown variant" in out[2]["error"]


def _adjustments_with(centres: dict[str, list[str]]) -> dict:
    """A winter whose centres no order changes: France and England each build nothing they can."""
    return adjudicate_json({"variant": "standard", "phase": "W1901A", "units": {"France": ["A PAR"]},
                            "centers": centres, "orders": {}}, CATALOG)


@pytest.mark.parametrize("centres", [
    {"France": ["BRE", "MAR", "PAR"], "England": ["LON"]},  # as a result writes them (but for the powers' order)
    {"France": ["PAR", "BRE", "MAR"], "England": ["LON"]},  # out of order
    {"France": ["BRE", "MAR"], "england": ["LON"], "FRANCE": ["PAR"]},  # a power twice, in two spellings
    {"France": ["BRE", "MAR", "PAR", "LON"], "England": ["LON"]},  # a centre twice: the last owner holds it
    {"France": ["BRE", "BRE", "MAR", "PAR"], "England": ["LON"]},  # twice for one power
    {"France": ["Brest", "mar", "PAR"], "England": ["london"]},  # by name, in lower case
    {"France": ["BRE", "MAR", "PAR"], "England": ["LON"], "Germany": []},  # a power with none
])
def test_unchanged_centres_come_back_as_results_write_them(centres: dict[str, list[str]]) -> None:
    result = _adjustments_with(centres)
    assert result["centers"] == {"England": ["LON"], "France": ["BRE", "MAR", "PAR"]}
    assert list(result["centers"]) == ["England", "France"]


@pytest.mark.parametrize(("centres", "error"), [
    ({"France": ["PAR", "BUR"]}, "'BUR' is not a supply centre"),
    ({"France": ["PAR", ["BRE"]]}, "['BRE']"),
    ({"France": ["PAR", 7]}, "7"),
])
def test_what_is_not_a_supply_centre_is_refused(centres: dict, error: str) -> None:
    with pytest.raises(InterchangeError) as refused:
        _adjustments_with(centres)
    assert error in str(refused.value)


def test_a_winner_counts_every_list_of_a_power_written_twice() -> None:
    french = ["BEL", "BRE", "HOL", "KIE", "LON", "LVP", "MAR", "MUN", "PAR"]
    more = ["BER", "DEN", "EDI", "NWY", "POR", "SPA", "SWE", "TUN", "VEN"]
    position = {"variant": "standard", "phase": "S1905R", "units": {"France": ["A PAR"]},
                "centers": {"France": french, "france": more}, "orders": {}}
    assert adjudicate_json(position, CATALOG)["winner"] == "France"
    position["centers"] = {"France": french, "England": more}
    assert adjudicate_json(position, CATALOG)["winner"] is None


def test_units_in_any_order_are_read_in_board_order() -> None:
    from gm.domain.position import sorted_units

    units = {"Turkey": ["A SMY", "F ANK"], "Austria": ["F TRI", "A VIE", "A BUD"], "Russia": ["F STP/SC", "A MOS"]}
    document = {"variant": "standard", "phase": "S1901M", "units": units}
    position = interchange.read_request(document, CATALOG).position
    assert position.units == sorted_units(position.units)
    assert [str(u) for u in position.units] == ["A BUD", "F TRI", "A VIE", "A MOS", "F STP/SC", "F ANK", "A SMY"]


def test_a_power_named_later_is_ordered_by_its_name_among_the_powers_read_before() -> None:
    """Units are ordered by power, province and coast; where players name their powers, a power
    first met after others still takes its place by name, in this document and the next."""
    from gm.domain.position import sorted_units
    from tests.engine.deltas import Rounds  # any empire name is a power there

    variant = Rounds()

    class Catalog:
        def get(self, name: str) -> Rounds:
            return variant

    def read(units: dict[str, list[str]], dislodged: dict | None = None) -> list[str]:
        document = {"variant": "rounds", "phase": "S100M", "units": units, "dislodged": dislodged or {}}
        position = interchange.read_request(document, Catalog()).position  # type: ignore[arg-type]
        assert position.units == sorted_units(position.units)
        return [f"{u.power} {u}" for u in position.units]

    assert read({"Sparta": ["F LON", "A EDI"]}) == ["Sparta A EDI", "Sparta F LON"]
    assert read({"Sparta": ["A EDI", "F LON"], "Athens": ["A WAL"], "Zakros": ["F NTH"]},
                {"Argos": [{"unit": "A YOR", "retreats": []}]}) == [
        "Athens A WAL", "Sparta A EDI", "Sparta F LON", "Zakros F NTH"]
    # Argos was met among the dislodged: it now sorts before Athens as well.
    assert read({"Zakros": ["F NTH"], "Sparta": ["F LON"], "Argos": ["A YOR"], "Athens": ["A WAL"]}) == [
        "Argos A YOR", "Athens A WAL", "Sparta F LON", "Zakros F NTH"]


def test_powers_past_the_memo_limit_are_numbered_afresh_in_name_order() -> None:
    from gm.domain.geography import Location
    from gm.domain.units import ARMY, Unit
    from gm.interchange_board import _MEMO_LIMIT, Ranks

    ranks = Ranks(CATALOG.get("standard"))
    assert ranks.number([f"Power {n:05}" for n in range(_MEMO_LIMIT)])
    assert not ranks.number(["Power 00007"])
    assert ranks.number(["Zeta", "Alpha"])  # one too many: only these are kept
    assert sorted(ranks.bases) == ["Alpha", "Zeta"]
    assert ranks.of(Unit("Alpha", ARMY, Location("PAR"))) < ranks.of(Unit("Zeta", ARMY, Location("BUR")))


def test_units_on_coasts_keep_the_board_order() -> None:
    units = {"Russia": ["F STP/SC", "A MOS", "A WAR", "F SEV"], "England": ["F NWY", "F BAR", "F SPA/NC"]}
    document = {"variant": "standard", "phase": "S1901M", "units": units}
    position = interchange.read_request(document, CATALOG).position
    assert [f"{u.power} {u}" for u in position.units] == [
        "England F BAR", "England F NWY", "England F SPA/NC", "Russia A MOS", "Russia F SEV", "Russia F STP/SC",
        "Russia A WAR"]


def test_units_that_share_a_province_are_refused_and_a_refused_document_leaves_no_trace() -> None:
    from gm.interchange_board import memo_of

    catalog = VariantCatalog()
    taken = memo_of(catalog.get("standard")).ranks.taken  # the reader's flags: down between documents

    def units(section: dict[str, list[str]]) -> dict[str, list[str]]:
        try:
            return adjudicate_json({"variant": "standard", "phase": "S1901M", "units": section}, catalog)["units"]
        finally:
            assert not any(taken)

    with pytest.raises(InterchangeError, match="two units in PAR"):
        units({"France": ["A PAR"], "Germany": ["A PAR"]})
    with pytest.raises(InterchangeError, match="XYZ"):
        units({"France": ["A PAR", "A BUR", "A XYZ"]})  # refused after two units were read
    assert units({"France": ["A PAR", "A BUR"]}) == {"France": ["A BUR", "A PAR"]}
    assert units({"Germany": ["A BUR"], "France": ["A PAR"]}) == {"France": ["A PAR"], "Germany": ["A BUR"]}


@pytest.mark.parametrize("name", VariantCatalog().names())
def test_unit_and_order_texts_are_what_the_domain_writes(name: str) -> None:
    """The compiled texts results print (gm.interchange_board) are ``str`` of each unit and of
    each kind of order, on every place of every variant's map, coasts and untyped units too."""
    from gm.domain.geography import Location
    from gm.domain.orders import (Build, Convoy, Disband, Hold, Move, MoveThen, Retreat, SupportHold, SupportMove,
                                  UnitRef, Waive)
    from gm.domain.units import Unit
    from gm.interchange_board import order_text, unit_text

    variant = CATALOG.get(name)
    places = [Location(pid, coast) for pid, province in variant.map.provinces.items()
              for coast in (None, *province.coasts)]
    types = [None, *variant.unit_types]
    for n, place in enumerate(places):
        other = places[(n * 7 + 3) % len(places)]
        unit_type = types[n % len(types)]
        ref, second = UnitRef(place, unit_type), UnitRef(other, types[(n + 1) % len(types)])
        if unit_type is not None:
            unit = Unit("Somebody", unit_type, place)
            assert unit_text(unit) == str(unit)
        orders = [Hold(ref), Move(ref, other), Move(ref, other, via_convoy=True), SupportHold(ref, second),
                  SupportMove(ref, second, other), Convoy(ref, second, other), Retreat(ref, other), Disband(ref),
                  Build(ref), Waive(), MoveThen(ref, (other,), (place,))]
        for order in orders:
            assert order_text(order) == str(order)
