#!/usr/bin/env bash
# Grammar masks side by side, in one run: fmeval's and llguidance's (PyPI) over the same vocabulary (the
# default model's), the same JSON Schemas and the same token sequences. The schemas: Apple's seven
# reference schemas and two example tool sets (fmeval's example documents), every schema and tool set of
# the example suites (suites/), and the JSONSchemaBench sample in reference/jsonschemabench (its
# valid instances; PROVENANCE.md there says how it was drawn). Prints, per engine, the schemas compiled,
# the time to first mask and the time per mask (average, p50, p99, max), then the ratios.
#
# Usage: .ci/bench-masks-vs-llguidance.sh            (from anywhere; a benchmark, not a test)
# Environment: FMEVAL_BIN (default .build/release/fmeval: build it optimized first), LLGUIDANCE_VERSION
# (default 1.9.1), FMEVAL_BENCH_VENV (default: a throw-away virtual environment, removed on exit).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
fmeval="${FMEVAL_BIN:-$root/.build/release/fmeval}"
[ -x "$fmeval" ] || { echo "bench-masks: no fmeval at $fmeval; run 'swift build -c release'" >&2; exit 2; }
work="$(mktemp -d)"
venv="${FMEVAL_BENCH_VENV:-$work/venv}"
trap 'rm -rf "$work"' EXIT

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "llguidance==${LLGUIDANCE_VERSION:-1.9.1}" numpy tokenizers >&2
fi
echo "bench-masks: load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores; llguidance" \
  "$("$venv/bin/pip" show llguidance | sed -n 's/^Version: //p')" >&2
"$fmeval" bench masks --suites suites --corpus reference/jsonschemabench --export "$work/export" --json \
  >"$work/fmeval.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print("fmeval: %d grammars; corpus schemas fmeval does not read: %d" % (len(d["grammars"]),
      sum(d["corpusRefused"].values())))' "$work/fmeval.json" >&2
"$venv/bin/python" .ci/bench_masks_llguidance.py "$work/export"
