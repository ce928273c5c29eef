"""The layout of a game's observation tensor as a Markdown table (docs/python.md shows one per
game, checked against the library by the tests)."""


def observation_table(game):
    """| field | floats | shape | meaning | for `game` (a Game), one row per named slice."""
    rows = ["| field | floats | shape | meaning |", "|---|---|---|---|"]
    for name, start, shape, meaning in game.observation_fields():
        size = 1
        for d in shape:
            size *= d
        dims = " x ".join(str(d) for d in shape)
        rows.append(f"| `{name}` | {start}..{start + size - 1} | {dims} | {meaning} |")
    return "\n".join(rows)
