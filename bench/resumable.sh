# Sourced by the tournament queues (ladder_runs.sh, learned_runs.sh): run FOLDER JOURNAL ARGS…
# plays `rummy21 tournament ARGS --jobs 2 --resume FOLDER/JOURNAL.jsonl`, its table to
# FOLDER/JOURNAL.txt; run again, it goes on where it stopped (a finished one only prints).
run_in() {
    local folder=$1 journal=$2; shift 2
    local jobs=(--jobs 2)  # (unless the run names its own)
    [[ " $* " == *" --jobs "* ]] && jobs=()
    rummy21 tournament "$@" "${jobs[@]}" --resume "$folder/$journal.jsonl" > "$folder/$journal.txt"
}
