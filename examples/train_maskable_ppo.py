"""Train a policy for 21 Card Rummy with sb3-contrib's MaskablePPO, for a bounded time on CPU.

    pip install 'rummy21[train]'
    python examples/train_maskable_ppo.py --minutes 30 --against random,greedy \\
        --players 2 --seed 1 --out artifacts/rl/policy.zip

The learner takes one seat of the Gymnasium environment ``rummy21/Rummy21-v0``; the other
seats are bots of the ladder. ``--against`` names the bots to learn against: each of the
``--envs`` environments (run in one process, one after another) plays one of them, in turn, so
a mix is learnt at once. Rewards are deal scores divided by 120; the mask keeps the learner to
legal moves, and offers a declaration only when it is valid (``declarations="valid"``: a
wrong one is legal, but a blunder; the ``rl:`` bot declares the same way). A beginner's
cheapest move is to drop at once (30 points): a policy that starts
out declaring wrongly half the time (120) learns that within seconds and then never sees a
hand played out. So, by default, training deals charge 120 for a drop (``--drop-cost``; a
rule-set parameter, RULES §9) and the learner has to find how to play on; the policy then
plays under the classic rules. Training stops after ``--minutes`` (or ``--steps``), then it writes

* the policy (``--out``), playable as a bot: ``rl:artifacts/rl/policy.zip``;
* its learning curve: ``curve.csv`` (steps, minutes, the mean deal score of the last 200
  deals, in points) and ``curve.svg`` beside the policy.

Judge it as any bot, with a duplicate tournament (the luck of the deal cancels out):

    rummy21 tournament --bots rl:artifacts/rl/policy.zip,random --players 2 --deals 200
    rummy21 tournament --bots rl:artifacts/rl/policy.zip,greedy --players 2 --deals 200
"""

from __future__ import annotations

import argparse
import csv
import time
from collections import deque
from pathlib import Path
from typing import Any

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

from rummy21.bots import check_bot_name
from rummy21.env import ENV_ID
from rummy21.ruleset import RuleSet

SCALE = 120.0
"""The environment's reward scale (``normalize_rewards``): rewards × SCALE are points."""


class Curve(BaseCallback):
    """Keeps the mean deal score of the last ``window`` deals after each rollout, and stops
    training once ``seconds`` have passed."""

    def __init__(self, seconds: float, window: int = 200) -> None:
        super().__init__()
        self.seconds = seconds
        self.scores: deque[float] = deque(maxlen=window)
        self.rows: list[tuple[int, float, float, int]] = []
        self.start = time.monotonic()
        self.deals = 0

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", ()):
            episode = info.get("episode")
            if episode is not None:
                self.scores.append(float(episode["r"]) * SCALE)
                self.deals += 1
        return time.monotonic() - self.start < self.seconds

    def _on_rollout_end(self) -> None:
        if self.scores:
            minutes = (time.monotonic() - self.start) / 60
            mean = sum(self.scores) / len(self.scores)
            self.rows.append((self.num_timesteps, minutes, mean, self.deals))
            print(f"{self.num_timesteps:>9} steps {minutes:6.1f} min  {mean:+8.1f} points/deal")


def make_env(players: int, opponent: str, seed: int, rules: RuleSet) -> Any:
    def build() -> Any:
        made = gymnasium.make(
            ENV_ID,
            players=players,
            opponents=opponent,
            rules=rules,
            normalize_rewards=True,
            declarations="valid",
        )
        made.reset(seed=seed)
        return Monitor(made)

    return build


def svg_curve(rows: list[tuple[int, float, float, int]], title: str) -> str:
    """The learning curve as a small self-contained SVG (no plotting library needed)."""
    width, height, pad = 640, 320, 48
    steps = [r[0] for r in rows] or [0]
    means = [r[2] for r in rows] or [0.0]
    low, high = min(*means, 0.0), max(*means, 0.0)
    span = (high - low) or 1.0
    last = max(steps) or 1

    def x(step: float) -> float:
        return pad + (width - 2 * pad) * step / last

    def y(value: float) -> float:
        return height - pad - (height - 2 * pad) * (value - low) / span

    points = " ".join(f"{x(s):.1f},{y(m):.1f}" for s, m in zip(steps, means, strict=True))
    return f"""<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" \
font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="{pad}" y="20">{title}</text>
<line x1="{pad}" y1="{y(0):.1f}" x2="{width - pad}" y2="{y(0):.1f}" stroke="#999" \
stroke-dasharray="4"/>
<polyline points="{points}" fill="none" stroke="#2a7" stroke-width="2"/>
<text x="4" y="{y(high):.1f}">{high:+.0f}</text>
<text x="4" y="{y(low):.1f}">{low:+.0f}</text>
<text x="{pad}" y="{height - 12}">0</text>
<text x="{width - pad - 60}" y="{height - 12}">{last:,} steps</text>
</svg>
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--steps", type=int, default=10**9, help="stop after this many steps")
    parser.add_argument("--against", default="random,greedy", help="bots to learn against")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    parser.add_argument("--ent-coef", type=float, default=0.05, help="entropy bonus")
    parser.add_argument(
        "--drop-cost",
        type=int,
        default=120,
        help="what a drop costs in training (0: the rules' 30/70); see the module docstring",
    )
    parser.add_argument("--out", type=Path, default=Path("artifacts/rl/policy.zip"))
    args = parser.parse_args()
    against = [check_bot_name(n) for n in args.against.split(",") if n.strip()]
    if not against:
        parser.error("--against names at least one bot")
    torch.set_num_threads(args.threads)
    rules = RuleSet()
    if args.drop_cost:
        rules = rules.with_(first_drop=args.drop_cost, middle_drop=args.drop_cost)
    envs = DummyVecEnv(
        [
            make_env(args.players, against[i % len(against)], args.seed * 1000 + i, rules)
            for i in range(args.envs)
        ]
    )
    model = MaskablePPO(
        "MultiInputPolicy",
        envs,
        n_steps=512,
        batch_size=256,
        learning_rate=3e-4,
        gamma=0.995,
        ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    curve = Curve(args.minutes * 60)
    model.learn(total_timesteps=args.steps, callback=curve)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    with (args.out.parent / "curve.csv").open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["steps", "minutes", "mean_points_last_200_deals", "deals"])
        writer.writerows((s, f"{m:.2f}", f"{p:.2f}", d) for s, m, p, d in curve.rows)
    drops = f", drops at {args.drop_cost}" if args.drop_cost else ""
    title = (
        f"MaskablePPO, {args.players} seats, against {', '.join(against)}{drops}: "
        "mean deal score of the last 200 deals"
    )
    (args.out.parent / "curve.svg").write_text(svg_curve(curve.rows, title))
    print(f"saved {args.out} after {curve.num_timesteps:,} steps and {curve.deals:,} deals")
    print(f"play it: rummy21 tournament --bots rl:{args.out},random --players {args.players}")


if __name__ == "__main__":
    main()
