#!/usr/bin/env bash
# The issue-25 tournaments, in order of priority, each resumable: run again to go on where a
# run stopped (every shoe is appended to its journal as it finishes). Seeds 41-44 were used by
# no tuning (tuning: bench/one_seat.py --seed 5, journals in docs/bots/tune/).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/resumable.sh
run() { run_in docs/bots "$@"; }
run clairvoyant_expert_p4_s41 --bots clairvoyant,expert -p 4 -k 300 --seed 41
run search_expert_p4_s41 --bots search,expert -p 4 -k 300 --seed 41
run search_expert_p4_s42 --bots search,expert -p 4 -k 300 --seed 42
run search6_expert_p4_s41 --bots search:6,expert -p 4 -k 300 --seed 41
run search24_expert_p4_s41 --bots search:24,expert -p 4 -k 300 --seed 41
run search_expert_p2_s43 --bots search,expert -p 2 -k 300 --seed 43
run search_expert_p6_s44 --bots search,expert -p 6 -k 200 --seed 44
