"""A board's unchanging layers are drawn once per map, size and renderer, on this machine: a new
process reads them from gm's cache (gm.maps.cache) and draws the same picture; anything they
are drawn from that changes draws them again; a cache that cannot be written or read changes
nothing but the time."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from gm.render import painter
from gm.render.painter import Board, Painter
from gm.render.scene import build_scene
from gm.variants.catalog import VariantCatalog

CATALOG = VariantCatalog()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("GM_CACHE_DIR", str(folder))
    return folder


def _entries(cache: Path) -> list[Path]:
    return sorted((cache / "boards").glob("*.rgba")) if (cache / "boards").is_dir() else []


def _scene(name: str = "standard"):  # type: ignore[no-untyped-def]
    variant = CATALOG.get(name)
    return build_scene(variant, variant.initial_position(), None, None, ())


def _never_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    def draw_base(self: Board, scene: object) -> np.ndarray:
        raise AssertionError("the base layers were drawn again")

    monkeypatch.setattr(Board, "draw_base", draw_base)


@pytest.mark.parametrize("name", ["standard", "eagles"])
def test_a_board_read_from_the_cache_is_the_board_drawn(cache: Path, name: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    scene = _scene(name)
    drawn = Painter().canvas(scene)  # a new painter: as a new process's
    assert len(_entries(cache)) == 1
    _never_drawn(monkeypatch)
    read = Painter().canvas(scene)
    assert np.array_equal(read, drawn)


def test_a_changed_shape_or_size_draws_the_base_again(cache: Path) -> None:
    scene = _scene()
    Board(scene)
    moved = dataclasses.replace(scene, seas=scene.seas[1:])
    assert not np.array_equal(Board(moved).image, Board(scene).image)
    wider = dataclasses.replace(scene, width=scene.width + 10)
    assert Board(wider).image.shape[1] == scene.width + 10
    assert len(_entries(cache)) == 3


def test_a_new_renderer_draws_the_base_again(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Board(_scene())
    monkeypatch.setattr(painter, "_renderer_version", lambda: "another")
    Board(_scene())
    assert len(_entries(cache)) == 2


def test_a_damaged_entry_is_drawn_again_and_replaced(cache: Path) -> None:
    drawn = Board(_scene()).image.copy()
    (entry,) = _entries(cache)
    entry.write_bytes(b"cut short")
    assert np.array_equal(Board(_scene()).image, drawn)
    assert entry.stat().st_size == drawn.nbytes


def test_a_cache_folder_that_is_a_file_changes_nothing(cache: Path) -> None:
    cache.parent.mkdir(exist_ok=True)
    cache.write_text("in the way")
    drawn = Board(_scene()).image
    assert drawn.shape == (_scene().map_top + _scene().map_height, _scene().width, 4)
    assert cache.read_text() == "in the way"
