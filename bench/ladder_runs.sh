#!/usr/bin/env bash
# The issue-25 tournaments, in order of priority, each resumable: run again to go on where a
# run stopped (every shoe is appended to its journal as it finishes; a finished one only
# prints its table again). Seeds 51-56 were used by no tuning (tuning: one seat among experts,
# seed 5: bench/one_seat.py, journals in docs/bots/tune/). The runs of seeds 41-44 (the search
# before the race bot) are kept in docs/bots/ as they were played; their commands are in git.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/resumable.sh
run() { run_in docs/bots "$@"; }
run race_expert_p4_s51 --bots race,expert -p 4 -k 300 --seed 51
run search_expert_p4_s51 --bots search,expert -p 4 -k 300 --seed 51
run race_expert_p4_s52 --bots race,expert -p 4 -k 300 --seed 52
run search_expert_p4_s52 --bots search,expert -p 4 -k 300 --seed 52
run search_expert_p2_s53 --bots search,expert -p 2 -k 300 --seed 53
run search_expert_p6_s54 --bots search,expert -p 6 -k 300 --seed 54
run race_expert_p2_s53 --bots race,expert -p 2 -k 300 --seed 53
run race_expert_p6_s54 --bots race,expert -p 6 -k 300 --seed 54
run clairvoyant_expert_p4_s51 --bots clairvoyant,expert -p 4 -k 300 --seed 51
run search24_expert_p4_s51 --bots search:24,expert -p 4 -k 300 --seed 51
run search6_expert_p4_s51 --bots search:6,expert -p 4 -k 300 --seed 51
