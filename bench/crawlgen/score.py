#!/usr/bin/env python3
"""Scores pagesieve verdicts against a crawlgen stream's labels.

    score.py STREAM.jsonl VERDICTS.jsonl [--json]

A verdict "duplicate" on an event labelled duplicate is a true positive when it
names an event of the same cluster as what it duplicates (the original, or an
earlier variant of it); naming an unrelated page counts as a false positive
and a false negative. Prints duplicate precision, recall and F1, then how each
kind of variant fared and which tier caught it.
"""

import argparse
import collections
import json
import sys


def load_labels(path):
    labels, cluster = {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            e = json.loads(line)
            label = e["label"]
            labels[e["event_id"]] = label
            cluster[e["event_id"]] = label["of"] or e["event_id"]
    return labels, cluster


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("stream")
    ap.add_argument("verdicts")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()
    labels, cluster = load_labels(args.stream)

    tp = fp = fn = 0
    per_variant = collections.defaultdict(collections.Counter)
    seen = set()
    with open(args.verdicts, encoding="utf-8") as f:
        for line in f:
            v = json.loads(line)
            eid = v["event_id"]
            if eid not in labels:
                continue
            seen.add(eid)
            label = labels[eid]
            expected_dup = label["expect"] == "duplicate"
            said_dup = v["verdict"] == "duplicate"
            of = (v.get("duplicate_of") or {}).get("event_id")
            # url.mode = bloom names no origin: trust the tier.
            right_cluster = of is None or cluster.get(of) == cluster[eid]
            stats = per_variant[label["variant"]]
            stats["events"] += 1
            if said_dup:
                stats["tier:" + v["tier"]] += 1
            if expected_dup and said_dup and right_cluster:
                tp += 1
                stats["caught"] += 1
            else:
                if said_dup:
                    fp += 1
                    stats["false_duplicate"] += 1
                if expected_dup:
                    fn += 1
                    stats["missed"] += 1
    missing = len(labels) - len(seen)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    if args.json:
        print(json.dumps({"precision": precision, "recall": recall, "f1": f1, "tp": tp, "fp": fp,
                          "fn": fn, "events": len(labels), "without_verdict": missing,
                          "variants": per_variant}))
        return
    print("duplicates: precision %.4f  recall %.4f  F1 %.4f  (tp %d, fp %d, fn %d; %d events, "
          "%d without a verdict)" % (precision, recall, f1, tp, fp, fn, len(labels), missing))
    for variant, stats in sorted(per_variant.items()):
        tiers = " ".join("%s %d" % (k[5:], n) for k, n in sorted(stats.items())
                         if k.startswith("tier:"))
        print("  %-14s %5d events  caught %4d  missed %4d  false dup %4d   %s" % (
            variant, stats["events"], stats["caught"], stats["missed"], stats["false_duplicate"],
            tiers))


if __name__ == "__main__":
    main()
