#!/usr/bin/env python3
"""Times `ravenshard check` on a generated export: 20,000 companies and 1,000,000 orders
naming them in `Company` (NDJSON, about 117 MB), under 3 shards, with the clean fixture
record; without relations, and with the loads Orders.Company and Orders.Lines.Product (the
second names no document). Prints wall-clock seconds and the child's peak RSS per run.

Usage: python3 bench/check.py [ORDERS]   (builds the release CLI first)
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
orders = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
companies = max(1, orders // 50)
subprocess.run(["cargo", "build", "--release", "--locked", "-p", "ravenshard-cli"], cwd=root, check=True)
binary = os.path.join(root, "target", "release", "ravenshard")
record = os.path.join(root, "crates", "ravenshard-check", "fixtures", "clean-record.json")

with tempfile.TemporaryDirectory() as work:
    export = os.path.join(work, "export.ndjson")
    with open(export, "w") as f:
        for c in range(1, companies + 1):
            f.write(json.dumps({"Name": "c", "@metadata": {"@id": f"companies/{c}-A", "@collection": "Companies"}}) + "\n")
        for o in range(1, orders + 1):
            body = {"Company": f"companies/{o % companies + 1}-A", "Total": o}
            body["@metadata"] = {"@id": f"orders/{o}-A", "@collection": "Orders"}
            f.write(json.dumps(body) + "\n")
    loads = os.path.join(work, "loads.txt")
    with open(loads, "w") as f:
        f.write("Orders.Company\nOrders.Lines.Product\n")
    print(f"{companies + orders} documents, {os.path.getsize(export)} bytes; load average {os.getloadavg()[0]:.1f}")
    for name, extra in [("no relations", []), ("two relations", ["--loads", loads])]:
        start = time.perf_counter()
        run = subprocess.run([binary, "check", "--shards", "3", *extra, record, export], capture_output=True)
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
        print(f"{name}: {seconds:.1f} s, exit {run.returncode}, peak RSS of the runs so far {peak} MiB")
