#!/usr/bin/env bash
# The issue-26 tournaments of the shipped learned bot, each resumable (run again to go on).
# Seeds 81-90 are used by no training or tuning (the teacher's deals: rummy21 learn teach
# --seed 1000; the race settings were tuned on seeds 61 and 62: docs/learn/tune/). The runs
# of seeds 71-74 (the first shipped network, behaviour cloning of the expert) are kept in
# docs/learn/ as they were played; their commands are in git.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/resumable.sh
run() { run_in docs/learn "$@"; }
run learned_expert_p4_s81 --bots learned,expert -p 4 -k 300 --seed 81
run learned_expert_p2_s82 --bots learned,expert -p 2 -k 300 --seed 82
run learned_search_p4_s83 --bots learned,search -p 4 -k 300 --seed 83
run learned_expert_p2_s87 --bots learned,expert -p 2 -k 600 --seed 87
# Declared on 2026-12-07 before they were played: the 2-seat target on two large fresh seeds,
# and a second 4-seat seed against the expert.
run learned_expert_p2_s88 --bots learned,expert -p 2 -k 2000 --seed 88
run learned_expert_p2_s89 --bots learned,expert -p 2 -k 2000 --seed 89
run learned_expert_p4_s90 --bots learned,expert -p 4 -k 1000 --seed 90
run learned_race_p4_s85 --bots learned,race -p 4 -k 300 --seed 85
run learned_expert_p6_s86 --bots learned,expert -p 6 -k 300 --seed 86
run learned_search_p2_s84 --bots learned,search -p 2 -k 300 --seed 84
# Move times on one core (--jobs 1: the tournament's own process, nothing else running on the
# machine): the issue's timing targets.
run learned_expert_p4_s91_onecore --bots learned,expert -p 4 -k 150 --seed 91 --jobs 1
run learned_expert_p2_s92_onecore --bots learned,expert -p 2 -k 300 --seed 92 --jobs 1
