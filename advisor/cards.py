"""Cards, packs and the rank arithmetic the rules sources use.

Notation: rank (A 2-10 J Q K) then suit letter (s h d c): ``10h``, ``Qs``,
``As``. ``Th`` is accepted on input. In games of several packs a physical
copy may be named with a suffix, ``Qs:2`` being the second pack's queen of
spades; ``Qs`` alone means "a queen of spades, copy not known".
"""
from __future__ import annotations

import random
from dataclasses import dataclass

RANKS = tuple(range(1, 14))
RANK_LABEL = {1: "A", 11: "J", 12: "Q", 13: "K", **{r: str(r) for r in range(2, 11)}}
RANK_NAME = {1: "ace", 11: "jack", 12: "queen", 13: "king",
             **{r: n for r, n in zip(range(2, 11),
                                     "two three four five six seven eight nine ten".split())}}
_RANK_PARSE = {**{v: k for k, v in RANK_LABEL.items()}, "T": 10, "1": 1}
SUITS = ("s", "h", "d", "c")
SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAME = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
_SUIT_PARSE = {**{s: s for s in SUITS}, **{v: k for k, v in SUIT_SYMBOL.items()}}
RED_SUITS = frozenset("hd")


class CardError(ValueError):
    """A card label that cannot be read."""


@dataclass(frozen=True, order=True)
class Card:
    """One physical card. ``copy`` is 0 when the pack it came from is not known."""

    rank: int
    suit: str
    copy: int = 0

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise CardError(f"rank must be 1..13, got {self.rank!r}")
        if self.suit not in SUITS:
            raise CardError(f"suit must be one of s h d c, got {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> "Card":
        raw = str(text).strip()
        body, _, copy = raw.partition(":")
        if len(body) < 2:
            raise CardError(f"{raw!r} is not a card: expected rank then suit, like 10h, Qs or As")
        rank = _RANK_PARSE.get(body[:-1].upper())
        suit = _SUIT_PARSE.get(body[-1].lower() if body[-1].isalpha() else body[-1])
        if rank is None or suit is None:
            raise CardError(f"{raw!r} is not a card: expected rank (A 2-10 J Q K) then suit (s h d c), like 10h or Qs")
        if copy and not copy.isdigit():
            raise CardError(f"{raw!r}: the copy number after ':' must be a whole number")
        return cls(rank, suit, int(copy) if copy else 0)

    @property
    def label(self) -> str:
        """The card without its copy number, as the detector names it."""
        return RANK_LABEL[self.rank] + self.suit

    @property
    def pretty(self) -> str:
        return RANK_LABEL[self.rank] + SUIT_SYMBOL[self.suit]

    @property
    def name(self) -> str:
        return f"{RANK_NAME[self.rank]} of {SUIT_NAME[self.suit]}"

    @property
    def face(self) -> tuple[int, str]:
        """What the rules see: rank and suit, whichever pack the card is from."""
        return (self.rank, self.suit)

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def colour(self) -> str:
        return "red" if self.is_red else "black"

    def same_face(self, other: "Card | None") -> bool:
        return other is not None and self.face == other.face

    def bare(self) -> "Card":
        return Card(self.rank, self.suit)

    def __str__(self) -> str:
        return self.label + (f":{self.copy}" if self.copy else "")


def full_deck(packs: int = 1) -> list[Card]:
    """Every card of ``packs`` packs; copies are numbered only when there are several packs."""
    return [Card(r, s, (p + 1) if packs > 1 else 0)
            for p in range(packs) for s in SUITS for r in RANKS]


def shuffled_deck(seed: int, packs: int = 1) -> list[Card]:
    deck = full_deck(packs)
    random.Random(seed).shuffle(deck)
    return deck


def rank_add(rank: int, step: int) -> int:
    """Rank arithmetic modulo 13 with ranks 1..13 (king = 13 = 0)."""
    return (rank - 1 + step) % 13 + 1


def interval_sequence(start: int, interval: int, length: int = 13) -> list[int]:
    """Ranks built from ``start`` by a fixed interval, wrapping past the king.

    ``interval`` may be negative for building downwards.
    """
    return [rank_add(start, interval * i) for i in range(length)]


def parse_rank(text: str) -> int:
    rank = _RANK_PARSE.get(str(text).strip().upper())
    if rank is None:
        raise CardError(f"{text!r} is not a rank: expected A, 2-10, J, Q or K")
    return rank
