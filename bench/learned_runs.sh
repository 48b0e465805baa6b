#!/usr/bin/env bash
# The issue-26 tournaments of the shipped learned bot, each resumable (run again to go on).
# Seeds 71-74 are used by no training (the teacher's deals: rummy21 learn teach --seed 1000).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/resumable.sh
run() { run_in docs/learn "$@"; }
run learned_expert_p4_s71 --bots learned,expert -p 4 -k 300 --seed 71
run learned_expert_p2_s72 --bots learned,expert -p 2 -k 300 --seed 72
run learned_greedy_p4_s73 --bots learned,greedy -p 4 -k 300 --seed 73
run learned_greedy_p2_s74 --bots learned,greedy -p 2 -k 300 --seed 74
