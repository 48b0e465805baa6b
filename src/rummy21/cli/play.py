"""``rummy21 play``: a match in the terminal, you (seat 0) against 1 to 5 bots.

Everything is read line by line from standard input, so a game can also be scripted:
``printf 's\\n7H\\nq\\n' | rummy21 play --seed 1``. The hand is shown as the coach
(:func:`rummy21.bots.advice.advise`) lays it out, with what it would pay and why; ``hint`` is
the coach's advice. The CLI works out no rule itself: what may be taken, discarded or
dropped, and at what cost, comes from the table and its :class:`~rummy21.game.view.View`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import typer
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from rummy21.analysis import Analysis, ShownGroup, analyze
from rummy21.bots import (
    BOT_NAMES,
    Bot,
    check_bots_load,
    make_bots,
    parse_bot_names,
    tell_deal_over,
)
from rummy21.bots.advice import Advice, advise, layout_of
from rummy21.bots.external import check_exec_names, set_move_time
from rummy21.cards import Card, CardError, Hand
from rummy21.cli import EXIT_INTERRUPTED, app
from rummy21.cli.card_text import card_text, cards_text, pretty_cards, sentence_text
from rummy21.cli.options import bot_time_option, rules_option
from rummy21.game import (
    ActionSyntaxError,
    Declare,
    Discard,
    Draw,
    Drop,
    GameError,
    IllegalActionError,
    Match,
    NotYourTurnError,
    Phase,
    Source,
    Table,
    TimeOut,
    parse_action,
)
from rummy21.game.actions import Action
from rummy21.game.declaration import judge, why_invalid
from rummy21.game.match import MOST_DEALS, parse_point_value
from rummy21.game.narration import TONES, Tone, charge_reason, narrate
from rummy21.game.picture import LABEL_WIDTH, layout_rows, others_line, table_line
from rummy21.game.seat import Seat
from rummy21.game.settlement import SeatResult, Settlement, Standing, charge, hand_shown
from rummy21.game.view import EventAction, PublicEvent, View, public_event
from rummy21.groups import Group
from rummy21.jokers import Jokers
from rummy21.ruleset import RuleSet
from rummy21.suggest import Suggestion

HUMAN = 0
HELP = """Commands
  before drawing:  s | stock      draw the top card of the closed stock
                   o | open       take the top card of the open pile
                   drop           leave the deal (first drop / middle drop points)
  after drawing:   7H | discard 7H            discard a card
                   declare 7H                 finish with 7H and show the other 21 cards
                   declare 7H: AS 2S 3S / …   …laid out in groups of your choice
  any time:        hint   help   hand   quit
Cards: rank A 2-10 J Q K (T for 10) and suit S H D C, e.g. 10H, QS, JK.
Marks: * joker   $ value card (cut, upper, lower)   ◀ the card you just drew"""
UNKNOWN = (
    "type s or o to draw, a card such as '7H' to discard, 'declare 7H', drop, hint, help or quit"
)

#: Words that start an action: what follows them is the engine's to judge.
_VERBS = {"draw", "discard", "d", "declare"}
#: Actions of one word.
_WORDS = {"s", "stock", "closed", "o", "open", "pile", "drop", "timeout", "time-out"}


class Quit(Exception):
    """The player asked to stop (or standard input ended)."""


def plural(count: int, word: str) -> str:
    """``1 deal``, ``2 deals``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


# ------------------------------------------------------------------ layout
def group_line(
    label: str, cards: Sequence[Card], jokers: Jokers, drawn: Card | None = None, style: str = ""
) -> Text:
    """One labelled line of cards."""
    line = Text(f"  {label:{LABEL_WIDTH}} ", style=style)
    line.append_text(cards_text(cards, jokers, drawn))
    return line


def layout_lines(
    groups: Sequence[Group],
    loose: Sequence[Card],
    jokers: Jokers,
    drawn: Card | None = None,
    loose_label: str = "loose",
) -> list[Text]:
    """The rows of :func:`~rummy21.game.picture.layout_rows` (groups with readable names,
    then the other cards one suit a row, dimmer); the first copy of ``drawn`` marked."""
    lines = []
    for row in layout_rows(groups, loose, loose_label):
        lines.append(group_line(row.label, row.cards, jokers, drawn, "dim" if row.loose else ""))
        drawn = None if drawn in row.cards else drawn
    return lines


def penalty_sentence(view: View, analysis: Analysis, layout: Suggestion) -> str:
    """``pays N if someone declares now: …`` (the seat's charge, :meth:`View.charge`, and
    its reason, :func:`~rummy21.game.narration.charge_reason`) in one sentence."""
    charged = view.charge(analysis.penalty)
    text, why = charge_reason(charged, analysis, layout, view.rules)
    return f"pays {charged.points} if someone declares now: {text}" + (f" — {why}" if why else "")


def value_note(analysis: Analysis) -> str:
    value = analysis.value
    if not value.points:
        return ""
    marriages = f", {plural(value.marriages, 'marriage')}" if value.marriages else ""
    return f"value cards: {value.points} points{marriages}"


def hint_text(view: View, advice: Advice | None = None) -> str:
    """The coach's advice for this moment, in words."""
    advice = advice or advise(view)
    if view.phase is Phase.DISCARD:
        assert advice.release is not None
        card = advice.release.pretty()
        if advice.declare:
            option = advice.analysis.options[0]
            return (
                f"Declare! Finish with {card} ('declare {advice.release}'): the other 21 "
                f"cards are a valid declaration (option {option})."
            )
        pays = penalty_sentence(view, advice.analysis, advice.layout)
        return f"Discard {card}: then your hand {pays}."
    top = view.top
    if advice.draw is Source.OPEN and top is not None:
        after = advice.then
        assert after is not None and after.release is not None
        why = []
        group = next((g for g in after.layout.groups if top.card in g.cards), None)
        if group is not None:
            why.append(
                f"it goes into {' '.join(c.pretty() for c in group.cards)} ({group.kind.label})"
            )
        before_pays, after_pays = advice.analysis.penalty.points, after.analysis.penalty.points
        if after_pays < before_pays:
            why.append(f"you would pay {after_pays} instead of {before_pays}")
        elif after.layout.loose_points < advice.layout.loose_points:
            why.append(
                f"{after.layout.loose_points} points left loose instead of "
                f"{advice.layout.loose_points}"
            )
        then = (
            f"then declare, finishing with {after.release.pretty()}"
            if after.declare
            else f"then discard {after.release.pretty()}"
        )
        return f"Take {top.card.pretty()} from the open pile: {'; '.join(why + [then])}."
    if top is None:
        return "Draw from the stock."
    if not view.can_take_open:
        return f"Draw from the stock ({top.card.pretty()} cannot be taken from the open pile)."
    return f"Draw from the stock: {top.card.pretty()} would not help your hand."


def speak(refusal: str | GameError, names: Sequence[str]) -> str:
    """An engine refusal as said to the player at seat 0: cards with suit symbols, the seat in
    turn by its name (read from the refusal's values, not its sentence)."""
    if isinstance(refusal, NotYourTurnError):
        return f"it is not your turn: {names[refusal.turn]} is playing"
    return pretty_cards(str(refusal))


TONE_STYLES = {Tone.NOTICE: "yellow", Tone.BAD: "red", Tone.GOOD: "bold green", Tone.END: "bold"}


class Session:
    """One terminal match: reads commands, lets the bots play, prints what happens."""

    def __init__(
        self, console: Console, match: Match, bots: Sequence[Bot | None], deals: int = 0
    ) -> None:
        self.out = console
        self.match = match
        self.bots = bots
        self.deals = deals
        # Seats in words from 1, as the lobby counts them: you are Seat 1.
        self.names = ["You"] + [f"{Seat(s)} ({b.name})" for s, b in enumerate(bots) if b]
        self._seen = 0

    # ------------------------------------------------------------- input
    def ask(self, prompt: str) -> str:
        self.out.print(Text(prompt, style="bold cyan"), end="")
        line = sys.stdin.readline() if sys.stdin is not None else ""  # closed: as at its end
        if not line:
            self.out.print()
            raise Quit
        return line.strip()

    def confirm(self, prompt: str) -> bool:
        return self.ask(prompt + " [y/N] ").lower() in ("y", "yes")

    def refuse(self, message: str | GameError) -> None:
        self.out.print(f"✗ {speak(message, self.names)}", style="red")

    # ------------------------------------------------------------ the match
    def run(self) -> int:
        """Play deals until the limit, ``quit``, end of input or Ctrl-C; the exit status."""
        totals_shown, in_deal, status = True, False, 0
        try:
            while True:
                table = self.match.new_deal()
                self._seen = 0
                of = f" of {self.deals}" if self.deals else ""
                self.out.rule(
                    f"Deal {len(self.match.deals) + 1}{of} · {self.names[table.dealer]} dealt"
                )
                totals_shown, in_deal = False, True
                self.play(table)
                self.match.record(table)
                in_deal = False
                self.show_result(table)
                self.show_totals()
                totals_shown = True
                if self.deals and len(self.match.deals) >= self.deals:
                    break
                answer = self.ask("Enter for the next deal, r to review your play, q to quit: ")
                if answer.lower() in ("r", "review"):
                    self.review(table)
                    answer = self.ask("Enter for the next deal, q to quit: ")
                if answer.lower() in ("q", "quit", "exit"):
                    break
        except (Quit, KeyboardInterrupt) as stop:
            if isinstance(stop, KeyboardInterrupt):
                self.out.print()
                status = EXIT_INTERRUPTED
            note = " The deal in progress does not count." if in_deal else ""
            self.out.print(f"[yellow]You left the table.{note}[/yellow]")
            if not totals_shown:
                self.show_totals()
        return status

    def review(self, table: Table) -> None:
        """The coach's review of the player's decisions in the deal just played, judged from
        what the player saw at each (:mod:`rummy21.review`)."""
        from rummy21.cli.review import print_review
        from rummy21.review import review_deal

        with self.out.status("Reviewing your decisions…"):
            review = review_deal(table.log, seat=HUMAN, names=self.names)
        print_review(self.out, review, "Your decisions in this deal")

    def play(self, table: Table) -> None:
        while not table.over:
            self.narrate(table)
            seat = table.turn
            assert seat is not None
            bot = self.bots[seat]
            if bot is None:
                self.human_turn(table)
            else:
                table.apply(bot.choose(table.view(seat), table.legal_actions()))
        self.narrate(table)
        tell_deal_over(table, self.bots)

    # --------------------------------------------------------- narration
    def narrate(self, table: Table) -> None:
        log = table.log
        for event in log[self._seen :]:
            line = self.describe(public_event(event), table)
            if line:
                self.out.print(line)
        self._seen = len(log)

    def describe(self, event: PublicEvent, table: Table) -> Text | None:
        """The narrator's sentence, with cards drawn as the terminal draws them; the player's
        own draws and discards are shown with the hand instead."""
        if event.seat == HUMAN and event.action in (EventAction.DREW, EventAction.DISCARDED):
            return None
        return sentence_text(
            narrate(event, lambda seat: "" if seat is None else self.names[seat], table.rules),
            table.jokers,
            TONE_STYLES.get(TONES.get(event.action, Tone.PLAIN), ""),
        )

    # -------------------------------------------------------------- display
    def show_table(self, view: View) -> None:
        name = self.names.__getitem__
        self.out.print(sentence_text(table_line(view, name), view.jokers))
        self.out.print(others_line(view, name), style="dim")

    def show_hand(self, view: View, advice: Advice | None = None) -> Advice:
        """The hand as the coach lays it out, what it pays and why; after drawing, the 21 cards
        kept and the suggested discard apart. Returns the advice shown."""
        advice = advice or advise(view)
        j = view.jokers
        layout, analysis, release = advice.layout, advice.analysis, advice.release
        if release is None:
            self.out.print(Text(f"Your hand, {len(view.hand)} cards:", style="bold"))
            for line in layout_lines(layout.groups, layout.loose, j):
                self.out.print(line)
            if analysis.valid:
                self.out.print(
                    f"  A valid declaration (option {analysis.options[0]}): draw, "
                    "then finish with a card you do not need.",
                    style="bold green",
                )
            self.print_penalty("It", view, analysis, layout)
        else:
            drawn = view.drawn
            self.out.print(
                Text(f"Your hand, {len(view.hand)} cards: keep 21, let one go.", style="bold")
            )
            mark = None if drawn == release else drawn
            for line in layout_lines(layout.groups, layout.loose, j, mark):
                self.out.print(line)
            label = "finish with" if advice.declare else "suggested discard"
            line = group_line(
                label, [release], j, drawn if drawn == release else None, style="bold"
            )
            if advice.declare:
                line.append(
                    f"   declare {release}: the other 21 cards are a valid "
                    f"declaration (option {analysis.options[0]})",
                    style="bold green",
                )
                self.out.print(line)
            else:
                self.out.print(line.append(f"   (type {release})", style="dim"))
                self.print_penalty(
                    f"After discarding {release.pretty()} your hand", view, analysis, layout
                )
        note = value_note(analysis)
        if note:
            self.out.print(f"  {note[0].upper()}{note[1:]}.", style="green")
        return advice

    def print_penalty(
        self, subject: str, view: View, analysis: Analysis, layout: Suggestion
    ) -> None:
        charged = view.charge(analysis.penalty)
        text, why = charge_reason(charged, analysis, layout, view.rules)
        self.out.print(f"  {subject} pays {charged.points} if someone declares now: {text}.")
        if why:
            self.out.print(f"  ({why[0].upper()}{why[1:]}.)", style="dim")

    # ----------------------------------------------------------- your turn
    def human_turn(self, table: Table) -> None:
        view = table.view(HUMAN)
        self.out.print()
        self.show_table(view)
        self.show_hand(view)
        while table.turn == HUMAN and not table.over:
            view = table.view(HUMAN)
            if view.phase is Phase.DRAW:
                top = view.top
                offer = (
                    f", [o]pen {top.card.pretty()}"
                    if top is not None and view.can_take_open
                    else ""
                )
                prompt = f"Draw: [s]tock{offer}, drop, hint, help, quit > "
            else:
                prompt = "Discard a card (e.g. 7H), declare CARD, hint, help, quit > "
            command = self.ask(prompt)
            if not command:
                continue
            word = command.lower()
            if word in ("q", "quit", "exit"):
                raise Quit
            if word in ("h", "help", "?"):
                self.out.print(HELP)
                continue
            if word == "hint":
                self.out.print(hint_text(view), style="green")
                continue
            if word in ("hand", "show", "table"):
                self.show_table(view)
                self.show_hand(view)
                continue
            try:
                action = self.parse(command, view, table)
                if action is None:
                    continue
                table.apply(action, seat=HUMAN)
            except (IllegalActionError, ActionSyntaxError) as error:
                self.refuse(error)
                continue
            if isinstance(action, Draw) and not table.over:
                drawn = table.drawn
                assert drawn is not None
                verb, where = (
                    ("draw", "the stock")
                    if action.source is Source.STOCK
                    else ("take", "the open pile")
                )
                self.out.print(
                    Text(f"You {verb} ")
                    .append_text(card_text(drawn, view.jokers))
                    .append(f" from {where}.")
                )
                self.show_hand(table.view(HUMAN))
            elif isinstance(action, Discard):
                self.out.print(
                    Text("You discard ")
                    .append_text(card_text(action.card, view.jokers))
                    .append(".")
                )

    def parse(self, command: str, view: View, table: Table) -> Action | None:
        """The action a command asks for, checked by the table; ``None`` if the player thought
        better of it."""
        words = command.split()
        verb = words[0].lower()
        known = verb in _VERBS or (verb in _WORDS and len(words) == 1)
        if not known:
            if len(words) == 1:
                try:
                    return Discard(Card.parse(words[0]))  # a bare card discards it
                except CardError:
                    pass
            raise ActionSyntaxError(f"unknown command {command!r}: {UNKNOWN}")
        action = parse_action(command)
        if isinstance(action, TimeOut):
            raise IllegalActionError("time-outs come from the clock, not from you")
        table.verify(action, seat=HUMAN)
        if isinstance(action, Drop) and not self.confirm(f"Drop for {view.drop_cost} points?"):
            return None
        if isinstance(action, Declare) and not self.confirm_declaration(action, view):
            return None
        return action

    def confirm_declaration(self, action: Declare, view: View) -> bool:
        """Explain a declaration before it is made; ask first if it is wrong or its layout
        leaves cards out."""
        j = view.jokers
        shown = list(view.hand)
        shown.remove(action.finish)
        verdict = judge(shown, action.groups, j, view.rules)
        check = verdict.layout
        left_out: tuple[Card, ...] = ()
        if action.groups is not None and check is not None:
            for group in check.shown:
                mark = (
                    "✓ " + group.group.kind.label
                    if group.group
                    else f"✗ {pretty_cards(group.reason or '')}"
                )
                self.out.print(group_line("shown", group.cards, j).append(f"  {mark}"))
            left_out = check.loose
            if left_out:
                self.out.print(
                    group_line("left out", left_out, j).append(
                        f"  ✗ {plural(len(left_out), 'card')} in no group of yours"
                    )
                )
            if check.options_as_shown:
                self.out.print(f"  As shown: option {check.options_as_shown[0]}.")
            else:
                self.out.print(
                    f"  As shown: {self._shortfall(check.shown, left_out, view)} — "
                    "not a declaration as laid out.",
                    style="dim",
                )
        analysis = verdict.analysis
        if verdict.valid:
            laid_out = check is not None and not check.options_as_shown
            but = "But the" if laid_out else "The"
            self.out.print(
                f"  {but} 21 cards are a valid declaration (option {verdict.option})"
                + (": the cards count, not the layout." if laid_out else "."),
                style="green",
            )
            if laid_out and analysis is not None and analysis.groups:
                self.out.print("  They can be laid out as:", style="dim")
                for line in layout_lines(analysis.groups, analysis.loose, j, None, "other"):
                    self.out.print(line)
        if not verdict.valid:
            why = why_invalid(shown, view.jokers, view.rules)
            self.out.print(f"  Not valid: {pretty_cards(why)}.", style="red")
            return self.confirm(
                f"These 21 cards are not a valid declaration: a wrong declaration costs "
                f"{view.rules.wrong_declaration}. Declare anyway?"
            )
        if left_out:
            return self.confirm(
                f"Your layout leaves {plural(len(left_out), 'card')} out. Declare anyway?"
            )
        return True

    @staticmethod
    def _shortfall(shown: Sequence[ShownGroup], left_out: Sequence[Card], view: View) -> str:
        """Why a layout, as laid out, is no declaration."""
        pure = sum(1 for g in shown if g.group is not None and g.group.is_pure)
        needed = view.rules.pure_groups_needed
        bad = sum(1 for g in shown if g.group is None)
        parts = []
        if pure < needed:
            parts.append(f"{plural(pure, 'pure group')} (option A needs {needed})")
        if bad:
            parts.append(f"{plural(bad, 'group')} not valid")
        if left_out:
            parts.append(f"{plural(len(left_out), 'card')} outside groups")
        if not parts:
            parts.append("dublees do not count towards option A")
        return ", ".join(parts)

    # ------------------------------------------------------------ results
    def show_result(self, table: Table) -> None:
        result = table.result
        assert result is not None
        j = table.jokers
        self.out.rule("Hands")
        for seat in result.seats:
            self.out.print(
                Text(f"{self.names[seat.seat]} — {self._standing(seat, result)}", style="bold")
            )
            pays = f"pays {seat.penalty}" + (f" ({seat.rule.label})" if seat.rule else "")
            layout = None
            if seat.standing is Standing.ACTIVE and seat.cards:
                layout = layout_of(Hand.of(seat.cards), j, table.rules)
                reading = analyze(seat.cards, j, table.rules)
                played = table.view(HUMAN).seats[seat.seat].played
                charged = charge(seat.standing, played, table.rules, reading.penalty)
                if seat.rule == charged.rule and seat.penalty == charged.points:
                    text, why = charge_reason(charged, reading, layout, table.rules, "the cards")
                    pays = f"pays {seat.penalty}: {text}" + (f" — {why}" if why else "")
            if layout is not None and not seat.groups:
                lines = layout_lines(layout.groups, layout.loose, j)  # arranged for display
            else:
                lines = layout_lines(
                    seat.groups, seat.loose, j, None, "loose" if seat.groups else "cards"
                )
            if not hand_shown(seat.standing, seat.seat, self._viewer()):
                lines = [Text("  hand folded (a dropped hand stays face down)", style="dim")]
            for line in lines:
                self.out.print(line)
            marriages = f", {plural(seat.marriages, 'marriage')}" if seat.marriages else ""
            score = (
                f"value cards {seat.value}{marriages} (net {seat.value_net:+d})"
                + (f" · loss cap {seat.cap_adjustment:+d}" if seat.cap_adjustment else "")
                + f" · deal score [bold]{seat.score:+d}[/bold] · total "
                f"{self.match.totals[seat.seat]:+d}"
            )
            if ":" in pays:  # a long reason: the score on a line of its own
                self.out.print(f"  {pays}")
                self.out.print(f"  {score}")
            else:
                self.out.print(f"  {pays} · {score}")

    def _viewer(self) -> int | None:
        """Whose eyes the end of a deal is shown to: the one player at this terminal (with
        several sharing it, no one's: every dropped hand stays folded)."""
        humans = [seat for seat, bot in enumerate(self.bots) if bot is None]
        return humans[0] if len(humans) == 1 else None

    @staticmethod
    def _standing(seat: SeatResult, result: Settlement) -> str:
        if seat.standing is Standing.DECLARED:
            return f"declared (option {result.option})"
        if seat.standing is Standing.DROPPED:
            return f"dropped ({seat.drop.value if seat.drop else ''} drop)"
        if seat.standing is Standing.WRONG:
            return "wrong declaration"
        if result.winner == seat.seat:
            return "won as the last active player"
        return "wash" if result.winner is None else "lost"

    def show_totals(self) -> None:
        match = self.match
        table = RichTable(
            "player",
            "total points",
            f"money (× {match.point_value})",
            title=f"Running totals after {plural(len(match.deals), 'deal')}",
        )
        for seat, name in enumerate(self.names):
            total, money = match.totals[seat], match.money(seat)
            table.add_row(name, f"{total:+d}" if total else "0", f"{money:+}" if money else "0")
        self.out.print(table)


@app.command("play")
def play_command(
    players: int = typer.Option(2, "--players", "-p", help="Seats, you included (2-6)."),
    bots: str = typer.Option(
        "greedy",
        "--bots",
        help=f"Bots for the other seats, comma-separated, repeated: {', '.join(BOT_NAMES)}, "
        "or search:WORLDS (search with its own budget), or rl:PATH (a trained policy), or "
        "exec:COMMAND (a program playing the bot protocol).",
    ),
    rules: str = rules_option(),
    seed: int | None = typer.Option(None, "--seed", help="Seed for reproducible deals."),
    deals: int = typer.Option(0, "--deals", help="Stop after this many deals (0: until you quit)."),
    point_value: str = typer.Option(
        "1", "--point-value", help="Money per point: 0 to 1,000,000, at most 4 decimal places."
    ),
    bot_time: str | None = bot_time_option(),
) -> None:
    """Play 21 Card Rummy in the terminal against bots."""
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        rule_set = RuleSet.preset(rules)
        if not rule_set.min_players <= players <= rule_set.max_players:
            raise ValueError(
                f"--players must be {rule_set.min_players} to "
                f"{rule_set.max_players} (you and 1 to "
                f"{rule_set.max_players - 1} bots), not {players}"
            )
        if not 0 <= deals <= MOST_DEALS:
            raise ValueError(f"--deals must be 0 (until you quit) to {MOST_DEALS:,}, not {deals}")
        names = parse_bot_names(bots, players - 1)
        set_move_time(bot_time)
        check_exec_names(names)
        check_bots_load(names)
        value = parse_point_value(point_value)
    except ValueError as error:
        err.print(f"error: {error}", markup=False)
        raise typer.Exit(2) from None
    seated: list[Bot | None] = [None, *make_bots(names, seed=seed)]
    match = Match(players, rule_set, seed=seed, point_value=value)
    console = Console(highlight=False)
    console.print(
        f"21 Card Rummy — rules [bold]{rule_set.name}[/bold], you against "
        f"{', '.join(names)}. Type [bold]help[/bold] for commands."
    )
    status = Session(console, match, seated, deals).run()
    if status:
        raise typer.Exit(status)
