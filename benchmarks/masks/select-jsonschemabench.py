#!/usr/bin/env python3
"""Draws the JSONSchemaBench sample in reference/jsonschemabench (see PROVENANCE.md there).

Reads every file of MaskBench's data folder (a checkout of github.com/guidance-ai/jsonschemabench,
maskbench/data: {schema, tests}), keeps the schemas fmeval reads in the Foundation Models dialect
(`fmeval schema check` accepts the schema, and the first valid instance is valid in fmeval's validator),
counts the others by why fmeval refuses them, and copies every K-th kept file (in name order) with only
its valid instances that fmeval accepts. Deterministic: the same data give the same sample.

Usage: select-jsonschemabench.py DATA_DIR OUT_DIR [COUNT]   (run from the repository root after
`swift build -c release`; COUNT defaults to 60)
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

FMEVAL = os.environ.get("FMEVAL_BIN", ".build/release/fmeval")


def check(schema, instance, scratch):
    """(exit status, first line of standard error) of `fmeval schema check` on the two values."""
    schema_file, instance_file = os.path.join(scratch, "schema.json"), os.path.join(scratch, "instance.json")
    with open(schema_file, "w") as out:
        json.dump(schema, out)
    with open(instance_file, "w") as out:
        json.dump(instance, out)
    done = subprocess.run([FMEVAL, "schema", "check", schema_file, instance_file], capture_output=True, text=True)
    return done.returncode, (done.stderr.strip().splitlines() or [""])[0]


def reason(line):
    """Why fmeval refused a schema, without its location: the message up to its first parenthesis or ';'."""
    text = re.sub(r"^fmeval: error: \S+:\d+:\d+: (at \S+: )?", "", line)
    return re.split(r"[;(]", text)[0].strip().rstrip(",:")


def classify(path):
    with open(path) as source:
        data = json.load(source)
    valid = [test["data"] for test in data.get("tests", []) if test.get("valid")]
    with tempfile.TemporaryDirectory() as scratch:
        status, line = check(data["schema"], valid[0] if valid else {}, scratch)
        if status == 2:
            return os.path.basename(path), "refused", reason(line)
        if not valid:
            return os.path.basename(path), "no valid instance", None
        if status != 0:
            return os.path.basename(path), "instance invalid in fmeval", None
        return os.path.basename(path), "kept", None


def main():
    data_dir, out_dir = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    names = sorted(name for name in os.listdir(data_dir) if name.endswith(".json"))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(classify, [os.path.join(data_dir, name) for name in names]))
    kept = [name for name, verdict, _ in results if verdict == "kept"]
    tally = {}
    for _, verdict, why in results:
        key = verdict if why is None else f"refused: {why}"
        tally[key] = tally.get(key, 0) + 1
    os.makedirs(out_dir, exist_ok=True)
    step = max(1, len(kept) // count)
    chosen = kept[::step][:count]
    with tempfile.TemporaryDirectory() as scratch:
        for name in chosen:
            with open(os.path.join(data_dir, name)) as source:
                data = json.load(source)
            tests = [test for test in data["tests"] if test.get("valid")
                     and check(data["schema"], test["data"], scratch)[0] == 0]
            with open(os.path.join(out_dir, name), "w") as out:
                json.dump({"description": data.get("description"), "schema": data["schema"], "tests": tests}, out,
                          indent=1, ensure_ascii=False)
                out.write("\n")
    print(json.dumps({"files": len(names), "kept": len(kept), "sampled": len(chosen), "step": step,
                      "tally": dict(sorted(tally.items(), key=lambda item: -item[1]))}, indent=1))


if __name__ == "__main__":
    main()
