#!/usr/bin/env python3
"""Deterministic inputs for the jq workloads (standard library only).
Usage: gen_data.py OUTDIR [COUNT]   (COUNT objects, default 20,000)

  events.jsonl  COUNT event objects, one per line (about 10 MB at 20,000):
                id, ts, user, status ("ok", "error", ...), nested request
                and metrics objects, tags and items arrays.
  rows.json     one array of COUNT rows, each an array of scalars (numbers,
                strings with tabs or backslashes now and then, booleans,
                null), for @tsv."""
import json, os, random, sys

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
rnd = random.Random(1207)
os.makedirs(out, exist_ok=True)

users = ["user%03d" % i for i in range(250)]
statuses = ["ok"] * 14 + ["error"] * 3 + ["warn", "timeout", "retry"]
methods = ["GET"] * 6 + ["POST"] * 3 + ["PUT", "DELETE", "PATCH"]
words = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu "
         "nu xi omicron pi rho sigma tau upsilon phi chi psi omega").split()
regions = ["eu-west-1", "eu-central-1", "us-east-1", "us-west-2", "ap-south-1"]


def event(i):
    t = 1764547200 + i * 37 + rnd.randint(0, 30)
    day, rem = divmod(t - 1764547200, 86400)
    ts = "2025-12-%02dT%02d:%02d:%02d.%03dZ" % (
        1 + day % 28, rem // 3600, rem // 60 % 60, rem % 60, rnd.randint(0, 999))
    status = rnd.choice(statuses)
    return {
        "id": i + 1,
        "ts": ts,
        "user": rnd.choice(users),
        "status": status,
        "latency_ms": round(rnd.lognormvariate(3.5, 0.9), 3),
        "request": {
            "method": rnd.choice(methods),
            "path": "/api/v%d/%s/%s/%d" % (rnd.randint(1, 3), rnd.choice(words),
                                          rnd.choice(words), rnd.randint(1, 99999)),
            "headers": {
                "user-agent": "client/%d.%d.%d (%s)" % (
                    rnd.randint(1, 9), rnd.randint(0, 30), rnd.randint(0, 99),
                    rnd.choice(["linux", "darwin", "windows"])),
                "accept": rnd.choice(["application/json", "text/html", "*/*"]),
                "x-request-id": "%016x" % rnd.getrandbits(64),
            },
            "bytes": rnd.randint(0, 1 << 20),
        },
        "geo": {"region": rnd.choice(regions),
                "lat": round(rnd.uniform(-90, 90), 6),
                "lon": round(rnd.uniform(-180, 180), 6)},
        "metrics": {"cpu": round(rnd.random(), 4), "mem_mb": rnd.randint(64, 8192),
                    "gc_pauses": [rnd.randint(0, 50) for _ in range(rnd.randint(0, 4))]},
        "tags": rnd.sample(words, rnd.randint(0, 5)),
        "items": [{"sku": "SKU-%05d" % rnd.randint(0, 99999),
                   "qty": rnd.randint(1, 20),
                   "price": round(rnd.uniform(0.5, 500), 2)}
                  for _ in range(rnd.randint(0, 3))],
        "error": None if status == "ok" else {
            "code": rnd.choice([400, 401, 403, 404, 409, 429, 500, 502, 503, 504]),
            "message": " ".join(rnd.choice(words) for _ in range(rnd.randint(3, 9)))},
        "retry": status == "retry",
    }


with open(os.path.join(out, "events.jsonl"), "w") as f:
    for i in range(count):
        f.write(json.dumps(event(i), separators=(",", ":")) + "\n")


def cell(j):
    k = rnd.randint(0, 9)
    if k < 3:
        return rnd.randint(-100000, 100000)
    if k < 5:
        return round(rnd.uniform(-1000, 1000), rnd.randint(0, 6))
    if k < 8:
        s = " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 4)))
        if rnd.random() < 0.05:
            s += rnd.choice(["\t", "\\", "\n", "\r"]) + rnd.choice(words)
        return s
    if k < 9:
        return rnd.random() < 0.5
    return None


with open(os.path.join(out, "rows.json"), "w") as f:
    f.write("[\n")
    for i in range(count):
        row = [i + 1] + [cell(j) for j in range(9)]
        f.write(json.dumps(row, separators=(",", ":")) + (",\n" if i + 1 < count else "\n"))
    f.write("]\n")
