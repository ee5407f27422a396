"""Tilecast: read a Scrabble board from a camera and record the game under WESPA rules.

`tilecast.annotate(spec, output)` records a video offline and `tilecast.open_board(spec, pm)`
opens a board to watch (tilecast/opening.py); both are loaded on first use, so importing a
part of the package (the engine, say) stays light.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = ["Spec", "annotate", "open_board"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from tilecast import opening

        return getattr(opening, name)
    raise AttributeError(f"module 'tilecast' has no attribute {name!r}")
