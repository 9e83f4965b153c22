"""gaeval: genetic-algorithm evaluators for game AI, from Python (docs/python.md).

The same evaluators as the `gaeval` command, on the same backends: NumPy arrays in and out
without copies on the CPU, the GIL released during long calls, Ctrl-C honoured between pieces.
"""
from ._gaeval import (  # noqa: F401
    Backend,
    DeviceArray,
    Game,
    PileInScenario,
    Player,
    PlayerKind,
    evaluate_gapi1,
    move_scale,
    pack_move,
    to_device,
    version,
)

__all__ = [
    "Backend",
    "DeviceArray",
    "Game",
    "PileInScenario",
    "Player",
    "PlayerKind",
    "evaluate_gapi1",
    "move_scale",
    "pack_move",
    "to_device",
    "version",
]
__version__ = version()
