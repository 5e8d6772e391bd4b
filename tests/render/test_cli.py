"""``gm render-map``: any variant's start as PNG or SVG; stored phases need the game store."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.cli.main import main
from gm.maps.loader import available_maps


def test_png_of_the_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["render-map", "standard", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Spring 1901 movement" in capsys.readouterr().out


def test_svg_of_a_sampled_phase_with_orders(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    assert main(["render-map", "standard", "--sample-phases", "5", "--seed", "3", "-o", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("<svg") and 'class="order' in text


@pytest.mark.parametrize("name", available_maps())
def test_every_map_is_drawn(tmp_path: Path, name: str) -> None:
    """Maps whose rules module does not exist yet are drawn under standard rules."""
    out = tmp_path / f"{name}.svg"
    assert main(["render-map", name, "-o", str(out)]) == 0
    assert out.read_text().startswith("<svg")


def test_wrong_output_and_unknown_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render-map", "standard", "-o", str(tmp_path / "x.gif")]) == 2
    assert main(["render-map", "no-such-map"]) == 2
    assert "unknown variant" in capsys.readouterr().err
