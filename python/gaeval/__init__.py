"""gaeval: genetic-algorithm evaluators for game AI, from Python (docs/python.md).

The same evaluators as the `gaeval` command, on the same backends: NumPy arrays in and out
without copies on the CPU, the GIL released during long calls, Ctrl-C honoured between pieces.
"""
from ._gaeval import (  # noqa: F401
    Backend,
    Game,
    PileInScenario,
    Player,
    PlayerKind,
    evaluate_gapi1,
    move_scale,
    pack_move,
    version,
)

__all__ = [
    "Backend",
    "Game",
    "PileInScenario",
    "Player",
    "PlayerKind",
    "evaluate_gapi1",
    "move_scale",
    "pack_move",
    "version",
]
__version__ = version()
