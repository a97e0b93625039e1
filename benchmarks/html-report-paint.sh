#!/bin/sh
# When a large HTML report paints in headless Chromium (docs/reports.md, "Benchmark: a 10,000-case report").
# Usage: benchmarks/html-report-paint.sh [CASES] [RUNS] (default 10000 5). Builds fmeval-bench-html (debug: the
# render time is not what is measured), writes a CASES-case results.json and its report.html to a temporary
# folder, and prints, for each of RUNS fresh Chromium loads, the paint and load times
# (benchmarks/html-report-paint.py), the file size and the load average. KEEP=1 keeps the folder.
set -eu
cases=${1:-10000}
runs=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
folder=$(mktemp -d "${TMPDIR:-/tmp}/fmeval-html-paint.XXXXXX")
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$folder"' EXIT
cd "$root"
swift build --product fmeval-bench-html >/dev/null
"$(swift build --show-bin-path)/fmeval-bench-html" "$folder" "$cases"
echo "$(uptime)"
python3 "$root/benchmarks/html-report-paint.py" "$folder/report.html" "$runs"
[ "${KEEP:-}" != 1 ] || echo "kept $folder"
