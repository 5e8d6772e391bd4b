"""`gm maps check`: every map file passes, and each kind of mistake is named with its fix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gm.maps.loader import available_maps, check_map_file, load_map, map_path

SMALL = """\
title: Small
powers:
  Red: {adjective: Red, colour: "#ff0000", home: [AAA], units: [A AAA]}
  Blue: {adjective: Blue, colour: "#0000ff", home: [BBB], units: [F BBB]}
provinces:
  AAA: {name: Alpha, terrain: land, centre: true, army: [BBB], anchor: [1, 1]}
  BBB: {name: Beta, terrain: coast, centre: true, army: [AAA], fleet: [SEA], anchor: [2, 1]}
  SEA: {name: Deep Sea, terrain: sea, fleet: [BBB], anchor: [3, 1]}
"""


@pytest.mark.parametrize("name", available_maps())
def test_every_map_file_passes(name: str) -> None:
    assert check_map_file(map_path(name)) == []
    assert load_map(map_path(name)).provinces


def test_the_small_map_is_sound(tmp_path: Path) -> None:
    path = tmp_path / "small.yaml"
    path.write_text(SMALL)
    assert check_map_file(path) == []


@pytest.mark.parametrize(
    ("old", "new", "where", "fragments"),
    [
        ("army: [AAA], fleet", "army: [], fleet", "AAA", ["does not list AAA", "add AAA to BBB's army list"]),
        ("army: [BBB], anchor", "army: [BBB, CCC], anchor", "AAA", ["CCC does not exist", "correct or remove"]),
        ("fleet: [BBB], anchor", "fleet: [AAA, BBB], anchor", "SEA", ["AAA is land", "remove it"]),
        ("Deep Sea, terrain", "Alpha, terrain", "", ["also used by"]),
        ("{name: Beta,", "{name: Beta, aliases: [alpha],", "", ["'alpha' is also used by AAA"]),
        ("home: [BBB], units: [F BBB]", "home: [SEA], units: [F BBB]", "Blue", ["not a supply centre", "centre: true"]),
        ("units: [A AAA]", "units: [F AAA]", "Red F AAA", ["fleet on land"]),
        ("units: [F BBB]", "units: [A SEA]", "Blue A SEA", ["army on sea"]),
        ("units: [A AAA]", "units: [Army Alpha]", "Red", ["'Army Alpha' is not a type letter and a location",
                                                         "write the type letter and the location id"]),
        ("centre: true, army: [AAA]", "centre: true, colour: blue, army: [AAA]", "BBB", ["unknown field 'colour'"]),
        ("anchor: [3, 1]", "anchor: [300, 1]", "SEA", ["not [longitude, latitude]"]),
    ],
)
def test_each_mistake_is_named_with_its_fix(tmp_path: Path, old: str, new: str, where: str, fragments: list[str]) -> None:
    assert old in SMALL
    path = tmp_path / "broken.yaml"
    path.write_text(SMALL.replace(old, new, 1))
    problems = check_map_file(path)
    assert problems, "the mistake went unnoticed"
    text = "\n".join(str(p) for p in problems)
    assert str(path) in text
    if where:
        assert any(p.where == where for p in problems), text
    for fragment in fragments:
        assert fragment in text


def test_a_duplicated_province_id_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "twice.yaml"
    path.write_text(SMALL + "  SEA: {name: Other Sea, terrain: sea}\n")
    (problem,) = check_map_file(path)
    assert "'SEA' is written twice" in str(problem) and problem.line == 9


def test_the_command_exits_1_and_lists_the_problems(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(SMALL.replace("army: [AAA], fleet", "army: [], fleet"))
    done = subprocess.run([sys.executable, "-m", "gm.cli.main", "maps", "check", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "does not list AAA" in done.stdout
    good = tmp_path / "small.yaml"
    good.write_text(SMALL)
    done = subprocess.run([sys.executable, "-m", "gm.cli.main", "maps", "check", str(good)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok")
