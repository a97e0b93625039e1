#!/usr/bin/env bash
# Big inputs (issue 33, item 4; figures in docs/reports.md, "Big inputs"): writes a 200 MB JSONL dataset
# (about 1.09 million cases under one suite) and a 200 MB suite with the same cases written inline in YAML,
# then times `fmeval validate` on each, printing wall seconds, peak resident memory and the load average.
# A benchmark, not a test: run it on a quiet machine from the repository root after
# `swift build -c release`; FMEVAL_BIN picks another binary, MEGABYTES another size, RUNS the repeats.
set -euo pipefail
fmeval="${FMEVAL_BIN:-$PWD/.build/release/fmeval}"
megabytes="${MEGABYTES:-200}"
runs="${RUNS:-2}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
[ -x "$fmeval" ] || { echo "big-inputs: no fmeval at $fmeval; run swift build -c release first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "big-inputs: needs /usr/bin/time (apt install time) for peak memory" >&2; exit 2; }

python3 - "$work" "$megabytes" <<'PY'
import json, sys
work, limit = sys.argv[1], int(sys.argv[2]) * 1024 * 1024
header = "suite: big\nengine: embedded\ngenerating:\n  enum: [positive, negative, neutral]\n"
with open(f"{work}/big.jsonl", "w") as data, open(f"{work}/inline.yaml", "w") as inline:
    inline.write(header + "cases:\n")
    size, index = 0, 0
    while size < limit:
        prompt = f"I love this phone number {index}. It works perfectly every day and the battery lasts a week."
        line = json.dumps({"id": f"case-{index}", "prompt": prompt, "expect": {"equals": "positive"},
                           "tags": ["positive", "bench"]}) + "\n"
        data.write(line)
        inline.write(f"  - id: case-{index}\n    prompt: {prompt}\n    expect: {{ equals: positive }}\n"
                     "    tags: [positive, bench]\n")
        size, index = size + len(line), index + 1
with open(f"{work}/dataset.yaml", "w") as suite:
    suite.write(header + "dataset: big.jsonl\n")
print(f"big-inputs: {index} cases; dataset and inline suite of {limit // (1024 * 1024)} MB or more")
PY

for input in dataset.yaml inline.yaml; do
    bytes=$(( $(stat -c %s "$work/$input") + $( [ "$input" = dataset.yaml ] && stat -c %s "$work/big.jsonl" || echo 0) ))
    for run in $(seq "$runs"); do
        load=$(cut -d' ' -f1-3 /proc/loadavg)
        /usr/bin/time -f "%e %M" -o "$work/time" "$fmeval" validate "$work/$input" > "$work/out" 2>&1 || {
            echo "big-inputs: fmeval validate $input failed:" >&2; tail -5 "$work/out" >&2; exit 1; }
        read -r seconds kilobytes < "$work/time"
        printf '%-13s %4d MB  run %d  %7.2f s  peak %6d MB  %s  (load %s)\n' "$input" $((bytes / 1048576)) "$run" \
            "$seconds" $((kilobytes / 1024)) "$(tail -1 "$work/out")" "$load"
    done
done
