"""A map is read from gm's cache when its file is the one read before (gm.maps.cache): the same
map as its YAML gives, for every map gm ships; a changed file is read from its YAML again; a
cache that cannot be written or read changes nothing but the time."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gm.maps import loader
from gm.maps.loader import MAPS_DIR, MapError, available_maps, load_map, read_map


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("GM_CACHE_DIR", str(folder))
    return folder


def _entries(cache: Path) -> list[Path]:
    return sorted((cache / "maps").glob("*.pickle")) if (cache / "maps").is_dir() else []


def _from_yaml(path: Path):  # type: ignore[no-untyped-def]
    game_map, problems = read_map(path)
    assert not problems
    return game_map


@pytest.mark.parametrize("name", available_maps())
def test_a_cached_map_is_the_map_its_yaml_describes(cache: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_map(MAPS_DIR / f"{name}.yaml")
    assert len(_entries(cache)) == 1
    parsed: list[Path] = []
    monkeypatch.setattr(loader, "read_map", lambda path: parsed.append(path) or (None, []))  # must not be asked
    cached = load_map(MAPS_DIR / f"{name}.yaml")
    assert parsed == []
    assert cached is not first
    assert cached == _from_yaml(MAPS_DIR / f"{name}.yaml")
    assert cached.supply_centres == first.supply_centres and cached.neighbours == first.neighbours
    assert type(cached.provinces) is type(first.provinces)  # read-only still


def test_a_changed_map_file_is_read_from_its_yaml_again(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "standard.yaml"
    shutil.copy(MAPS_DIR / "standard.yaml", path)
    before = load_map(path)
    path.write_text(path.read_text().replace("title: ", "title: Changed ", 1))
    after = load_map(path)
    assert after.title == "Changed " + before.title
    assert len(_entries(cache)) == 2
    path.write_text(path.read_text().replace("provinces:", "provinces:\n  XXX: {}", 1))
    with pytest.raises(MapError):  # a broken file is never hidden by its cached predecessor
        load_map(path)


def test_a_damaged_entry_is_read_again_from_the_yaml_and_replaced(cache: Path) -> None:
    load_map(MAPS_DIR / "standard.yaml")
    (entry,) = _entries(cache)
    entry.write_bytes(b"not a pickle")
    assert load_map(MAPS_DIR / "standard.yaml") == _from_yaml(MAPS_DIR / "standard.yaml")
    assert entry.read_bytes() != b"not a pickle"


def test_a_cache_that_cannot_be_written_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GM_CACHE_DIR", "/proc/self/gm-cache")  # no folder is made there, by root either
    assert load_map(MAPS_DIR / "standard.yaml") == _from_yaml(MAPS_DIR / "standard.yaml")
    assert not Path("/proc/self/gm-cache").exists()


def test_a_cache_folder_that_is_a_file_changes_nothing(cache: Path) -> None:
    cache.parent.mkdir(exist_ok=True)
    cache.write_text("in the way")  # as unwritable as a read-only folder, for root too
    assert load_map(MAPS_DIR / "standard.yaml") == _from_yaml(MAPS_DIR / "standard.yaml")
    assert cache.read_text() == "in the way"


def test_the_cache_folder_follows_the_operators_choice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from gm.maps.cache import cache_dir

    monkeypatch.delenv("GM_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "gm"
    monkeypatch.setenv("GM_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"


def test_the_cache_keeps_its_newest_entries_only(cache: Path) -> None:
    from gm.maps.cache import write

    for n in range(5):
        write("things", f"entry-{n}", b"x", keep=3)
        os.utime(cache / "things" / f"entry-{n}", (n, n))  # each newer than the one before
    write("things", "entry-5", b"x", keep=3)
    assert sorted(p.name for p in (cache / "things").iterdir()) == ["entry-3", "entry-4", "entry-5"]
