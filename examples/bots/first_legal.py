#!/usr/bin/env python3
"""A bot for rummy21's bot protocol (version 2) with no dependency on rummy21.

It draws from the stock, then discards the card it drew (or, when that may not go, a card
picked at random from the seed of the deal); it never declares. Run it against the real
table with

    rummy21 bot check "python3 examples/bots/first_legal.py"
    rummy21 tournament --bots "exec:python3 examples/bots/first_legal.py,expert" -p 2 -k 5
    rummy21 bot connect --url https://host/t/CODE --exec "python3 examples/bots/first_legal.py"

Every line it reads is a JSON object with a "type"; only "move" is answered, with the same
"id" and one of the "legal" actions. Anything it wants to say goes to stderr (the log): here,
its score at the "end" of each deal.
"""

import json
import random
import sys


def choose(view, legal, rng):
    """The action to play: the first legal draw, else the drawn card's discard."""
    draws = [action for action in legal if action.startswith("draw")]
    if draws:
        return "draw stock" if "draw stock" in draws else draws[0]
    mine = f"discard {view['drawn']}"
    if mine in legal:
        return mine
    discards = [action for action in legal if action.startswith("discard ")]
    return rng.choice(discards) if discards else legal[0]


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello" and message["protocol"] != 2:
            print(f"protocol {message['protocol']} is not mine", file=sys.stderr)
        elif kind == "start":
            rng = random.Random(message["seed"])  # (reseeded each deal: reproducible)
        elif kind == "end":
            score = message["scores"][message["seat"]]
            print(f"deal over ({message['reason']}): {score:+d}", file=sys.stderr, flush=True)
        elif kind == "move":
            action = choose(message["view"], message["legal"], rng)
            print(json.dumps({"id": message["id"], "action": action}), flush=True)


if __name__ == "__main__":
    main()
