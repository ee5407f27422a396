"""The word list: membership tests and the letter graph the move generator walks."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .spelling import SpellingModel

# Key present in a graph node when the letters leading to it spell a word.
END = "$"

_LETTERS = re.compile(r"[A-Za-z]+")

Node = dict[str, "Node | None"]


class Lexicon:
    """A set of words held as a minimal acyclic word graph (DAWG).

    Words are strictly A-Z (any case on input, upper case inside): a word with any other character
    raises ValueError rather than being skipped, so a bad list is noticed. The graph shares common
    prefixes and suffixes, so ENABLE's 173k words take about 54k nodes and build in well under a
    second. `root` is the graph: each node maps a letter to the next node, and holds END when the
    path to it spells a word.
    """

    __slots__ = ("root", "_size", "_spelling")

    def __init__(self, words: Iterable[str]) -> None:
        upper = set()
        for word in words:
            if not isinstance(word, str) or not _LETTERS.fullmatch(word):
                raise ValueError(f"not a word of letters A-Z: {word!r}")
            upper.add(word.upper())
        self.root = _build(sorted(upper))
        self._size = len(upper)
        self._spelling: SpellingModel | None = None

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        node: Node | None = self.root
        for ch in word.upper():
            node = node.get(ch)
            if node is None:  # also stops at END, whose value is None
                return False
        return END in node

    def words(self) -> Iterator[str]:
        """Every word, in alphabetical order (a walk of the graph)."""
        stack: list[tuple[str, Node]] = [("", self.root)]
        while stack:
            prefix, node = stack.pop()
            if END in node:
                yield prefix
            for ch in sorted((k for k in node if k != END), reverse=True):
                stack.append((prefix + ch, node[ch]))  # type: ignore[arg-type]

    @property
    def spelling(self) -> SpellingModel:
        """The letter model of these words, built on first use (ENABLE: about 1.5 s)."""
        if self._spelling is None:
            self._spelling = SpellingModel(self.words())
        return self._spelling

    def __len__(self) -> int:
        return self._size

    def __repr__(self) -> str:
        return f"Lexicon({self._size} words)"


def _build(words: list[str]) -> Node:
    """Daciuk's incremental construction of the minimal graph from sorted, distinct words.

    After each word, the nodes of the previous word beyond the shared prefix can no longer change,
    so each is replaced by an equal node already registered, or registered itself. Two nodes are
    equal when they agree on END and map every letter to the same (already unique) node.
    """
    register: dict[tuple, Node] = {}
    root: Node = {}
    path = [root]  # path[i]: the node reached by the previous word's first i letters
    prev = ""

    def freeze(down_to: int) -> None:
        for i in range(len(prev) - 1, down_to - 1, -1):
            child = path[i + 1]
            key = tuple([(k, id(v)) for k, v in child.items()])
            same = register.get(key)
            if same is None:
                register[key] = child
            else:
                path[i][prev[i]] = same

    for word in words:
        shared = 0
        limit = min(len(prev), len(word))
        while shared < limit and prev[shared] == word[shared]:
            shared += 1
        freeze(shared)
        del path[shared + 1 :]
        node = path[shared]
        for ch in word[shared:]:
            child: Node = {}
            node[ch] = child
            path.append(child)
            node = child
        node[END] = None
        prev = word
    freeze(0)
    return root
