#!/usr/bin/env python3
"""Per-variant quality table of pagesieve dedup on crawlgen streams.

    quality_table.py --bin build/pagesieve [--seeds 1 2 3] [--scopes registered_domain global]
                     [--sites 300] [--set key=value]... [--crawlgen-arg=--p-forum=0.5]...

For each seed, generates a stream (crawlgen.py, default settings), runs
`pagesieve dedup` over it once per scope (--set scope.key=SCOPE, fresh
state, default settings otherwise) and scores the verdicts with score.py
under that scope. Prints, in markdown:

  1. one row per variant, summed over the seeds, with per scope the expected
     duplicates caught (caught/expected), the false duplicates, and recall
     (duplicate variants) or the share kept unique (variants labelled
     unique), then a row for the hard negatives as a group;
  2. precision, recall and F1 per scope and seed, and over all seeds;
  3. the targets of the near-duplicate issue, met or not.

Python standard library only. Exit status 0 whether or not targets are met
(--check makes unmet targets exit 1).
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import score  # noqa: E402

POSITIVE_ORDER = ["url_variant", "refetch", "mirror", "noise", "rerender", "comments",
                  "small_edit", "word_edit", "syndication"]
NEGATIVE_ORDER = ["original", "same_template", "changed_page", "heavy_rewrite", "follow_up",
                  "shared_quote", "template_page", "forum_page"]
TARGETS = {"precision": 0.995, "recall": 0.99, "word_edit": 0.98, "syndication": 0.98}


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if r.returncode != 0:
        sys.exit("quality_table: %s failed (%d):\n%s" % (" ".join(cmd), r.returncode, r.stderr))
    return r


def pct(a, b):
    return "%.3f" % (a / b) if b else "–"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the pagesieve binary")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--scopes", nargs="+", default=["registered_domain", "global"],
                    choices=score.SCOPES)
    ap.add_argument("--sites", type=int, default=300, help="crawlgen --sites")
    ap.add_argument("--data", help="crawlgen --data (default: crawlgen's)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="passed to pagesieve dedup (besides scope.key)")
    ap.add_argument("--crawlgen-arg", action="append", default=[], metavar="ARG",
                    help="passed to crawlgen.py, e.g. --crawlgen-arg=--p-forum=0.5")
    ap.add_argument("--work", help="keep streams and verdicts in this folder")
    ap.add_argument("--json", help="also write every score as JSON to this file")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args()

    work = args.work or tempfile.mkdtemp(prefix="quality-table-")
    os.makedirs(work, exist_ok=True)
    results = {}  # (scope, seed) -> score
    for seed in args.seeds:
        stream = os.path.join(work, "stream-%d.jsonl" % seed)
        cmd = [sys.executable, os.path.join(HERE, "crawlgen.py"), "--seed", str(seed),
               "--sites", str(args.sites), "-o", stream] + args.crawlgen_arg
        if args.data:
            cmd += ["--data", args.data]
        run(cmd)
        for scope in args.scopes:
            verdicts = os.path.join(work, "verdicts-%d-%s.jsonl" % (seed, scope))
            cmd = [args.bin, "dedup", "-q", "--set", "scope.key=" + scope]
            for kv in args.set:
                cmd += ["--set", kv]
            run(cmd + ["--input", stream, "--output", verdicts])
            results[(scope, seed)] = score.score(stream, verdicts, scope)
            print("quality_table: seed %d, scope %s done" % (seed, scope), file=sys.stderr)

    # Per variant, summed over seeds.
    totals = {scope: collections.defaultdict(collections.Counter) for scope in args.scopes}
    for (scope, _), r in results.items():
        for variant, stats in r["variants"].items():
            totals[scope][variant].update(stats)
    variants = set()
    for t in totals.values():
        variants |= set(t)
    ordered = [v for v in POSITIVE_ORDER if v in variants] + \
        sorted(v for v in variants if v not in POSITIVE_ORDER + NEGATIVE_ORDER) + \
        [v for v in NEGATIVE_ORDER if v in variants]
    first = totals[args.scopes[0]]
    seeds = ", ".join(str(s) for s in args.seeds)
    print("Per variant, seeds %s (%d sites each), default settings, fresh state; made by "
          "`%s`.\n" % (seeds, args.sites, " ".join(["bench/crawlgen/quality_table.py"] +
                                                  sys.argv[1:])))
    head = "| variant | events |" + "".join(
        " %s: caught/expected | false dup | recall / kept |" % s for s in args.scopes)
    print(head)
    print("|" + "---|" * (2 + 3 * len(args.scopes)))
    hard = {scope: collections.Counter() for scope in args.scopes}
    for v in ordered:
        negative = first[v]["labelled_duplicate"] == 0
        cells = []
        for scope in args.scopes:
            st = totals[scope][v]
            fd = st["false_duplicate"]
            if negative:
                cells += ["–", str(fd), pct(st["events"] - fd, st["events"])]
                if v != "original":
                    hard[scope]["events"] += st["events"]
                    hard[scope]["false_duplicate"] += fd
            else:
                cells += ["%d/%d" % (st["caught"], st["expected"]), str(fd),
                          pct(st["caught"], st["expected"])]
        print("| %s | %d | %s |" % (v, first[v]["events"], " | ".join(cells)))
    cells = []
    for scope in args.scopes:
        h = hard[scope]
        cells += ["–", str(h["false_duplicate"]), pct(h["events"] - h["false_duplicate"],
                                                       h["events"])]
    print("| **hard negatives** | %d | %s |" % (hard[args.scopes[0]]["events"], " | ".join(cells)))
    print("\nexpected: labelled duplicates whose cluster was seen earlier in the same scope. "
          "recall / kept: caught/expected for duplicate variants, the share kept unique for "
          "the variants labelled unique (\"hard negatives\": all of them but the originals).")

    # Overall, per scope and seed.
    print("\nOverall duplicate precision / recall / F1.\n")
    print("| scope | seed | events | tp | fp | fn | precision | recall | F1 |")
    print("|---|---|---|---|---|---|---|---|---|")
    overall = {}
    for scope in args.scopes:
        tp = fp = fn = events = 0
        for seed in args.seeds:
            r = results[(scope, seed)]
            tp, fp, fn, events = tp + r["tp"], fp + r["fp"], fn + r["fn"], events + r["events"]
            print("| %s | %d | %d | %d | %d | %d | %.4f | %.4f | %.4f |" % (
                scope, seed, r["events"], r["tp"], r["fp"], r["fn"], r["precision"],
                r["recall"], r["f1"]))
        p = tp / (tp + fp) if tp + fp else 1.0
        rc = tp / (tp + fn) if tp + fn else 1.0
        f1 = 2 * p * rc / (p + rc) if p + rc else 0.0
        overall[scope] = (p, rc)
        print("| %s | all | %d | %d | %d | %d | **%.4f** | **%.4f** | **%.4f** |" % (
            scope, events, tp, fp, fn, p, rc, f1))

    # Targets: every seed, every scope.
    print("\nTargets (each scope, each seed): precision >= %.3f, recall >= %.2f, recall on "
          "word_edit and syndication >= %.2f.\n" % (TARGETS["precision"], TARGETS["recall"],
                                                    TARGETS["word_edit"]))
    missed = []
    for (scope, seed), r in sorted(results.items()):
        checks = [("precision", r["precision"], TARGETS["precision"]),
                  ("recall", r["recall"], TARGETS["recall"])]
        for v in ("word_edit", "syndication"):
            st = r["variants"].get(v, {})
            if st.get("expected"):
                checks.append(("recall " + v, st.get("caught", 0) / st["expected"], TARGETS[v]))
        for name, value, target in checks:
            if value < target:
                missed.append("%s seed %d: %s %.4f < %.3f" % (scope, seed, name, value, target))
    print("- " + "\n- ".join(missed) if missed else "- all met")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"%s/%d" % k: v for k, v in results.items()}, f, indent=1)
    if not args.work:
        for name in os.listdir(work):
            os.remove(os.path.join(work, name))
        os.rmdir(work)
    sys.exit(1 if args.check and missed else 0)


if __name__ == "__main__":
    main()
