#!/usr/bin/env bash
# Model capacity behind the API (issue 32; figures in docs/engines.md): the benchmark suites on the openai
# engine against three server set-ups on this machine, side by side in one run:
#   one     one llama-server, one slot (-np 1, 2 threads), --jobs 1: the greedy reference
#   slots   one llama-server, four slots (-np 4, 2 threads), --jobs 4, maxConcurrency 4
#   pool    two llama-servers, one slot and one thread each, behind a round-robin proxy, --jobs 2
# Prints wall time, cases per second and how many cases' first answers differ from `one`'s.
# A benchmark, not a test: run it on a quiet machine from the repository root after
# `swift build -c release` and `bash .ci/llama-server.sh`; SUITE picks another suite.
set -euo pipefail
fmeval="${FMEVAL_BIN:-$PWD/.build/release/fmeval}"
suite="${SUITE:-benchmarks}"
server="$(bash .ci/llama-server.sh)"
model="$("$fmeval" model fetch)"
work="$(mktemp -d)"
pids=()
stop() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap stop EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_healthy() {
  for _ in $(seq 600); do
    python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$1/health', timeout=1)" \
      2>/dev/null && return 0
    sleep 0.2
  done
  echo "server-pool: llama-server on port $1 did not become healthy" >&2; exit 3
}
start_server() {  # PORT SLOTS THREADS
  "$server" -m "$model" --host 127.0.0.1 --port "$1" -c $((2048 * $2)) -np "$2" -t "$3" -fa off --no-webui \
    >"$work/server-$1.log" 2>&1 &
  pids+=($!)
  wait_healthy "$1"
}

# Each case's first answer: id<TAB>status<TAB>output or text.
answers() {
  python3 -c '
import json, sys
for case in sorted(json.load(open(sys.argv[1]))["cases"], key=lambda c: c["id"]):
    attempt = case["attempts"][0] if case["attempts"] else {}
    answer = json.dumps(attempt.get("output")) if attempt.get("output") is not None else attempt.get("text") or ""
    print(case["id"], case["status"], answer.replace("\n", " "), sep="\t")' "$1"
}

# Runs the suite on the openai engine at BASE_URL with the extra flags; prints "SECONDS CASES".
run_suite() {  # NAME BASE_URL FLAGS...
  local name="$1" base="$2"; shift 2
  local start end
  start=$(date +%s.%N)
  "$fmeval" run "$suite" --engine openai --base-url "$base" --model smollm2 --no-history --no-probe -q \
    --json "$work/$name.json" "$@" >"$work/$name.log" 2>&1 || [ $? -eq 1 ]
  end=$(date +%s.%N)
  answers "$work/$name.json" >"$work/$name.tsv"
  python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}', sys.argv[3])" \
    "$start" "$end" "$(wc -l <"$work/$name.tsv")"
}

echo "server-pool: $suite, load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $(basename "$model")"
one=$(free_port); start_server "$one" 1 2
read -r one_s cases < <(run_suite one "http://127.0.0.1:$one/v1" --jobs 1)
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true

slots=$(free_port); start_server "$slots" 4 2
read -r slots_s _ < <(run_suite slots "http://127.0.0.1:$slots/v1" --jobs 4 --engine-option maxConcurrency=4)
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true

a=$(free_port); b=$(free_port); proxy=$(free_port)
start_server "$a" 1 1; start_server "$b" 1 1
python3 - "$proxy" "$a" "$b" >"$work/proxy.log" 2>&1 <<'PY' &
import http.server, itertools, socketserver, sys, threading, urllib.request
port, upstreams = int(sys.argv[1]), itertools.cycle(sys.argv[2:])
lock = threading.Lock()
class Proxy(http.server.BaseHTTPRequestHandler):
    def relay(self):
        with lock:
            upstream = next(upstreams)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0)) or None
        request = urllib.request.Request(f"http://127.0.0.1:{upstream}{self.path}", data=body, method=self.command,
                                         headers={"Content-Type": "application/json"})
        try:
            reply = urllib.request.urlopen(request, timeout=600)
            status, data = reply.status, reply.read()
        except urllib.error.HTTPError as error:
            status, data = error.code, error.read()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    do_GET = do_POST = relay
    def log_message(self, *args): pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer): daemon_threads = True
Server(("127.0.0.1", port), Proxy).serve_forever()
PY
pids+=($!)
wait_healthy "$proxy"
read -r pool_s _ < <(run_suite pool "http://127.0.0.1:$proxy/v1" --jobs 2 --engine-option maxConcurrency=2)

differ() { python3 -c '
import sys
a = dict(l.split("\t", 1) for l in open(sys.argv[1]).read().splitlines())
b = dict(l.split("\t", 1) for l in open(sys.argv[2]).read().splitlines())
print(sum(1 for k in a if a[k] != b.get(k)))' "$work/one.tsv" "$work/$1.tsv"; }
printf '%-6s %-48s %9s %8s %s\n' setup server "wall (s)" "cases/s" "answers unlike one"
for row in "one|1 server, -np 1, --jobs 1|$one_s|0" "slots|1 server, -np 4, --jobs 4|$slots_s|$(differ slots)" \
           "pool|2 servers (-np 1, -t 1) behind a proxy, --jobs 2|$pool_s|$(differ pool)"; do
  IFS='|' read -r name description seconds changed <<<"$row"
  printf '%-6s %-48s %9s %8s %s of %s\n' "$name" "$description" "$seconds" \
    "$(python3 -c "print(f'{$cases / $seconds:.1f}')")" "$changed" "$cases"
done
