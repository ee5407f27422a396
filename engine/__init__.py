"""Pure Scrabble rules and data: tiles, board, plays, scoring and the game state machine.

Nothing here does I/O or imports other tilecast packages, so every other layer can rely on it.
"""
