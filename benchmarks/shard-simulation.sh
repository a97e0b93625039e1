#!/usr/bin/env bash
# A sharded run at scale, simulated on one machine (issue 32; figures in docs/reports.md): a generated
# 10,000-case scripted suite (scripted latencies: 89 % of cases 1 ms, 10 % 10 ms, 1 % 300 ms: the few slow
# cases land unevenly in a hash split) runs once as one process, then as 1, 4 and 16 worker processes started at once with the
# variables a Kubernetes Indexed Job sets (JOB_COMPLETION_INDEX, FMEVAL_SHARD_COUNT) and `--shard auto`,
# split by hash and by the history of the single run, and merged. Each merge must equal the single run
# case for case. Prints wall time, the slowest/fastest shard ratio, merge time and peak memory.
# A benchmark, not a test: run it on a quiet machine from the repository root after
# `swift build -c release`; FMEVAL_BIN picks another binary, CASES another size.
set -euo pipefail
fmeval="${FMEVAL_BIN:-$PWD/.build/release/fmeval}"
cases="${CASES:-10000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
[ -x "$fmeval" ] || { echo "shard-simulation: no fmeval at $fmeval; run swift build -c release first" >&2; exit 2; }

python3 - "$work" "$cases" <<'PY'
import json, random, sys
work, count = sys.argv[1], int(sys.argv[2])
rng = random.Random(32)
with open(f"{work}/cases.jsonl", "w") as out:
    for index in range(count):
        draw = rng.random()
        latency = 300 if draw < 0.01 else 10 if draw < 0.11 else 1
        answer = rng.choice(["positive", "negative", "neutral"])
        expected = answer if rng.random() < 0.9 else "neutral"
        out.write(json.dumps({"id": f"c{index:05d}", "prompt": f"Review {index}", "expect": {"equals": expected},
                              "script": [{"text": answer, "latencyMs": latency}]}) + "\n")
with open(f"{work}/scale.yaml", "w") as out:
    out.write("suite: scale\nengine: scripted\ndataset: cases.jsonl\n")
PY

# Wall seconds and peak resident kilobytes of one command: "SECONDS KB".
measure() {
  local log="$1"; shift
  /usr/bin/time -f "%e %M" -o "$log.time" "$@" >"$log" 2>&1 || [ $? -eq 1 ]
  tail -n 1 "$log.time"
}

# id<TAB>status<TAB>attempts of every case of a results file, sorted.
verdicts() {
  python3 -c '
import json, sys
for case in sorted(json.load(open(sys.argv[1]))["cases"], key=lambda c: c["id"]):
    print(case["id"], case["status"], len(case["attempts"]), sep="\t")' "$1"
}

echo "shard-simulation: $cases cases, load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
read -r single_s single_kb < <(measure "$work/single.log" "$fmeval" run "$work/scale.yaml" \
  --json "$work/single.json" --history "$work/history.sqlite" -q)
verdicts "$work/single.json" >"$work/single.tsv"
printf '%-8s %-8s %9s %12s %9s %9s %12s %s\n' workers balance "wall (s)" "slow/fast" "merge (s)" "merge MB" \
  "peak MB/wkr" "equal to one run"
printf '%-8s %-8s %9s %12s %9s %9s %12s %s\n' single - "$single_s" - - - "$((single_kb / 1024))" -

for workers in 1 4 16; do
  for balance in hash history; do
    run="$work/run-$workers-$balance"
    mkdir -p "$run"
    start=$(date +%s.%N)
    for ((index = 0; index < workers; index++)); do
      JOB_COMPLETION_INDEX=$index FMEVAL_SHARD_COUNT=$workers CI=true \
        /usr/bin/time -f "%e %M" -o "$run/shard-$index.time" "$fmeval" run "$work/scale.yaml" --shard auto \
        --shard-balance "$balance" --history "$work/history.sqlite" --no-history -q \
        --json "$run/shard-$index.json" >"$run/shard-$index.log" 2>&1 &
    done
    wait || true
    wall=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
    read -r ratio peak < <(python3 - "$run" "$workers" <<'PY'
import sys
run, workers = sys.argv[1], int(sys.argv[2])
times = [open(f"{run}/shard-{i}.time").read().split("\n")[-2].split() for i in range(workers)]
seconds = [float(t[0]) for t in times]
print(f"{max(seconds) / max(min(seconds), 0.01):.2f}", max(int(t[1]) for t in times) // 1024)
PY
)
    read -r merge_s merge_kb < <(measure "$run/merge.log" "$fmeval" merge "$run"/shard-*.json \
      --json "$run/merged.json" --no-history -q)
    verdicts "$run/merged.json" >"$run/merged.tsv"
    equal=no
    cmp -s "$work/single.tsv" "$run/merged.tsv" && equal=yes
    printf '%-8s %-8s %9s %12s %9s %9s %12s %s\n' "$workers" "$balance" "$wall" "$ratio" "$merge_s" \
      "$((merge_kb / 1024))" "$peak" "$equal"
    [ "$equal" = yes ] || { echo "shard-simulation: the merge of $workers $balance shards differs" >&2; exit 1; }
  done
done
