"""Tilecast: read a Scrabble board from a camera and record the game under WESPA rules."""

__version__ = "0.1.0"
