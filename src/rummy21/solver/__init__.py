"""The exact hand solver: the best arrangement of a hand into groups (RULES §4, §5 A, §7).

Algorithm
---------
A dynamic programme sweeps the 14 *positions* of a suit — 1 (Ace low), 2..13, 14 (Ace
high) — over all four suits at once, as van Rijn, Takes and Vis do for Rummikub. Its state is

* for each suit, the multiset of *open runs* (sequences still growing), each described only
  by its length capped at 3, whether it is still pure, and whether it started at the Ace-low
  position (such a run may not also take the Ace-high place), plus how many Aces of the suit
  were set aside at position 1 to end Q-K-A runs at position 14;
* the number of pure groups completed so far, capped at the number the rules need;
* the *joker balance*: jokers demanded so far minus joker cards supplied so far.

At each position every copy of the card there is either a natural card (continuing or
starting a run, in a tunnela, or in the *pool* of its rank), or — if it is a joker card — a
joker; each open run continues with a natural card, continues with a joker, or ends (a run
shorter than 3 ends by taking 1 or 2 jokers as padding). The pool of a rank is split into
sets (one natural per suit, jokers making up 3..max) or left loose. The value kept per state
is the least number of points left loose. Jokers are interchangeable, so only their count
matters; printed jokers supply jokers from the start (or form tunnelas).

At the end a state with enough pure groups and a non-positive balance is an arrangement for
the *pure save*; one with nothing loose and every joker placed (balance zero, or three or more
spare jokers forming a joker group) proves *Option A*. Back-pointers rebuild the groups.
Per-suit transitions and pool splits depend only on small tuples and are memoised across
hands, so the work per hand is a few dictionary operations per reachable state.

What keeps the sweep small (each rule is argued where it is applied):

* states are compared on (joker balance, loose points) and only unbeaten ones are kept;
* jokers owed by open short runs, loose points no arrangement can avoid (isolated cards),
  and the pure groups the remaining cards could still form prune hopeless states early;
* joker cards play as themselves only where it matters (pure groups), and jokers bridge
  only gaps that padding could not close as cheaply;
* a greedy arrangement often proves Option A at once and otherwise bounds the loose points;
  a first sweep looks only at arrangements with nothing loose (when that seems likely).

The same sweep answers two more questions for bots, with one more number in its states:

* :func:`least_after_put_aside` — the best card to put aside from 22: exactly one card (a
  loose one, or a joker card) may be dropped at no cost;
* :func:`replacements` — the fewest cards to replace for Option A: every card is worth one
  point, a loose card is replaced and so supplies a joker, a card a pure run lacks may be
  bought as itself (owing one replacement), and every joker must be placed.

Mechanics that only make it faster: a suit's state is a small int holding its counts, a
sweep's states are packed into one int each (a move adds a precomputed number), and a suit
with no open run and no card at a position is skipped there. Callers that solve many hands
may pause the cycle collector around each solve (:func:`paused_collection`, which says why).

Layout
------
One idea a module, in the order a solve uses them:

* :mod:`.search` — :func:`solve`: the quick first pass, then which sweeps to run;
* :mod:`.quick` — the quick first pass: a greedy arrangement; fitting loose cards in;
* :mod:`.greedy` — the greedy arrangement on plain ints (in C too: see :mod:`.core`);
* :mod:`.bounds` — what the cards can still do: pure groups, points sure to be loose;
* :mod:`.sweep` — one sweep: what it looks for (:class:`~.sweep.SweepSpec`, its
  :class:`~.sweep.Variant`), what it precomputes, its run over the positions;
* :mod:`.core` — the hot path: one suit's moves over a stage, the close of a position —
  plain ints, dicts and tuples; ``_native.c`` is its C twin (with the move rows of
  :mod:`.moves`), compiled with the tables ``_native_tables`` writes from the Python
  definitions, and :mod:`.backend` chooses between them (``RUMMY21_SOLVER``);
* :mod:`.moves` — what one suit does at one position (memoised move tables);
* :mod:`.runs` — a suit's state: run classes, phases, the state as a number;
* :mod:`.packing` — the sweep's states packed into one int;
* :mod:`.pools` — splitting a rank's pool into sets;
* :mod:`.rebuild` — an arrangement rebuilt from a sweep's back-pointers;
* :mod:`.put_aside` and :mod:`.replace` — the 22-card and distance variants;
* :mod:`.results` — what the solver returns; :mod:`.collection` — the opt-in pause of the
  cycle collector.

>>> from rummy21.cards import Hand
>>> from rummy21.jokers import Jokers
>>> from rummy21.ruleset import RuleSet
>>> hand = Hand.parse("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C")
>>> with paused_collection():
...     found = solve(hand.counts, Jokers.from_cut("7D"), RuleSet())
>>> found.pure_save, sorted(meld.kind.value for meld in found.option_a.groups)
(0, ['impure_sequence', 'pure_sequence', 'pure_sequence', 'set', 'set', 'set', 'tunnela'])
"""

from __future__ import annotations

from rummy21.solver.backend import max_pure_groups
from rummy21.solver.collection import paused_collection
from rummy21.solver.put_aside import least_after_put_aside, quick_put_aside
from rummy21.solver.replace import replacements
from rummy21.solver.results import Arrangement, Meld, Replacement, Solution
from rummy21.solver.search import solve, solve_unchecked

__all__ = [
    "Arrangement",
    "Meld",
    "Replacement",
    "Solution",
    "least_after_put_aside",
    "max_pure_groups",
    "paused_collection",
    "quick_put_aside",
    "replacements",
    "solve",
    "solve_unchecked",
]
