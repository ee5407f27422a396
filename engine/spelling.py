"""How much a string of letters looks like a word of a lexicon: a letter 4-gram model.

A blank's letter is invisible to the camera. When the lexicon allows several letters, or none (a
word from another list, or a phony), the recorder still has to write one down until the
operator says which: the letter that makes the words read most like the lexicon's own words is
right far more often than the first of the alphabet (Q?OP is QUOP, PRONES? is PRONEST).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

ORDER = 4
# Interpolation weights of the 1- to 4-letter estimates (the shorter ones cover unseen contexts).
WEIGHTS = (0.02, 0.1, 0.3, 0.58)
START, STOP = "^", "$"


class SpellingModel:
    """Letter n-gram counts over padded words (START * 3 + WORD + STOP), n = 1..4."""

    __slots__ = ("_counts", "_letters")

    def __init__(self, words: Iterable[str]) -> None:
        counts: list[Counter[str]] = [Counter() for _ in range(ORDER + 1)]
        for word in words:
            padded = START * (ORDER - 1) + word.upper() + STOP
            for n in range(1, ORDER + 1):
                counts[n].update(padded[i : i + n] for i in range(len(padded) - n + 1))
        self._counts = counts
        self._letters = sum(counts[1].values())

    def log_likelihood(self, word: str) -> float:
        """Natural log of the model's probability of `word` (any case), end marker included."""
        counts = self._counts
        padded = START * (ORDER - 1) + word.upper() + STOP
        total = 0.0
        for i in range(ORDER - 1, len(padded)):
            p = WEIGHTS[0] * (counts[1][padded[i]] + 1) / (self._letters + 28)
            for n in range(2, ORDER + 1):
                context = counts[n - 1][padded[i - n + 1 : i]]
                if context:
                    p += WEIGHTS[n - 1] * counts[n][padded[i - n + 1 : i + 1]] / context
            total += math.log(p)
        return total
