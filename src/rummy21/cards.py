"""Cards, their text notation (RULES §1) and the shoe's canonical order (RULES §2).

A card *type* is one of 53 kinds: 52 suited cards and the printed joker. Copies of a
type are interchangeable, so a hand is a multiset (:class:`Hand`), held as its count vector
indexed by :attr:`Card.index` (suit-major S, H, D, C; ranks A..K; then ``JK``), which is
also the canonical order used for tie-breaks. :class:`Card` and :class:`Hand` parse and
print the notation, round-tripping exactly (python-chess's ``Move.from_uci`` and ``uci``).

>>> Card.parse("10h")
Card('10H')
>>> str(Card.parse("T♠")), Card.parse("jk").is_printed_joker
('10S', True)
>>> format_cards(parse_cards("AS 2S 3S"))
'AS 2S 3S'
>>> hand = Hand.parse("KS 2h, AS JK 2H")
>>> hand, str(hand), len(hand), hand.count(Card.parse("2H"))
(Hand('AS KS 2H 2H JK'), 'AS KS 2H 2H JK', 5, 2)
>>> Hand.parse(str(hand)) == hand, hand.counts[:13]
(True, (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import chain
from operator import attrgetter, getitem
from typing import overload

SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER_NAME = "JK"
#: Number of card types: 52 suited cards and the printed joker.
TYPE_COUNT = 53
JOKER_INDEX = 52
#: Copies of each suited card in the three-deck shoe.
DECKS = 3


class CardError(ValueError):
    """A card token or a collection of cards that the rules do not allow."""


class Suit(IntEnum):
    """The four suits, in canonical order (RULES §2)."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card type: ``rank`` 1 (Ace) .. 13 (King) and a suit, or the printed joker.

    The printed joker has ``rank == 0`` and ``suit is None``. Ordering is canonical.
    """

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < TYPE_COUNT:
            raise CardError(f"no card has index {self.index}")

    def __hash__(self) -> int:  # (cards key many memo tables: the index alone is enough)
        return self.index

    @classmethod
    def of(cls, rank: int, suit: Suit | int) -> Card:
        """The suited card of ``rank`` (1..13) and ``suit``.

        >>> Card.of(12, Suit.D)
        Card('QD')
        """
        if not 1 <= rank <= 13:
            raise CardError(f"rank must be 1..13, not {rank}")
        return _CARDS[int(suit) * 13 + rank - 1]

    @classmethod
    def joker(cls) -> Card:
        return _CARDS[JOKER_INDEX]

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse one token, case-insensitively (``T`` for 10 and suit symbols accepted). An
        unknown token is quoted in the error, its first 20 characters at most (a card is 3).

        >>> Card.parse("X" * 100_000)
        Traceback (most recent call last):
        ...
        rummy21.cards.CardError: unknown card 'XXXXXXXXXXXXXXXXXXXX…' (100,000 characters): ...
        """
        text = token.strip().upper()
        card = _BY_TEXT.get(text)
        if card is None:
            shown = (
                repr(token) if len(token) <= 20 else f"'{token[:20]}…' ({len(token):,} characters)"
            )
            raise CardError(
                f"unknown card {shown}: expected a rank A 2-10 J Q K (or T) "
                f"and a suit S H D C (or ♠ ♥ ♦ ♣), or JK"
            )
        return card

    @property
    def is_printed_joker(self) -> bool:
        return self.index == JOKER_INDEX

    # Rank, suit, points and text are read from tables built once (below): the solver and
    # the group checks read them in their inner loops.
    @property
    def rank(self) -> int:
        """1 (Ace) .. 13 (King); 0 for the printed joker."""
        return _RANK_OF[self.index]

    @property
    def suit(self) -> Suit | None:
        return _SUIT_OF[self.index]

    @property
    def points(self) -> int:
        """Face points before jokers are considered: A, K, Q, J = 10; 2..10 face value."""
        return _POINTS_OF[self.index]

    @property
    def rank_name(self) -> str:
        return JOKER_NAME if self.index == JOKER_INDEX else RANK_NAMES[self.rank - 1]

    def __str__(self) -> str:
        return _TEXT_OF[self.index]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def pretty(self) -> str:
        """The card with its suit as a symbol: ``10♥``, ``JK``."""
        if self.index == JOKER_INDEX:
            return JOKER_NAME
        return RANK_NAMES[self.rank - 1] + SUIT_SYMBOLS[self.index // 13]


_RANK_OF = tuple(i % 13 + 1 for i in range(JOKER_INDEX)) + (0,)
_SUIT_OF: tuple[Suit | None, ...] = tuple(Suit(i // 13) for i in range(JOKER_INDEX)) + (None,)
_POINTS_OF = tuple(10 if r == 1 or r >= 11 else r for r in _RANK_OF[:JOKER_INDEX]) + (0,)
_TEXT_OF = tuple(
    RANK_NAMES[r - 1] + SUIT_LETTERS[i // 13] for i, r in enumerate(_RANK_OF[:JOKER_INDEX])
) + (JOKER_NAME,)
_CARDS: tuple[Card, ...] = tuple(object.__new__(Card) for _ in range(TYPE_COUNT))
for _i, _c in enumerate(_CARDS):
    object.__setattr__(_c, "index", _i)
#: Every card type in canonical order.
ALL_CARDS: tuple[Card, ...] = _CARDS


def _text_forms() -> dict[str, Card]:
    forms: dict[str, Card] = {JOKER_NAME: _CARDS[JOKER_INDEX]}
    for card in _CARDS[:JOKER_INDEX]:
        ranks = [card.rank_name] + (["T"] if card.rank == 10 else [])
        suit = card.suit
        assert suit is not None
        for rank_text in ranks:
            for suit_text in (suit.letter, suit.symbol):
                forms[rank_text + suit_text] = card
    return forms


_BY_TEXT = _text_forms()


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse whitespace- or comma-separated tokens (or an iterable of tokens).

    >>> parse_cards("as, 10d JK")
    [Card('AS'), Card('10D'), Card('JK')]
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    exact = _BY_TEXT.get  # (most tokens are already in a canonical spelling: one lookup)
    return [exact(token) or Card.parse(token) for token in tokens]


def format_cards(cards: Iterable[Card], pretty: bool = False) -> str:
    return " ".join(card.pretty() if pretty else str(card) for card in cards)


card_index: Callable[[Card], int] = attrgetter("index")
"""A card's index: the key that orders cards canonically (as ``sorted`` does) without
comparing :class:`Card` objects, which costs a Python call per comparison."""


def sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards in canonical order.

    >>> sorted_cards(parse_cards("KS 2H AS JK"))
    (Card('AS'), Card('KS'), Card('2H'), Card('JK'))
    """
    return tuple(sorted(cards, key=card_index))


def counts_of(cards: Iterable[Card]) -> list[int]:
    """Count vector (length 53) of a collection of cards, as a new list: for the loops that
    add and take cards by number (the bots' hot paths). A hand is a :class:`Hand`, whose
    :attr:`~Hand.counts` are this, frozen."""
    counts = [0] * TYPE_COUNT
    for card in cards:
        counts[card.index] += 1
    return counts


def check_copies(cards: Sequence[Card], printed_jokers: int) -> None:
    """Raise :class:`CardError` if ``cards`` hold more copies of a card than the shoe does.

    >>> check_copies(parse_cards("AS AS AS AS"), 3)
    Traceback (most recent call last):
    ...
    rummy21.cards.CardError: impossible hand: 4 copies of AS, but the shoe holds only 3
    """
    check_counts(counts_of(cards), printed_jokers)


def check_counts(counts: Sequence[int], printed_jokers: int) -> None:
    """Raise :class:`CardError` unless ``counts`` is a count vector a hand could have: one
    whole number per kind of card (see :func:`counts_of`), none negative, none above the
    copies the shoe holds (``printed_jokers`` of the printed joker).

    >>> check_counts([0] * 52 + [4], 3)
    Traceback (most recent call last):
    ...
    rummy21.cards.CardError: impossible hand: 4 copies of JK, but the shoe holds only 3
    >>> check_counts([1, 2], 3)
    Traceback (most recent call last):
    ...
    rummy21.cards.CardError: a count vector has 53 numbers, one per kind of card, not 2
    """
    if len(counts) != TYPE_COUNT:
        raise CardError(
            f"a count vector has {TYPE_COUNT} numbers, one per kind of card, not {len(counts)}"
        )
    try:
        if (
            min(counts) >= 0
            and max(counts[:JOKER_INDEX]) <= DECKS
            and counts[JOKER_INDEX] <= printed_jokers
            and type(sum(counts)) is int  # (a float anywhere makes the sum a float)
        ):
            return
    except TypeError:
        pass  # a count that is no number: said below
    for index, count in enumerate(counts):
        limit = printed_jokers if index == JOKER_INDEX else DECKS
        if not isinstance(count, int):
            raise CardError(f"a count of copies is a whole number, not {count!r}")
        if count < 0:
            raise CardError(f"impossible hand: {count} copies of {_CARDS[index]}")
        if count > limit:
            raise CardError(
                f"impossible hand: {count} copies of {_CARDS[index]}, "
                f"but the shoe holds only {limit}"
            )


def without(cards: Iterable[Card], taken: Iterable[Card]) -> list[Card]:
    """``cards`` less one copy of each card of ``taken`` (in canonical order); a
    :class:`CardError` names the first card of ``taken`` that is not there.

    Every "take these cards out of a hand" — a layout's groups, a finish card, a declaration's
    loose cards — is this one function.

    >>> format_cards(without(parse_cards("2S 3S 4S 9H 9H"), parse_cards("9H 3S")))
    '2S 4S 9H'
    >>> without(parse_cards("2S 3S"), parse_cards("3S 3S"))
    Traceback (most recent call last):
    ...
    rummy21.cards.MissingCard: 3S is not there (one copy too many)
    """
    counts = counts_of(cards)
    held = list(counts)
    for card in taken:
        if not counts[card.index]:
            raise MissingCard(card, held[card.index] == 0)
        counts[card.index] -= 1
    return [_CARDS[i] for i, n in enumerate(counts) for _ in range(n)]


class MissingCard(CardError):
    """A card to take out of some cards is not among them (:func:`without`)."""

    def __init__(self, card: Card, never: bool) -> None:
        super().__init__(f"{card} is not there" + ("" if never else " (one copy too many)"))
        self.card = card


@dataclass(frozen=True, slots=True)
class Hand(Sequence[Card]):
    """Some cards held — a hand, or any multiset of cards — as a value: its count vector
    (:attr:`counts`), its cards in canonical order (iterating, indexing, ``len``, ``in``,
    :meth:`count`), and its text, which :meth:`parse` reads back (``str``, canonical order).

    It says nothing of how many cards a hand should have or of the copies a shoe holds:
    those are the rules' (:func:`check_counts`, and the readers of a hand).

    >>> hand = Hand.of(["QS", Card.parse("AS"), "QS"])
    >>> hand, hand[0], Card.parse("QS") in hand, hand.count(Card.parse("QS"))
    (Hand('AS QS QS'), Card('AS'), True, 2)
    >>> hand.plus(Card.joker()).minus(parse_cards("QS AS")).pretty()
    'Q♠ JK'
    >>> Hand.parse("AS XX")
    Traceback (most recent call last):
    ...
    rummy21.cards.CardError: unknown card 'XX': expected a rank A 2-10 J Q K (or T) and a suit ...
    """

    counts: tuple[int, ...]
    """How many copies of each card kind (by :attr:`Card.index`): 53 whole numbers."""
    _cards: tuple[Card, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        counts = self.counts
        if type(counts) is not tuple:
            counts = tuple(counts)
            object.__setattr__(self, "counts", counts)
        if len(counts) != TYPE_COUNT:
            raise CardError(
                f"a count vector has {TYPE_COUNT} numbers, one per kind of card, not {len(counts)}"
            )
        try:
            cards = tuple(chain.from_iterable(map(getitem, _COPIES, counts)))
        except (IndexError, TypeError):  # (more copies than _COPIES holds, or no number)
            cards = None
        if cards is None or not all(type(n) is int for n in counts) or min(counts) < 0:
            for count in counts:
                if type(count) is not int or count < 0:
                    raise CardError(f"a count of copies is a whole number, not {count!r}")
            cards = tuple(_CARDS[i] for i, n in enumerate(counts) for _ in range(n))
        object.__setattr__(self, "_cards", cards)

    @classmethod
    def of(cls, cards: Hand | str | Iterable[Card | str]) -> Hand:
        """The hand of ``cards``: a hand (itself), a text (:meth:`parse`), or cards and card
        tokens, in any order."""
        if isinstance(cards, Hand):
            return cards
        if isinstance(cards, str):
            return cls.parse(cards)
        counts = [0] * TYPE_COUNT
        for card in cards:
            counts[(card if isinstance(card, Card) else Card.parse(card)).index] += 1
        return cls(tuple(counts))

    @classmethod
    def parse(cls, text: str) -> Hand:
        """The hand of a text of card tokens (whitespace or commas between them, any order,
        any spelling :meth:`Card.parse` reads); ``str`` prints it back in canonical order."""
        return cls.of(parse_cards(text))

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in canonical order."""
        return self._cards

    @overload
    def __getitem__(self, index: int) -> Card: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Card, ...]: ...
    def __getitem__(self, index: int | slice) -> Card | tuple[Card, ...]:
        return self._cards[index]

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and self.counts[card.index] > 0

    def count(self, card: object) -> int:
        """How many copies of ``card`` the hand holds."""
        return self.counts[card.index] if isinstance(card, Card) else 0

    def plus(self, *cards: Card) -> Hand:
        """The hand with ``cards`` added."""
        counts = list(self.counts)
        for card in cards:
            counts[card.index] += 1
        return Hand(tuple(counts))

    def minus(self, cards: Iterable[Card]) -> Hand:
        """The hand less one copy of each of ``cards`` (:func:`without`: a
        :class:`MissingCard` names the first that is not there)."""
        return Hand.of(without(self._cards, cards))

    def __str__(self) -> str:
        return format_cards(self._cards)

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"

    def pretty(self) -> str:
        """The cards with their suits as symbols: ``10♥ J♥ JK``."""
        return format_cards(self._cards, pretty=True)


# _COPIES[i][n]: n copies of card i, so that a count vector becomes cards without a Python
# loop (every view lists its seat's hand).
_COPIES = tuple(tuple((card,) * n for n in range(16)) for card in _CARDS)

_DECKS_IN_ORDER = list(_CARDS[:JOKER_INDEX]) * DECKS


def canonical_shoe(printed_jokers: int) -> list[Card]:
    """The shoe in canonical order (RULES §2): 3 decks of S, H, D, C × A..K, then the jokers
    (a new list, to shuffle)."""
    return _DECKS_IN_ORDER + [_CARDS[JOKER_INDEX]] * printed_jokers
