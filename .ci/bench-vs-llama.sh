#!/usr/bin/env bash
# Side by side, in one run: the benchmark suite through llama-server (-np 4, prompt cache on, greedy,
# the same GGUF as the embedded engine) with `fmeval bench suite --engine openai --jobs 4`, the same
# suite on the embedded engine, then llama-bench (-p 512 -n 128 -t 2) against `fmeval bench`; prints
# one table. The server is stopped on every exit path (success, failure, Ctrl-C).
#
# Usage: .ci/bench-vs-llama.sh [SUITE]        (default: benchmarks; run from anywhere)
# Environment:
#   FMEVAL_BIN            the fmeval binary (default: .build/release/fmeval; build it optimized first)
#   FMEVAL_EMBEDDED_JOBS  --jobs values for the embedded runs, space-separated (default: "1 4")
#   FMEVAL_BENCH_EXTRA    extra flags for every `bench suite` run (e.g. --no-reuse-repeats)
#   FMEVAL_LLAMA_BENCH_REPS  llama-bench repetitions (-r, default 3)
# Needs the cached llama-server (`bash .ci/llama-server.sh` builds it once); llama-bench is used when
# `bash .ci/llama-server.sh llama-bench` has been built, else its row says so.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
suite="${1:-benchmarks}"
fmeval="${FMEVAL_BIN:-$root/.build/release/fmeval}"
embedded_jobs="${FMEVAL_EMBEDDED_JOBS:-1 4}"
read -r -a extra <<< "${FMEVAL_BENCH_EXTRA:-}"
[ -x "$fmeval" ] || { echo "bench-vs-llama: no fmeval binary at $fmeval; run 'swift build -c release' or set FMEVAL_BIN" >&2; exit 2; }
[ -e "$suite" ] || { echo "bench-vs-llama: no suite at $suite" >&2; exit 2; }

server_bin="$(bash .ci/llama-server.sh)"
cache_dir="$(dirname "$server_bin")"
bench_bin="$cache_dir/llama-bench"
model="$("$fmeval" model fetch)"
out="$(mktemp -d)"
server_pid=""
stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
}
trap 'stop_server; rm -rf "$out"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
echo "bench-vs-llama: llama-server on 127.0.0.1:$port (-np 4, prompt cache on), model $model" >&2
"$server_bin" -m "$model" --host 127.0.0.1 --port "$port" -c 16384 -np 4 -t 2 --cache-prompt --no-webui \
  >"$out/server.log" 2>&1 &
server_pid=$!
python3 - "$port" "$server_pid" <<'PY' || { tail -20 "$out/server.log" >&2; exit 3; }
import os, sys, time, urllib.request
port, pid = sys.argv[1], int(sys.argv[2])
deadline = time.time() + 120
while time.time() < deadline:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit("bench-vs-llama: llama-server exited while starting")
    try:
        if urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2).status == 200:
            sys.exit(0)
    except Exception:
        time.sleep(0.5)
sys.exit("bench-vs-llama: llama-server did not answer /health within 120 s")
PY

echo "bench-vs-llama: $suite through llama-server (--engine openai --jobs 4)" >&2
"$fmeval" bench suite --json --suite "$suite" --engine openai --base-url "http://127.0.0.1:$port/v1" --model smollm2 \
  --jobs 4 "${extra[@]}" > "$out/openai.json"
stop_server

runs=("openai")
for jobs in $embedded_jobs; do
  echo "bench-vs-llama: $suite on the embedded engine (--jobs $jobs)" >&2
  "$fmeval" bench suite --json --suite "$suite" --jobs "$jobs" "${extra[@]}" > "$out/embedded-$jobs.json"
  runs+=("embedded-$jobs")
done

if [ -x "$bench_bin" ]; then
  echo "bench-vs-llama: llama-bench -p 512 -n 128 -t 2" >&2
  "$bench_bin" -m "$model" -p 512 -n 128 -t 2 -r "${FMEVAL_LLAMA_BENCH_REPS:-3}" -o json > "$out/llama-bench.json" 2>"$out/llama-bench.log" \
    || { tail -5 "$out/llama-bench.log" >&2; echo "[]" > "$out/llama-bench.json"; }
else
  echo "[]" > "$out/llama-bench.json"
fi
echo "bench-vs-llama: fmeval bench" >&2
"$fmeval" bench --json > "$out/fmeval-bench.json"

python3 - "$out" "$suite" "${runs[@]}" <<'PY'
import json, os, sys
out, suite, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
def load(name):
    with open(os.path.join(out, name)) as f:
        return json.load(f)
def num(value, fmt):
    return format(value, fmt) if isinstance(value, (int, float)) else "n/a"
print(f"Benchmark suite {suite}")
print(f"{'run':<26}{'cases':>6}{'wall s':>9}{'cases/s':>9}{'prefill t/s':>13}{'decode t/s':>12}{'cache hit':>11}{'reused':>8}{'peak RSS MB':>20}  answers")
for run in runs:
    r = load(run + ".json")
    label = "llama-server -np 4, j4" if run == "openai" else "embedded, j" + run.split("-")[1]
    hit = r.get("cacheHitRate")
    rss = r["peakRSSBytes"] / 1e6
    print(f"{label:<26}{r['cases']:>6}{r['wallSeconds']:>9.1f}{r['casesPerSecond']:>9.2f}"
          f"{num(r.get('prefillTokensPerSecond'), '.1f'):>13}{num(r.get('decodeTokensPerSecond'), '.1f'):>12}"
          f"{(num(hit * 100, '.1f') + '%') if hit is not None else 'n/a':>11}{r['reusedAttempts']:>8}"
          f"{num(rss, '.1f') + (' (fmeval only)' if run == 'openai' else ''):>20}  {r['answersSHA256'][:12]}")
    if r.get("errored"):
        print(f"  {r['errored']} case(s) ended in an infrastructure error")
base = load("openai.json")
for run in runs[1:]:
    r = load(run + ".json")
    if r["wallSeconds"] > 0:
        print(f"{run}: {base['wallSeconds'] / r['wallSeconds']:.2f}x llama-server's cases/s")
print()
bench = load("fmeval-bench.json")
llama = {}
for row in load("llama-bench.json"):
    key = f"pp{row['n_prompt']}" if row.get("n_gen", 0) == 0 else f"tg{row['n_gen']}"
    llama[key] = row.get("avg_ts")
print(f"{'engine':<26}{'prefill t/s':>13}{'decode t/s':>12}")
if llama:
    print(f"{'llama-bench -t 2':<26}{num(llama.get('pp512'), '.1f') + ' (pp512)':>13}{num(llama.get('tg128'), '.1f') + ' (tg128)':>12}")
else:
    print(f"{'llama-bench':<26}  not built: run 'bash .ci/llama-server.sh llama-bench' once")
print(f"{'fmeval bench':<26}{num(bench['prefillTokensPerSecond'], '.1f') + ' (pp300)':>13}{num(bench['decodeTokensPerSecond'], '.1f') + ' (tg128)':>12}")
PY
