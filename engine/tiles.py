"""Tiles and tile sets: what a set holds and what each letter is worth."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

BLANK = "?"


@dataclass(frozen=True)
class Tile:
    """A tile on the board: the letter it reads as, and whether it is a blank standing in."""

    letter: str
    blank: bool = False

    def __post_init__(self) -> None:
        if len(self.letter) != 1 or not self.letter.isalpha() or not self.letter.isupper():
            raise ValueError(f"tile letter must be one upper-case letter, got {self.letter!r}")

    @property
    def face(self) -> str:
        """The tile as drawn from the bag: its letter, or '?' for a blank."""
        return BLANK if self.blank else self.letter

    @property
    def notation(self) -> str:
        """GCG notation: upper case for a letter tile, lower case for a blank."""
        return self.letter.lower() if self.blank else self.letter

    @classmethod
    def from_notation(cls, ch: str) -> Tile:
        """Parse one GCG letter: upper case is a tile, lower case a designated blank."""
        return cls(ch.upper(), blank=ch.islower())


@dataclass(frozen=True)
class TileSet:
    """The tiles of one language's set: how many of each face and what each is worth."""

    name: str
    counts: Mapping[str, int] = field(repr=False)
    values: Mapping[str, int] = field(repr=False)

    def __post_init__(self) -> None:
        if set(self.counts) != set(self.values):
            missing = set(self.counts) ^ set(self.values)
            raise ValueError(
                f"tile set {self.name!r}: counts and values differ on {sorted(missing)}"
            )
        for face, n in self.counts.items():
            if n < 0 or self.values[face] < 0:
                raise ValueError(f"tile set {self.name!r}: negative count or value for {face!r}")
        object.__setattr__(self, "counts", MappingProxyType(dict(self.counts)))
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))

    @property
    def size(self) -> int:
        return sum(self.counts.values())

    @property
    def letters(self) -> str:
        """All letter faces (blank excluded), in alphabetical order."""
        return "".join(sorted(f for f in self.counts if f != BLANK))

    def value(self, tile: Tile) -> int:
        """Points a tile scores: its letter's value, or 0 for a blank."""
        return 0 if tile.blank else self.values[tile.letter]

    def rack_value(self, faces: Iterable[str]) -> int:
        """Sum of the face values of a rack of faces such as 'AEQ?'."""
        return sum(self.values[f] for f in faces)

    def has_face(self, face: str) -> bool:
        return face in self.counts

    def bag(self) -> Counter[str]:
        """A full bag as a multiset of faces."""
        return Counter(dict(self.counts))

    @classmethod
    def from_mapping(cls, name: str, tiles: Mapping[str, Mapping[str, int]]) -> TileSet:
        """Build from {'A': {'count': 9, 'value': 1}, ...}, the shape of a tile-set data file."""
        counts, values = {}, {}
        for face, spec in tiles.items():
            face = face if face == BLANK else face.upper()
            try:
                counts[face] = int(spec["count"])
                values[face] = int(spec["value"])
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"tile set {name!r}: bad entry for {face!r}: {spec!r}") from exc
        return cls(name, counts, values)
