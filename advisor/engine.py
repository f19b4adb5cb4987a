"""The one protocol every game plugs into.

Modelled on python-chess (a small typed core: ``Board``, ``Move``,
``legal_moves``, ``push``/``pop``, a printable notation) and on OpenSpiel
(state, legal actions, apply, chance events, observation versus hidden
state).

A game is a module in ``advisor/games/`` that defines ``GAME = SomeGame()``,
a subclass of :class:`Game`. Nothing outside that module knows the game's
rules.

State
    ``State.areas`` maps an area name (from the game's :class:`Layout`) to a
    list of piles; each pile is a list of :class:`Slot` from the bottom (the
    first card put down, furthest from the player in a fan) to the top (the
    exposed card). ``State.info`` holds the game's phase data (session
    number, chosen interval, counters) as plain JSON values.

Slot tokens in JSON
    ``10h``      face up, known
    ``~10h``     face down, but known (to the dealer, or remembered)
    ``~``        face down, unknown
    ``?``        face up but unreadable / not yet seen
    Any card may carry a copy suffix: ``10h:2``.

Move notation
    ``column3>pile5``       the top card of column 3 onto pile 5
    ``column3x4>column5``   the top four cards of column 3, as one set
    ``deal`` / ``redeal`` / ``choose down 2``  game actions, optional words after
    Area names are lowercase words without trailing digits; indices count
    from 1. On input, any unique prefix of an area name works (``c3>p5``),
    and the source may be named by its card (``7h>column5``).
"""
from __future__ import annotations

import copy as _copy
import functools
import json
import random
import re
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Sequence

from .cards import Card, CardError, full_deck


class PatienceError(ValueError):
    """Base of every error we show to a person: the message names the problem."""


class StateError(PatienceError):
    """A state that is malformed or impossible."""


class MoveError(PatienceError):
    """A move that cannot be read, or is illegal (the message says why)."""


class UnknownGame(PatienceError):
    pass


# --------------------------------------------------------------------- slots

@dataclass(frozen=True)
class Slot:
    """A place a card lies: ``card`` is None when its identity is unknown."""

    card: Card | None
    face_up: bool = True

    @classmethod
    def parse(cls, token: Any) -> "Slot":
        if not isinstance(token, str):
            raise StateError(f"a card must be written as text like '10h' or '~', got {token!r}")
        t = token.strip()
        face_up = not t.startswith("~")
        if not face_up:
            t = t[1:]
        if t in ("", "?"):
            if t == "" and face_up:
                raise StateError("an empty string is not a card; use '?' for an unreadable card or '~' for a face-down one")
            return cls(None, face_up)
        try:
            return cls(Card.parse(t), face_up)
        except CardError as e:
            raise StateError(str(e)) from None

    def token(self) -> str:
        body = str(self.card) if self.card is not None else ("?" if self.face_up else "")
        return body if self.face_up else "~" + body

    @property
    def known(self) -> bool:
        return self.card is not None

    def turned_up(self) -> "Slot":
        return Slot(self.card, True)

    def turned_down(self) -> "Slot":
        return Slot(self.card, False)

    def __str__(self) -> str:
        return self.token()


def up(card: Card) -> Slot:
    return Slot(card, True)


def down(card: Card | None) -> Slot:
    return Slot(card, False)


Pile = list  # list[Slot], bottom first


# -------------------------------------------------------------------- layout

@dataclass(frozen=True)
class Area:
    """A named part of the physical layout and where it lies on the table.

    Geometry is in card widths (a card is 1 wide and ``CARD_ASPECT`` tall),
    x to the right and y towards the player, from the top-left of the layout.
    Pile ``i`` lies at ``origin + i * step``; card ``j`` of a pile lies a
    further ``j * fan`` away, so ``fan == (0, 0)`` is a squared pile and
    ``(0, 0.25)`` a column fanned towards the player.
    """

    name: str
    kind: str        # column, row, fan, pile, key, foundation, rubbish, stock, facedown, discard, reserve, cell
    count: int       # number of piles in the area (0 = grows without a fixed number)
    origin: tuple[float, float] = (0.0, 0.0)
    step: tuple[float, float] = (1.2, 0.0)
    fan: tuple[float, float] = (0.0, 0.0)
    face: str = "up"          # up, down or mixed
    on_table: bool = True     # False for cards put aside out of view (discards, stock in hand)
    note: str = ""
    wrap: int = 0             # piles per line when an area is a grid (Kings: four rows of three); 0 = one line
    wrap_step: tuple[float, float] = (0.0, 0.0)   # offset from one line of the grid to the next

    KINDS = frozenset("column row fan pile key foundation rubbish stock facedown discard reserve cell".split())

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z][a-z-]*[a-z]|[a-z]", self.name):
            raise ValueError(f"area name {self.name!r}: lowercase letters and hyphens, no trailing digits")
        if self.kind not in self.KINDS:
            raise ValueError(f"area kind {self.kind!r} unknown")

    def position(self, pile: int, card: int = 0) -> tuple[float, float]:
        """Top-left corner of card ``card`` of pile ``pile``, in card widths."""
        line, col = divmod(pile, self.wrap) if self.wrap else (0, pile)
        return (self.origin[0] + col * self.step[0] + line * self.wrap_step[0] + card * self.fan[0],
                self.origin[1] + col * self.step[1] + line * self.wrap_step[1] + card * self.fan[1])

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "count": self.count,
                "origin": list(self.origin), "step": list(self.step), "fan": list(self.fan),
                "face": self.face, "on_table": self.on_table, "note": self.note,
                "wrap": self.wrap, "wrap_step": list(self.wrap_step)}


CARD_ASPECT = 1.4


@dataclass(frozen=True)
class Layout:
    areas: tuple[Area, ...]

    def __getitem__(self, name: str) -> Area:
        for a in self.areas:
            if a.name == name:
                return a
        raise KeyError(name)

    @property
    def names(self) -> list[str]:
        return [a.name for a in self.areas]

    def resolve(self, prefix: str) -> str:
        """Area name from a unique prefix (``c`` -> ``column``)."""
        if prefix in self.names:
            return prefix
        hits = [n for n in self.names if n.startswith(prefix)]
        if len(hits) == 1:
            return hits[0]
        if not hits:
            raise MoveError(f"no area called {prefix!r}; areas are: {', '.join(self.names)}")
        raise MoveError(f"{prefix!r} is ambiguous: it could be {', '.join(hits)}")

    def to_json(self) -> list[dict]:
        return [a.to_json() for a in self.areas]


# --------------------------------------------------------------------- moves

@dataclass(frozen=True, order=True)
class Loc:
    area: str
    index: int  # 0-based pile index

    def __str__(self) -> str:
        return f"{self.area}{self.index + 1}"

    def human(self) -> str:
        return f"{self.area.replace('-', ' ')} {self.index + 1}"


@dataclass(frozen=True, order=True)
class Move:
    """A player's action. ``action == 'move'`` carries cards from ``src`` to ``dst``."""

    action: str = "move"
    src: Loc | None = None
    dst: Loc | None = None
    count: int = 1
    args: tuple[str, ...] = ()

    @classmethod
    def cards(cls, src: Loc, dst: Loc, count: int = 1) -> "Move":
        return cls("move", src, dst, count)

    @classmethod
    def act(cls, action: str, *args: Any) -> "Move":
        return cls(action, None, None, 1, tuple(str(a) for a in args))

    def __str__(self) -> str:
        if self.action == "move":
            n = f"x{self.count}" if self.count != 1 else ""
            return f"{self.src}{n}>{self.dst}"
        return " ".join((self.action, *self.args))


_LOC_RE = re.compile(r"^([a-z][a-z-]*?)(\d+)$")
_SRC_RE = re.compile(r"^(.+?)(?:x(\d+))?$")


def _parse_loc(text: str, layout: Layout) -> Loc:
    m = _LOC_RE.match(text)
    if not m:
        raise MoveError(f"{text!r} is not a place: expected an area and a number, like column3")
    area = layout.resolve(m.group(1))
    index = int(m.group(2)) - 1
    if index < 0:
        raise MoveError(f"{text!r}: places are numbered from 1")
    return Loc(area, index)


def parse_move(text: str, layout: Layout, state: "State | None" = None, sources=None) -> Move:
    """Read a move in our notation (see the module docstring).

    ``sources`` (a callable giving the places legal moves start from) settles a
    card named as the source when it lies exposed in several places, e.g. a
    king in a column and another crowning a finished pile.
    """
    if not isinstance(text, str) or not text.strip():
        raise MoveError("empty move: write it like column3>pile5, or an action such as deal")
    t = " ".join(text.strip().split())
    if ">" not in t:
        words = t.split(" ")
        if not re.fullmatch(r"[a-z][a-z-]*", words[0]):
            raise MoveError(f"{text!r} is not a move: write it like column3>pile5, or an action such as deal")
        return Move.act(words[0], *words[1:])
    left, _, right = (p.strip() for p in t.partition(">"))
    m = _SRC_RE.match(left)
    count = 1
    src_text = left
    if m and m.group(2) and _LOC_RE.match(m.group(1)):
        src_text, count = m.group(1), int(m.group(2))
    dst = _parse_loc(right, layout)
    if _LOC_RE.match(src_text):
        return Move.cards(_parse_loc(src_text, layout), dst, count)
    try:
        card = Card.parse(src_text)
    except CardError:
        raise MoveError(f"{left!r} is neither a place (column3) nor a card (7h)") from None
    if state is None:
        raise MoveError(f"{left!r} names a card; a state is needed to find where it lies")
    found = [Loc(a, i) for a, piles in state.areas.items() for i, p in enumerate(piles)
             if p and p[-1].face_up and p[-1].card is not None and p[-1].card.face == card.face
             and (card.copy == 0 or p[-1].card.copy == card.copy)]
    if not found:
        raise MoveError(f"{card.pretty} is not an exposed card in this state")
    if len(found) > 1 and sources is not None:
        movable = set(sources())
        found = [f for f in found if f in movable] or found
    if len(found) > 1:
        raise MoveError(f"{card.pretty} is exposed in {len(found)} places ({', '.join(map(str, found))}); name the place instead")
    return Move.cards(found[0], dst, 1)


# --------------------------------------------------------------------- state

@dataclass
class State:
    game: str
    areas: dict[str, list[list[Slot]]]
    info: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> "State":
        return State(self.game, {a: [list(p) for p in piles] for a, piles in self.areas.items()},
                     _copy.deepcopy(self.info), dict(self.options))

    def pile(self, loc: Loc) -> list[Slot]:
        return self.areas[loc.area][loc.index]

    def top(self, loc: Loc) -> Slot | None:
        p = self.pile(loc)
        return p[-1] if p else None

    def slots(self) -> Iterator[tuple[Loc, int, Slot]]:
        for a, piles in self.areas.items():
            for i, p in enumerate(piles):
                for j, s in enumerate(p):
                    yield Loc(a, i), j, s

    def known_cards(self) -> list[Card]:
        # Not through slots(): the reader validates thousands of candidate states a photo,
        # and building a Loc for every card was most of the cost.
        return [s.card for piles in self.areas.values() for p in piles for s in p if s.card is not None]

    def card_count(self) -> int:
        return sum(len(p) for piles in self.areas.values() for p in piles)

    def to_json(self) -> dict:
        return {"game": self.game, "options": dict(self.options), "info": _copy.deepcopy(self.info),
                "areas": {a: [[s.token() for s in p] for p in piles] for a, piles in self.areas.items()}}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    @classmethod
    def from_json(cls, data: Any, check: bool = True) -> "State":
        """Read a state and, unless ``check`` is false, validate it fully (its game's own checks included)."""
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as e:
                raise StateError(f"the state is not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
        if not isinstance(data, dict):
            raise StateError("a state must be a JSON object with 'game' and 'areas'")
        for key in ("game", "areas"):
            if key not in data:
                raise StateError(f"the state has no {key!r} field")
        game = get_game(data["game"])
        areas_in = data["areas"]
        if not isinstance(areas_in, dict):
            raise StateError("'areas' must be an object mapping area names to lists of piles")
        info = data.get("info", {}) or {}
        options = data.get("options", {}) or {}
        if not isinstance(info, dict) or not isinstance(options, dict):
            raise StateError("'info' and 'options' must be JSON objects")
        options = game.check_options(options)
        layout = game.layout(options)
        areas: dict[str, list[list[Slot]]] = {}
        for name, piles in areas_in.items():
            if name not in layout.names:
                raise StateError(f"{game.name} has no area {name!r}; its areas are: {', '.join(layout.names)}")
            if not isinstance(piles, list) or not all(isinstance(p, list) for p in piles):
                raise StateError(f"area {name!r} must be a list of piles, each a list of cards")
            areas[name] = [[Slot.parse(t) for t in p] for p in piles]
        for a in layout.areas:
            areas.setdefault(a.name, [[] for _ in range(a.count)])
        state = cls(game.id, {n: areas[n] for n in layout.names}, info, options)
        problems = game.validate(state) if check else []
        if problems:
            raise StateError(f"impossible {game.name} state: " + "; ".join(problems))
        return state


# ---------------------------------------------------------------------- game

@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    help: str
    choices: tuple | None = None


def _remembered_layout(build):
    """A game's ``layout`` made once for each set of options: layouts are frozen, and the reader
    asks for one thousands of times a photo (every ``validate`` of a candidate state does)."""
    @functools.wraps(build)
    def layout(self, options: dict | None) -> Layout:
        try:
            key = tuple(sorted((options or {}).items()))
            made = self.__dict__.setdefault("_layouts", {})
            if key not in made:
                made[key] = build(self, options)
            return made[key]
        except TypeError:              # an option value that cannot be a key: make it each time
            return build(self, options)
    return layout


class Game(ABC):
    """Base class of every game. Subclasses set the class attributes and the abstract methods."""

    id: str = ""
    name: str = ""
    source: str = ""          # the rules source, by name
    packs: int = 1
    option_list: tuple[Option, ...] = ()
    hidden_information: bool = True   # False when every card is face up (exact solving possible)

    # -- options
    def check_options(self, options: dict | None) -> dict:
        options = dict(options or {})
        known = {o.name: o for o in self.option_list}
        for k, v in options.items():
            if k not in known:
                raise StateError(f"{self.name} has no option {k!r}" + (f"; options are: {', '.join(known)}" if known else ""))
            o = known[k]
            if o.choices is not None and v not in o.choices:
                raise StateError(f"option {k!r} must be one of {list(o.choices)}, got {v!r}")
            if o.choices is None and type(v) is not type(o.default):
                raise StateError(f"option {k!r} must be a {type(o.default).__name__}, got {v!r}")
        return {o.name: options.get(o.name, o.default) for o in self.option_list}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "layout" in cls.__dict__:
            cls.layout = _remembered_layout(cls.__dict__["layout"])

    # -- what every game provides
    @abstractmethod
    def layout(self, options: dict) -> Layout: ...

    @abstractmethod
    def deal(self, rng: random.Random, options: dict) -> State:
        """Shuffle and lay out, applying the game's deal-time rules."""

    @abstractmethod
    def legal_moves(self, state: State) -> list[Move]: ...

    @abstractmethod
    def apply(self, state: State, move: Move) -> None:
        """Carry out a legal move on ``state`` in place."""

    @abstractmethod
    def is_won(self, state: State) -> bool: ...

    def why_illegal(self, state: State, move: Move) -> str | None:
        """None when legal, else the reason in plain words. Games override with better reasons."""
        if move in self.legal_moves(state):
            return None
        return f"{move} is not a legal move here"

    def describe(self, state: State, move: Move) -> str:
        """The move in words, for a person."""
        if move.action != "move":
            return str(move)
        src = state.pile(move.src) if move.src.index < len(state.areas.get(move.src.area, [])) else []
        moving = src[-move.count:] if len(src) >= move.count else []
        what = " ".join(s.card.pretty if s.card else "?" for s in moving) or "card"
        return f"{what} from {move.src.human()} to {move.dst.human()}"

    def status(self, state: State) -> str:
        """``won``, ``stuck`` (no legal move left) or ``playing``."""
        if self.is_won(state):
            return "won"
        return "playing" if self.legal_moves(state) else "stuck"

    def deck(self) -> list[Card]:
        return full_deck(self.packs)

    def could_hold(self, area: str, pile: int, depth: int, card: Card) -> bool:
        """Whether the rules allow ``card`` at ``depth`` (0 = bottom) of pile ``pile`` of ``area``.

        Used when unknown cards are filled in at random (search over sampled
        worlds): a world the rules could never produce must not be sampled.
        By default any card may lie anywhere.
        """
        return True

    def depth_under(self, state: State, loc: Loc, top: Card) -> int | None:
        """How many cards the rules put under ``top`` in the squared pile at ``loc``, or None if they cannot say.

        The camera sees only the top card of a squared pile; a foundation built
        in a fixed order (A, 2, 3 ... or by an interval) tells how deep it is.
        """
        return None

    def settle_unseen(self, state: State) -> list[str]:
        """Split the cards no photo can count among the places out of sight as the rules require.

        ``state`` is a first photo's reading, every card it could not place lying in the stock (or
        other out-of-sight area) and each squared pile as deep as the deal or the rules made it.
        Where the rules fix how those cards must be split (Interregnum's stock goes out eight at a
        time onto the lowest row, so the cards beyond a whole number of rows lie under that row),
        move unknown cards from one unseen place to another so the split is one they allow, and say
        in words what was assumed. By default nothing is moved.
        """
        return []

    def allowed_faces(self, state: State, loc: Loc) -> frozenset[tuple[int, str]] | None:
        """The (rank, suit) faces the rules allow anywhere in the pile at ``loc``, or None where any
        card may lie there (Kings: a king's column holds only its own suit).

        The reader tries the same rank in an allowed suit where the rules object to what the
        photo shows, however sure the index classifier was of its reading."""
        return None

    def completion(self, state: State) -> float:
        """How far the game has come, 0..1: by default the share of cards on foundation areas."""
        if self.is_won(state):
            return 1.0
        layout = self.layout(state.options)
        home = sum(len(p) for a in layout.areas if a.kind == "foundation" for p in state.areas.get(a.name, []))
        return home / max(1, len(self.deck()))

    def observation(self, state: State) -> State:
        """What the player sees: face-down cards become unknown."""
        obs = state.copy()
        for piles in obs.areas.values():
            for p in piles:
                for j, s in enumerate(p):
                    if not s.face_up:
                        p[j] = Slot(None, False)
        return obs

    def photo_info(self, seen: State) -> dict:
        """Phase data for a layout first seen in a photo, with nothing earlier known.

        ``seen`` holds the cards read, with a fresh deal's info. By default that
        info is kept; games whose info records what happened during the deal
        (Kings' counts) override it with what a newcomer to the table could
        know, and games whose phase shows in the cards (Pendulum's building
        order) infer it from them.
        """
        return dict(seen.info)

    def photo_guesses(self, state: State) -> list[str]:
        """What ``photo_info`` had to guess about ``state``, in words for the player to check."""
        return []

    def photo_equivalents(self, state: State) -> list[tuple[State, dict[tuple[str, int], tuple[str, int]]]]:
        """Other states no photo can tell from ``state`` and the game plays alike, each with where
        each pile of ``state`` lies in it. By default none; Poker Patience records its square at
        a place fixed by the first card laid, which a photo does not show."""
        return []

    def photo_objections(self, state: State) -> list[str]:
        """``validate``'s objections to a state read from a photo, and those to the cards read around
        places whose index was not read, where no card could lie there. By default the same as
        ``validate``; Pendulum's packets step one interval a card, so a packet read ``7♣ ? 8♥`` is
        impossible whatever the unread card is."""
        return self.validate(state)

    def information_state(self, state: State, history: Sequence[tuple[State, Move]] = ()) -> State:
        """What a player who remembers everything seen so far knows (OpenSpiel's information state).

        By default what is in view now; games where covered cards were seen
        earlier (Kings) override it to recall them from the history.
        """
        return self.observation(state)

    def validate(self, state: State) -> list[str]:
        """Problems that make a state impossible. Games extend with their own checks; those need
        only a state that is not ``misshapen``: too many cards or copies hide none of the game's
        own objections (a reader weighing two readings counts them all)."""
        problems = self._shape_problems(state)
        deck = self._deck_faces()
        known = state.known_cards()
        seen = Counter(c.face for c in known)
        for face, n in sorted(seen.items()):
            allowed = deck.get(face, 0)
            if n > allowed:
                card = Card(*face)
                problems.append(f"{count_word(n)} {card.pretty} seen in a {count_word(self.packs)}-pack game" if allowed
                                else f"{card.pretty} is not in this game's deck")
        copies = Counter(c for c in known if c.copy)
        for c, n in copies.items():
            if n > 1:
                problems.append(f"{c} (the same physical copy) appears {n} times")
            if c.copy > self.packs:
                problems.append(f"{c}: copy {c.copy} does not exist in a {self.packs}-pack game")
        total = state.card_count()
        size = sum(deck.values())
        if total > size:
            problems.append(f"{total} cards in the state but the game has only {size}")
        return problems

    def _shape_problems(self, state: State) -> list[str]:
        problems = []
        for a in self.layout(state.options).areas:
            piles = state.areas.get(a.name)
            if piles is None:
                problems.append(f"area {a.name!r} is missing")
            elif a.count and len(piles) != a.count:
                problems.append(f"{a.name} must have {a.count} piles, not {len(piles)}")
        return problems

    def misshapen(self, state: State) -> bool:
        """Whether an area is missing or holds the wrong number of piles (the game's own checks
        cannot run on such a state)."""
        return bool(self._shape_problems(state))

    def _deck_faces(self) -> Counter:
        # validate runs often (the reader tries alternatives): count the deck once per game object.
        cached = self.__dict__.get("_deck_faces_cache")
        if cached is None:
            cached = self.__dict__["_deck_faces_cache"] = Counter(c.face for c in self.deck())
        return cached

    # -- convenience
    def new(self, seed: int, options: dict | None = None) -> State:
        return self.deal(random.Random(seed), self.check_options(options))

    def parse_move(self, state: State, text: str) -> Move:
        return parse_move(text, self.layout(state.options), state,
                          sources=lambda: {m.src for m in self.legal_moves(state) if m.src is not None})

    def info(self) -> dict:
        return {"id": self.id, "name": self.name, "source": self.source, "packs": self.packs,
                "options": [{"name": o.name, "default": o.default, "help": o.help,
                             "choices": list(o.choices) if o.choices else None} for o in self.option_list]}


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def a_or_an(name: str) -> str:
    """'an Aunty Allis layout', 'a Kings layout'."""
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def count_word(n: int) -> str:
    """'three 7♠', not '3 7♠': a count next to a card's rank reads badly in figures."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


# --------------------------------------------------------------------- board

class Board:
    """A state with its move stack, as in python-chess."""

    def __init__(self, state: State):
        self.game = get_game(state.game)
        self.state = state
        self.move_stack: list[Move] = []
        self._states: list[State] = []

    @classmethod
    def deal(cls, game_id: str, seed: int, options: dict | None = None) -> "Board":
        return cls(get_game(game_id).new(seed, options))

    @property
    def legal_moves(self) -> list[Move]:
        return self.game.legal_moves(self.state)

    def parse(self, text: str) -> Move:
        return self.game.parse_move(self.state, text)

    def why_illegal(self, move: Move | str) -> str | None:
        if isinstance(move, str):
            move = self.parse(move)
        return self.game.why_illegal(self.state, move)

    def push(self, move: Move | str) -> Move:
        if isinstance(move, str):
            move = self.parse(move)
        reason = self.game.why_illegal(self.state, move)
        if reason is not None:
            raise MoveError(reason)
        self._states.append(self.state.copy())
        self.game.apply(self.state, move)
        self.move_stack.append(move)
        return move

    def pop(self) -> Move:
        if not self.move_stack:
            raise MoveError("nothing to undo")
        self.state = self._states.pop()
        return self.move_stack.pop()

    def status(self) -> str:
        return self.game.status(self.state)


# ------------------------------------------------------------------ registry

_REGISTRY: dict[str, Game] | None = None


def games() -> dict[str, Game]:
    """Every game module in ``advisor/games`` that defines ``GAME``, by id."""
    global _REGISTRY
    if _REGISTRY is None:
        import importlib
        import pkgutil

        from . import games as pkg
        reg: dict[str, Game] = {}
        for m in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if m.name.startswith("_"):
                continue
            mod = importlib.import_module(f"{pkg.__name__}.{m.name}")
            g = getattr(mod, "GAME", None)
            if isinstance(g, Game):
                reg[g.id] = g
        _REGISTRY = reg
    return _REGISTRY


def get_game(game_id: Any) -> Game:
    reg = games()
    if not isinstance(game_id, str) or game_id not in reg:
        raise UnknownGame(f"unknown game {game_id!r}; known games: {', '.join(sorted(reg))}")
    return reg[game_id]


def playout(state: State, rng: random.Random, max_moves: int = 5000) -> tuple[State, list[Move]]:
    """Random legal moves until the game ends (or ``max_moves``)."""
    game = get_game(state.game)
    state = state.copy()
    moves: list[Move] = []
    for _ in range(max_moves):
        legal = game.legal_moves(state)
        if not legal:
            break
        m = rng.choice(legal)
        game.apply(state, m)
        moves.append(m)
    return state, moves


def conserved(before: Iterable[Card], after: Iterable[Card]) -> bool:
    return Counter(before) == Counter(after)
