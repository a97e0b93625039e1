#!/usr/bin/env python3
"""Replays `fmeval bench masks --export DIR` with llguidance and compares (.ci/bench-masks-vs-llguidance.sh).

Both engines see the same vocabulary (fmeval's token bytes), the same JSON Schemas and the same token
sequences. llguidance gets a tokenizer built with Hugging Face `tokenizers` from the GGUF's own token
strings, merges and pre-tokenizer (it tokenizes the text a grammar forces); the script first checks that
this tokenizer gives fmeval's token ids for every document. Per engine it prints the schemas compiled, the
time to first mask (compile + the first mask) and the time per mask (average, p50, p99, max) over every
step of every document, then the fmeval/llguidance ratios. llguidance's times include the Python call of
each mask fill (about a microsecond), which fmeval's in-process figures do not.

Usage: bench_masks_llguidance.py DIR [--json]
"""
import json
import statistics
import sys
import time

import llguidance
import llguidance.numpy as llg_numpy
from tokenizers import Tokenizer, decoders, models, pre_tokenizers


def hf_tokenizer(vocabulary):
    """The GGUF's BPE tokenizer: digits isolated, then the GPT-2 byte-level split (`smollm`)."""
    if vocabulary["preTokenizer"] not in ("smollm", "gpt2", "gpt-2"):
        sys.exit(f"bench masks: no tokenizer here for pre-tokenizer {vocabulary['preTokenizer']}")
    pieces = vocabulary["pieces"]
    merges = [tuple(line.split(" ", 1)) for line in vocabulary["merges"]]
    tokenizer = Tokenizer(models.BPE(vocab={piece: index for index, piece in enumerate(pieces)}, merges=merges))
    split = [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)]
    if vocabulary["preTokenizer"] == "smollm":
        split.insert(0, pre_tokenizers.Digits(individual_digits=True))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(split)
    tokenizer.decoder = decoders.ByteLevel()
    return tokenizer


class Wrapped:
    """What llguidance.TokenizerWrapper reads: token bytes, end and special ids, and an encoder."""

    def __init__(self, vocabulary, tokenizer):
        self.tokens = [bytes.fromhex(text) for text in vocabulary["tokens"]]
        self.eos_token_id = vocabulary["endTokens"][0]
        self.bos_token_id = None
        self.special_token_ids = vocabulary["specialTokens"]
        self.tokenizer = tokenizer

    def __call__(self, text):
        if isinstance(text, bytes):
            raise TypeError("str only")
        return self.tokenizer.encode(text, add_special_tokens=False).ids


def percentile(values, fraction):
    """Nearest-rank quantile, as fmeval computes it."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(-(-len(ordered) * fraction // 1)) - 1))]


def summary(first_masks, steps):
    return {"firstMaskMicroseconds": {"average": statistics.fmean(first_masks), "p50": percentile(first_masks, 0.5),
                                      "p99": percentile(first_masks, 0.99), "max": max(first_masks)},
            "maskMicroseconds": {"average": statistics.fmean(steps), "p50": percentile(steps, 0.5),
                                 "p99": percentile(steps, 0.99), "max": max(steps)}}


def main():
    directory = sys.argv[1]
    vocabulary = json.load(open(f"{directory}/vocabulary.json"))
    workloads = json.load(open(f"{directory}/workloads.json"))
    bpe = hf_tokenizer(vocabulary)
    wrapped = Wrapped(vocabulary, bpe)
    tokenizer = llguidance.LLTokenizer(llguidance.TokenizerWrapper(wrapped), n_vocab=len(wrapped.tokens))
    end = set(vocabulary["endTokens"])
    mismatched = 0
    for workload in workloads:
        for document in workload["documents"]:
            text = b"".join(wrapped.tokens[token] for token in document if token not in end).decode("utf-8")
            mismatched += wrapped(text) != [token for token in document if token not in end]
    mask = llg_numpy.allocate_token_bitmask(1, tokenizer.vocab_size)
    rows, fm_first, fm_steps, llg_first, llg_steps = [], [], [], [], []
    compiled = refused = 0
    for workload in workloads:
        if workload["schema"] is None or not workload["documents"]:
            rows.append({"name": workload["name"], "llguidance": "no JSON Schema or no document"})
            continue
        start = time.perf_counter_ns()
        grammar = llguidance.LLMatcher.grammar_from_json_schema(workload["schema"])
        matcher = llguidance.LLMatcher(tokenizer, grammar)
        if matcher.is_error():
            refused += 1
            rows.append({"name": workload["name"], "llguidance": "refused: " + matcher.get_error()[:120]})
            continue
        compiled += 1
        steps, first, rejected = [], None, 0
        for document in workload["documents"]:
            matcher.reset()
            for token in document:
                step = time.perf_counter_ns()
                llg_numpy.fill_next_token_bitmask(matcher, mask, 0)
                now = time.perf_counter_ns()
                if first is None:
                    first = (now - start) / 1000
                steps.append((now - step) / 1000)
                if not (int(mask[0][token >> 5]) >> (token & 31)) & 1 or not matcher.consume_token(token):
                    rejected += 1
                    break
        fmeval_first = workload["compileMicroseconds"] + (workload["coldMicroseconds"] or [0])[0]
        fm_first.append(fmeval_first)
        fm_steps += workload["coldMicroseconds"]
        llg_first.append(first)
        llg_steps += steps
        rows.append({"name": workload["name"], "documents": len(workload["documents"]), "llguidanceRefusedDocuments": rejected,
                     "fmevalFirstMaskMicroseconds": fmeval_first, "llguidanceFirstMaskMicroseconds": first,
                     "fmevalP99": percentile(workload["coldMicroseconds"], 0.99), "llguidanceP99": percentile(steps, 0.99)})
    result = {"grammars": len(workloads), "tokenizationMismatches": mismatched,
              "fmeval": dict(compiled=len(workloads), **summary(fm_first, fm_steps)),
              "llguidance": dict(compiled=compiled, refused=refused, version=llguidance.__version__ if hasattr(llguidance, "__version__") else None,
                                 **summary(llg_first, llg_steps)),
              "rows": rows}
    if "--json" in sys.argv:
        print(json.dumps(result, indent=1))
        return
    print(f"{len(workloads)} grammars; llguidance's tokenizer differs from fmeval's on {mismatched} documents")
    print(f"{'engine':12} {'compiled':>8} {'first mask avg/p50/p99/max µs':>34} {'mask avg/p50/p99/max µs':>30}")
    for engine in ("fmeval", "llguidance"):
        figures = result[engine]
        first, step = figures["firstMaskMicroseconds"], figures["maskMicroseconds"]
        print(f"{engine:12} {figures['compiled']:>8} "
              f"{first['average']:>9.1f}/{first['p50']:.1f}/{first['p99']:.1f}/{first['max']:.1f}".rjust(47)
              + f"{step['average']:>9.1f}/{step['p50']:.1f}/{step['p99']:.1f}/{step['max']:.1f}".rjust(31))
    ratio = lambda kind, key: result["fmeval"][kind][key] / max(result["llguidance"][kind][key], 1e-9)
    print("fmeval/llguidance: first mask p50 %.2f, p99 %.2f; mask average %.2f, p50 %.2f, p99 %.2f, max %.2f" % (
        ratio("firstMaskMicroseconds", "p50"), ratio("firstMaskMicroseconds", "p99"), ratio("maskMicroseconds", "average"),
        ratio("maskMicroseconds", "p50"), ratio("maskMicroseconds", "p99"), ratio("maskMicroseconds", "max")))


if __name__ == "__main__":
    main()
