#!/usr/bin/env python3
"""Prints a table of median milliseconds per workload and engine, and each
peer's time divided by vsh's (above 1.0: vsh is faster). An output whose
fingerprint differs from the reference engine's (host bash's unless named)
is marked with '!'.
Usage: ratios.py RESULTS_DIR [REFERENCE]   (one ENGINE.jsonl per engine)"""
import json, os, sys

d = sys.argv[1]
engines = {}
for f in sorted(os.listdir(d)):
    if f.endswith(".jsonl"):
        rows = {}
        for line in open(os.path.join(d, f)):
            line = line.strip()
            if line.startswith("{"):
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                rows[r["workload"]] = r
        engines[f[:-6]] = rows
engines.setdefault("vsh", {})
known = ["bash", "busybox", "just-bash", "bashkit"]
order = ["vsh"] + [e for e in known if e in engines]
order += sorted(e for e in engines if e not in order)
names = sorted({w for rows in engines.values() for w in rows})
ref = engines.get(sys.argv[2] if len(sys.argv) > 2 else "bash", {})
print("%-22s" % "workload" + "".join("%22s" % e for e in order))
for w in names:
    v = engines["vsh"].get(w, {}).get("median_ms")
    cells = []
    for e in order:
        r = engines[e].get(w)
        if not r:
            cells.append("%22s" % "-")
            continue
        ms = r["median_ms"]
        mark = ""
        if "out_sha" in r and w in ref and "out_sha" in ref[w] and r["out_sha"] != ref[w]["out_sha"]:
            mark = "!"
        if e == "vsh" or not v or w == "rss_mb":
            cells.append("%22s" % ("%.4g%s" % (ms, mark)))
        else:
            q = ms / v
            qs = "%.0f" % q if q >= 1000 else "%.3g" % q
            cells.append("%22s" % ("%.4g (x%s)%s" % (ms, qs, mark)))
    print("%-22s" % w + "".join(cells))
# Memory figures (fields other than time) as they were measured.
for e in order:
    r = engines[e].get("00-idle-sandbox")
    if r and "kb" in r:
        print("%s: 00-idle-sandbox %.1f KB per sandbox over %d sandboxes"
              % (e, r["kb"], r.get("sandboxes", 0)))
# Growth of hydrate with the archive (goal: linear, 10x the files <= 12x).
for e in order:
    a, b = engines[e].get("00-hydrate-10k"), engines[e].get("00-hydrate-100k")
    if a and b and a["median_ms"]:
        print("%s: 00-hydrate-100k / 00-hydrate-10k = %.1f"
              % (e, b["median_ms"] / a["median_ms"]))
