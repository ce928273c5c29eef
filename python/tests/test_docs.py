"""docs/python.md shows each game's observation layout exactly as the library has it."""

from pathlib import Path

import pytest

import ramparts
from conftest import GAMES

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_layout_table_in_the_docs_is_the_library_s(game_id):
    game = ramparts.load_game(game_id)
    text = DOC.read_text()
    (size,) = game.observation_tensor_shape()
    heading = f"### {game.title} (`{game_id}`): {size} floats"
    assert heading in text, f"docs/python.md lacks '{heading}'"
    section = text.split(heading, 1)[1]
    assert section.lstrip("\n").startswith(ramparts.observation_table(game) + "\n")
