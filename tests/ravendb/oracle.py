"""The differential suite: RavenDB's own server code against ravenshard's CLI (the core's
answers) and JS API, on generated IDs and configurations. run.sh installs what it needs and
calls this once per RavenDB version; see docs/rules.md ("Checked against RavenDB's code").

A failure prints the input, RavenDB's answer and ravenshard's; the configuration goes to
--out, so that `ravenshard bucket --config FILE ID` repeats it."""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402
from generate import BUCKETS, SEPARATOR  # noqa: E402
from raven import Raven  # noqa: E402

SHOWN = 10  # failures printed per check


class Checks:
    """Counts checks and prints the first failures of each."""

    def __init__(self):
        self.passed = self.failed = 0
        self.shown = {}

    def expect(self, name, ok, detail):
        if ok:
            self.passed += 1
            return True
        self.failed += 1
        n = self.shown.get(name, 0)
        if n < SHOWN:
            print(f"FAIL {name}: {detail()}")
        elif n == SHOWN:
            print(f"FAIL {name}: (further failures of this check not shown)")
        self.shown[name] = n + 1
        return False


def surface_version(version):
    """The CLI's and the JS API's name for a RavenDB version."""
    return "6.2" if version.startswith("6.") else "7"


class Ravenshard:
    """ravenshard's answers: the CLI (the core's code, through both of its ID readers) and the
    JS API in Node.js (the npm package's files)."""

    def __init__(self, cli, js, version, out):
        self.cli, self.version, self.out = cli, surface_version(version), out
        self.js = js and os.path.abspath(js)

    def _cli_run(self, config, ids, fmt):
        path = os.path.join(self.out, f"ids.{fmt}")
        if fmt == "lines":
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write("".join(i + "\n" for i in ["orders/1-A"] + ids))
        else:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(ids, f)
        run = subprocess.run([self.cli, "bucket", "--config", config, "--server-version",
                              self.version, "--format", fmt, "--file", path],
                             capture_output=True)
        if run.returncode not in (0, 1):
            return [(-1, run.stderr.decode("utf-8", "replace").strip())] * len(ids)
        first = 2 if fmt == "lines" else 1  # the line of ids[0]; lines start with a sentinel
        errors = {}
        for line in run.stderr.decode("utf-8", "replace").splitlines():
            m = re.match(r".*?: line (\d+): (.*)$", line)
            if m:
                errors[int(m.group(1)) - first] = m.group(2)
        out, pos, answers = run.stdout, 0, []
        if fmt == "lines":
            pos = out.index(b"\n") + 1
        for i, id in enumerate(ids):
            head = id.encode("utf-8") + b"\t"
            if not out.startswith(head, pos):  # refused: said on stderr
                answers.append((-1, errors.get(i, "refused (see stderr)")))
                continue
            end = out.index(b"\n", pos + len(head))
            bucket, shard = out[pos + len(head):end].split(b"\t")
            answers.append((int(bucket), int(shard)))
            pos = end + 1
        return answers

    def cli_place(self, config, ids):
        """Plain IDs through ID lines, the ones with a tab, CR or LF through a JSON array."""
        plain = [i for i, id in enumerate(ids) if not re.search("[\t\r\n]", id)]
        other = [i for i, id in enumerate(ids) if re.search("[\t\r\n]", id)]
        answers = [None] * len(ids)
        for fmt, which in (("lines", plain), ("json", other)):
            if which:
                for i, a in zip(which, self._cli_run(config, [ids[i] for i in which], fmt)):
                    answers[i] = a
        return answers

    def js_place(self, config_text, ids):
        """(what the JS API read, its answers); None when no package was given."""
        if not self.js:
            return None
        job, out = os.path.join(self.out, "job.json"), os.path.join(self.out, "js.json")
        with open(job, "w", encoding="utf-8") as f:
            json.dump({"config": config_text, "ids": ids, "serverVersion": self.version}, f)
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ravenshard.cjs")
        subprocess.run(["node", script, self.js, job, out], check=True)
        with open(out, encoding="utf-8") as f:
            result = json.load(f)
        return result["read"], [tuple(a) for a in result["answers"]]


def raven_place(raven, handle, ids):
    from System.Collections.Generic import List
    from System import String
    errors = List[String]()
    flat = list(raven.call("Place", handle, SEPARATOR.join(ids), errors))
    messages = {int(e.split("\t", 1)[0]): e.split("\t", 1)[1] for e in errors}
    return [(-1, messages[i]) if flat[2 * i] < 0 else (flat[2 * i], flat[2 * i + 1])
            for i in range(len(ids))]


def agree(a, b):
    return a == b or (a[0] == -1 and b[0] == -1)


def read_by_js(read):
    """The JS API's toJson() in the shape of Oracle.Describe."""
    if "error" in read:
        return read
    s = read.get("Sharding", read)
    return {"shards": sorted(int(k) for k in s["Shards"]),
            "ranges": [[r["BucketRangeStart"], r["ShardNumber"]] for r in s["BucketRanges"]],
            "prefixes": [[p["Prefix"], p["BucketRangeStart"], p["Shards"]]
                         for p in s.get("Prefixed") or []]}


def check_configuration(checks, raven, rs, name, text, ids, read=True):
    """RavenDB's and ravenshard's answers for `ids` under one configuration, and (with
    `read`) what each read from it. Returns RavenDB's handle, or None if RavenDB refuses it."""
    path = os.path.join(rs.out, name + ".json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    try:
        handle = raven.call("Load", text)
    except RuntimeError as e:  # RavenDB refuses it: so must ravenshard
        js = rs.js_place(text, ids[:1])
        checks.expect("refused configurations", js is None or "error" in js[0],
                      lambda: f"{name} ({path}): RavenDB refuses it ({e}); ravenshard reads it")
        return None
    expected = raven_place(raven, handle, ids)
    cli = rs.cli_place(path, ids)
    js = rs.js_place(text, ids)
    if read:
        described = json.loads(raven.call("Describe", handle))
        described["shards"] = sorted(described["shards"])
        by_cli = read_by_cli(rs, path)
        checks.expect("records read (CLI)", by_cli == described,
                      lambda: f"{name} ({path}):\n  RavenDB    {json.dumps(described)}"
                              f"\n  ravenshard {json.dumps(by_cli)}")
        # Without ICU, the JS API orders non-ASCII prefixes at creation approximately (and
        # warns that it does): only records with ranges, or ASCII prefixes, are compared.
        exact = "BucketRanges" in text or all(p[0].isascii() for p in described["prefixes"])
        if js is not None and exact:
            checks.expect("records read (JS)", read_by_js(js[0]) == described,
                          lambda: f"{name} ({path}):\n  RavenDB    {json.dumps(described)}"
                                  f"\n  ravenshard {json.dumps(read_by_js(js[0]))}")
    for surface, answers in (("CLI", cli), ("JS", js[1] if js else None)):
        if answers is None:
            continue
        for id, want, got in zip(ids, expected, answers):
            checks.expect(f"buckets ({surface})", agree(want, got),
                          lambda: f"{name} ({path}) id {json.dumps(id)}: RavenDB {want}, "
                                  f"ravenshard {got}")
    return handle


CHUNK = 250_000  # IDs compared at a time


def check_buckets(checks, raven, rs, rng, count, kinds, per_kind, seed):
    """`count` IDs under `per_kind` configurations of each kind (the same IDs for each),
    a chunk at a time; each configuration also with unknown keys and nulls added, and as
    RavenDB's client writes it back."""
    print(f"buckets: {count} IDs per configuration")
    first = None
    for kind in kinds:
        for n in range(per_kind):
            name = f"{kind}-{n}"
            text = generate.configuration(rng, kind)
            ids_rng = random.Random(f"{seed}-ids")
            for at in range(0, count, CHUNK):
                if at == 0 and first is not None:
                    ids = first
                else:
                    ids = generate.document_ids(ids_rng, min(CHUNK, count - at), generate.PREFIX_POOL)
                    first = ids if at == 0 else first
                handle = check_configuration(checks, raven, rs, name, text, ids, read=at == 0)
                if handle is None:
                    break
                if at == 0:
                    small = ids[:2000]
                    check_configuration(checks, raven, rs, name + "-noisy",
                                        generate.noisy(rng, text), small)
                    check_configuration(checks, raven, rs, name + "-written",
                                        raven.call("Write", handle), small)


def check_casing(checks, raven, rs):
    """Every BMP character alone after `x`: ravenshard's lower-case tables (Unicode 17)
    against this runtime's char.ToLowerInvariant (its ICU's Unicode). Characters ravenshard
    lowers and the runtime leaves are a newer Unicode's mappings, not a fault: they are
    listed, and IDs holding them are left out of the other checks. Any other difference fails."""
    chars = [chr(c) for c in range(0x80, 0x10000) if not 0xD800 <= c <= 0xDFFF and c != 0xFFFF]
    ids = ["x" + c for c in chars]
    handle = raven.call("Load", '{"Shards": {"0": {}}}')
    expected = raven_place(raven, handle, ids)
    path = _write(rs, "casing.json", {"Shards": {"0": {}}})
    got = rs.cli_place(path, ids)
    lowered = raven.call("LowerInvariant", "".join(chars))
    newer = set()
    for c, low, want, have in zip(chars, lowered, expected, got):
        if agree(want, have):
            continue
        if low == c:
            newer.add(c)
            continue
        checks.expect("casing", False, lambda: f"U+{ord(c):04X}: RavenDB lowers it to "
                      f"U+{ord(low):04X} (bucket {want}), ravenshard's bucket {have}")
    checks.expect("casing", True, lambda: "")
    if newer:
        print(f"note: {len(newer)} BMP characters have a lower case in ravenshard's tables "
              f"(Unicode 17) but not in this runtime ({raven.globalization}): "
              + " ".join(f"U+{ord(c):04X}" for c in sorted(newer))
              + "; IDs holding them are left out of the other checks")
    return newer


def check_prefix_order(checks, raven, rs, rng, rounds):
    """The order RavenDB's creation step gives prefixes (ShardingStore.FillPrefixedSharding,
    in this runtime's culture) against the CLI's (ICU4X) and, for ASCII prefixes, the JS
    API's (which has no ICU collation for the rest and says so)."""
    alphabet = ("abcABC019_-./:~!#$%&'()*+,;=?@[]^`{|} " + "éÉèüÜßİıΣσςжЖカ" + "\u00ad\u200b")
    for r in range(rounds):
        prefixes, seen = [], set()
        for _ in range(rng.randint(2, 8)):
            p = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5))) + rng.choice("/-")
            if p.lower() not in seen:
                seen.add(p.lower())
                prefixes.append(p)
        try:
            order = raven.call("Order", SEPARATOR.join(prefixes)).split(SEPARATOR)
        except RuntimeError:
            continue  # RavenDB refuses the set (a prefix in two casings by ToLower): skip it
        config = {"Shards": {"0": {}}, "Prefixed": [{"Prefix": p, "Shards": [0]} for p in prefixes]}
        path = _write(rs, f"order-{r}.json", config)
        cli = read_by_cli(rs, path)
        cli_order = [p[0] for p in cli.get("prefixes", [])]
        checks.expect("prefix order (CLI)", cli_order == order,
                      lambda: f"{json.dumps(prefixes)}:\n  RavenDB    {json.dumps(order)}"
                              f"\n  ravenshard {json.dumps(cli_order)}")
        js = rs.js_place(json.dumps(config), [])
        if js is not None and all(p.isascii() for p in prefixes):
            js_order = [p[0] for p in read_by_js(js[0]).get("prefixes", [])]
            checks.expect("prefix order (JS)", js_order == order,
                          lambda: f"{json.dumps(prefixes)}:\n  RavenDB    {json.dumps(order)}"
                                  f"\n  ravenshard {json.dumps(js_order)}")


def check_server_made_ids(checks, raven, rs, rng, count):
    """`users/` in a sharded database: the orchestrator makes `users/$<BASE26>$/`
    (ShardHelper.GenerateStickyId) and routes it by `users/$<BASE26>`
    (GetShardNumberAndBucketForIdentity); the shard stores `users/<n>-<node>$<BASE26>`
    (ShardedDocumentPutAction). That final ID must land where the routing sent it, by
    RavenDB's answer and by ravenshard's."""
    text = generate.configuration(rng, "prefixed")
    handle = raven.call("Load", text)
    path = os.path.join(rs.out, "server-made.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    prefixes = [p[0] for p in json.loads(raven.call("Describe", handle))["prefixes"]]
    bases = [rng.choice(prefixes + ["users/", "Orders/", "a/b/"]) for _ in range(count)]
    made = raven.call("Sticky", SEPARATOR.join(bases)).split(SEPARATOR)
    routed = made[1::2]
    finals = [b + f"{rng.randrange(1, 10**19):019d}-{rng.choice('ABC')}" + r[r.rindex("$"):]
              for b, r in zip(bases, routed)]
    by_route = raven_place(raven, handle, routed)
    by_final = raven_place(raven, handle, finals)
    cli = rs.cli_place(path, finals)
    for sticky, final, a, b, c in zip(made[0::2], finals, by_route, by_final, cli):
        checks.expect("server-made IDs", a == b == c,
                      lambda: f"{sticky!r} routed to {a}, stored as {final!r}: RavenDB {b}, "
                              f"ravenshard {c}")


VECTORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "vectors",
                       "ravendb-oracle.json")


def check_vectors(checks, raven, version):
    """Every row of vectors/ravendb-oracle.json whose group names this version, against
    RavenDB: the answers every surface's vector test holds ravenshard to are the server's."""
    with open(VECTORS, encoding="utf-8") as f:
        groups = json.load(f)["groups"]
    for g, group in enumerate(groups):
        if surface_version(version) not in group["versions"]:
            continue
        handle = raven.call("Load", group["config"] or '{"Shards": {"0": {}, "1": {}, "2": {}}}')
        # An empty ID is refused by the batch command, before any routing: not compared.
        rows = [row for row in group["ids"] if row[0]]
        for row, got in zip(rows, raven_place(raven, handle, [row[0] for row in rows])):
            want = (row[1], row[2]) if row[1] is not None else (-1, row[3])
            checks.expect("vectors are RavenDB's answers", agree(want, got),
                          lambda: f"group {g} ({group['why'][:60]}...) id {json.dumps(row[0])}: "
                                  f"RavenDB {got}, the file {want}")


def cli_json(rs, *args):
    run = subprocess.run([rs.cli, *args], capture_output=True)
    if run.returncode != 0:
        raise RuntimeError(f"ravenshard {' '.join(args)}: {run.stderr.decode(errors='replace')}")
    return json.loads(run.stdout)


def read_by_cli(rs, path):
    """What the CLI reads from a configuration: `plan --target` of itself prints it."""
    try:
        target = cli_json(rs, "plan", "--config", path, "--target", path, os.devnull)["target"]
    except RuntimeError as e:
        return {"error": str(e)}
    return read_by_js(target)


def migration_scenarios(rng, current_text, described, to_last):
    """(name, ravenshard arguments after --config CURRENT) of the plans to replay."""
    shards = sorted(described["shards"])
    prefixed = bool(described["prefixes"])
    n = len(shards)
    new = max(shards) + 1
    grown = {"Shards": {str(s): {} for s in shards + [new]}}
    drained = rng.choice(shards)
    return [
        ("add-shard", None if prefixed else ["plan", "--target", grown]),
        ("drain", ["balance", "--weights", f"{drained}=0"] if n > 1 else None),
        ("balance-contiguous", ["balance", "--threshold", "1", "--objective", "contiguous"]),
        ("balance-fewest", ["balance", "--threshold", "1", "--objective", "fewest-migrations",
                            "--max-buckets", "2000"]),
        ("last-bucket", last_bucket_target(rng, current_text, described, to_last)),
    ]


def last_bucket_target(rng, current_text, described, to_last):
    """With prefix blocks that hold ranges: `plan --target` of the record with the default
    block's last buckets (2^20-1 among them) given to another shard: with `to_last`, the
    list's last range's shard if it can (where MoveBucket changes nothing for bucket
    2^20-1)."""
    ranges = described["ranges"]
    if not any(start >= BUCKETS for start, _ in ranges):
        return None
    main = [r for r in ranges if r[0] < BUCKETS]
    owner = main[-1][1]
    others = [s for s in described["shards"] if s != owner]
    if not others or main[-1][0] >= BUCKETS - 2:
        return None
    last = ranges[-1][1]
    to = last if last != owner and to_last else rng.choice(others)
    cut = max(BUCKETS - rng.randint(1, 3000), main[-1][0] + 1)
    kept = [r for r in main if r[0] < cut] + [[cut, to]] + [r for r in ranges if r[0] >= BUCKETS]
    record = json.loads(current_text)
    record.get("Sharding", record)["BucketRanges"] = [
        {"BucketRangeStart": a, "ShardNumber": b} for a, b in kept]
    return ["plan", "--target", record]


def check_migrations(checks, raven, rs, rng, rounds, ids):
    """Plans' calls replayed bucket by bucket through ShardHelper.MoveBucket from random
    topologies: the plan's target must be RavenDB's record after them, and ravenshard must
    read that record (empty ranges, one start twice) and place IDs in it as RavenDB does."""
    docs = os.path.join(rs.out, "migration-docs.txt")
    with open(docs, "w", encoding="utf-8") as f:
        f.write("".join(f"{id}\t{rng.randint(1, 5000)}\n" for id in ids))
    for r in range(rounds):
        # The first round is prefixed: its plans reach bucket 2^20-1 past prefix ranges.
        kind = "prefixed" if r == 0 else rng.choice(["create", "ranges", "prefixed"])
        try:
            start = raven.call("Load", generate.configuration(rng, kind))
        except RuntimeError:
            continue
        current_text = raven.call("Write", start)
        described = json.loads(raven.call("Describe", start))
        for name, scenario in migration_scenarios(rng, current_text, described, r % 2 == 0):
            if scenario is not None:
                check_plan(checks, raven, rs, f"migration-{r}", current_text, name, scenario, ids)


def check_plan(checks, raven, rs, tag, current_text, name, scenario, ids):
    """One plan or balance of the record `current_text` (ravenshard's arguments `scenario`,
    a target given as a value), replayed through RavenDB's MoveBucket and compared; the
    record RavenDB ends with is then read and placed by ravenshard as by RavenDB."""
    current = os.path.join(rs.out, f"{tag}-current.json")
    with open(current, "w", encoding="utf-8") as f:
        f.write(current_text)
    docs = os.path.join(rs.out, "migration-docs.txt")
    args = [a if isinstance(a, str) else _write(rs, f"{tag}-{name}-target.json", a)
            for a in scenario]
    label = f"{tag} {name} ({current})"
    try:
        plan = cli_json(rs, *args[:1], "--config", current, *args[1:], docs)
        calls = cli_json(rs, *args[:1], "--config", current, *args[1:], "--calls", "json", docs)
    except RuntimeError as e:
        checks.expect("plans made", False, lambda: f"{label}: {e}")
        return
    handle = replay_calls(checks, raven, label, current_text, plan, calls, args[0] == "balance")
    if handle is not None:
        written = raven.call("Write", handle)
        check_configuration(checks, raven, rs, f"{tag}-{name}-after", written, ids)


def replay_calls(checks, raven, label, current_text, plan, calls, balance):
    """The calls through RavenDB's MoveBucket, compared with the plan: its target, its
    notes of refused moves and of moves that leave the record as it was. Returns RavenDB's
    record after them, or None when the server refuses a move."""
    from System.Collections.Generic import List
    from System import String
    handle = raven.call("Load", current_text)
    last = BUCKETS - 1
    owner = raven.call("FindShards", handle, _ints([last]))[0]
    for step in calls["before"]:
        if step["kind"] == "add_shard":
            raven.call("AddShard", handle, step["shard"])
    unchanged = List[String]()
    for c in calls["calls"]:
        error = raven.call("MoveRange", handle, c["from_bucket"], c["to_bucket"], c["to_shard"],
                           unchanged)
        if error:
            check_refusal(checks, label, plan, error)
            return None
    after = json.loads(raven.call("Describe", handle))
    target = read_by_js(plan["target"])
    checks.expect("plan targets are RavenDB's records, range list by range list",
                  target["ranges"] == after["ranges"],
                  lambda: f"{label}: after {len(calls['calls'])} calls\n  RavenDB's record "
                          f"{after['ranges']}\n  the plan's target {target['ranges']}")
    server = sorted(tuple(int(x) for x in u.split("\t")) for u in unchanged)
    noted = sorted((int(m.group(1)), int(m.group(2))) for n in plan["notes"]
                   if n["kind"] == "move_bucket_ignores"
                   for m in [re.search(r"leaves bucket (\d+) on shard (\d+)", n["message"])] if m)
    if not balance:
        checks.expect("moves that leave the record as it was, noted as RavenDB leaves them",
                      noted == server,
                      lambda: f"{label}: RavenDB leaves the record as it was moving "
                              f"(bucket, shard it stays on) {server}; the plan notes {noted}")
    elif any(start >= BUCKETS for start, _ in after["ranges"]):
        # With prefix ranges RavenDB cannot move bucket 2^20-1: a balance keeps it, and
        # where it says so, the server's record has it there.
        held = [c for c in calls["calls"] if c["from_bucket"] <= last <= c["to_bucket"]]
        now = raven.call("FindShards", handle, _ints([last]))[0]
        checks.expect("balances keep bucket 2^20-1 where RavenDB must (prefix ranges)",
                      not held and not server and now == owner
                      and all(n == (last, owner) for n in noted),
                      lambda: f"{label}: calls holding it {held}, RavenDB's unchanged moves "
                              f"{server}, its shard {owner} -> {now}, the balance notes {noted}")
    return handle


def check_refusal(checks, label, plan, error):
    """RavenDB's MoveBucket refused a move of the calls (`bucket N: <server message>`): the
    plan must say so, for the same bucket, with the server's reason."""
    bucket, message = error.split(": ", 1)
    reason = message.split(", ", 1)[-1]  # after "InvalidOperationException: At database 'db'"
    notes = [n["message"] for n in plan["notes"] if n["kind"] == "move_bucket_refuses"]
    checks.expect("refused moves as RavenDB refuses them",
                  any(f"move {bucket} (" in n and reason in n for n in notes),
                  lambda: f"{label}: RavenDB refuses {error}; the plan's notes {notes}")


def check_last_bucket(checks, raven, rs, rng, rounds, ids):
    """MoveBucket of bucket 2^20-1 in a database with prefixes: to any shard it leaves the
    bucket where it is; a plan that moves the default block's last buckets to the last
    range's shard says that the server changes nothing for it; to another shard it appends
    a range after the prefixes' blocks, and ravenshard must read RavenDB's record and place
    IDs as RavenDB does."""
    for r in range(rounds):
        try:
            handle = raven.call("Load", generate.configuration(rng, "prefixed"))
        except RuntimeError:
            continue
        described = json.loads(raven.call("Describe", handle))
        owner = raven.call("FindShards", handle, _ints([BUCKETS - 1]))[0]
        check_last_bucket_stays(checks, raven, handle, described, owner)
        current_text = raven.call("Write", handle)
        scenario = last_bucket_target(rng, current_text, described, True)
        if scenario is not None:
            check_plan(checks, raven, rs, f"last-bucket-{r}", current_text, "last-bucket",
                       scenario, ids)
        others = [s for s in described["shards"] if s != owner]
        if not others or raven.call("Move", handle, BUCKETS - 1, rng.choice(others)):
            continue
        check_configuration(checks, raven, rs, f"last-bucket-{r}", raven.call("Write", handle), ids)


def check_last_bucket_stays(checks, raven, handle, described, owner):
    """What ravenshard's balance relies on: with prefix blocks that hold ranges, RavenDB's
    MoveBucket of bucket 2^20-1 to any shard leaves that bucket on its shard."""
    if all(start < BUCKETS for start, _ in described["ranges"]):
        return
    for shard in described["shards"]:
        copy = raven.call("Copy", handle)
        error = raven.call("Move", copy, BUCKETS - 1, shard)
        now = raven.call("FindShards", copy, _ints([BUCKETS - 1]))[0]
        checks.expect("MoveBucket never moves bucket 2^20-1 past prefix ranges", error or now == owner,
                      lambda: f"{json.dumps(described)}: MoveBucket(1048575, {shard}) moves it "
                              f"from shard {owner} to {now}")


def _ints(values):
    from System import Array, Int32
    return Array[Int32]([Int32(v) for v in values])


def _write(rs, name, value):
    path = os.path.join(rs.out, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False)  # RavenDB reads an escaped surrogate as U+FFFD
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--version", required=True, help="RavenDB version (7.1.5, 6.2.4)")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--ids", type=int, default=100_000, help="IDs per configuration")
    parser.add_argument("--cli", required=True, help="the ravenshard binary")
    parser.add_argument("--js", help="the npm package's node/ravenshard.cjs (skip JS if absent)")
    parser.add_argument("--out", required=True, help="a folder for inputs and repros")
    parser.add_argument("--checks", default="vectors,casing,order,server-made,buckets,migrations",
                        help="comma-separated: vectors, casing, order, server-made, buckets, "
                             "migrations")
    parser.add_argument("--rounds", type=int, default=3, help="random topologies to reshard")
    parser.add_argument("--kinds", default="create,ranges,prefixed",
                        help="configuration kinds for the bucket checks (generate.configuration)")
    parser.add_argument("--configurations", type=int, default=1, help="configurations per kind")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    started = time.time()
    raven = Raven(args.version)
    print(f"RavenDB {args.version}: {raven.globalization}; seed {args.seed}")
    rs = Ravenshard(args.cli, args.js, args.version, args.out)
    checks = Checks()
    rng = random.Random(f"{args.seed}-{args.version}")
    wanted = args.checks.split(",")

    def run(name, check):
        if name in wanted:
            at, before = time.time(), checks.passed + checks.failed
            result = check()
            print(f"  {name}: {checks.passed + checks.failed - before} checks in "
                  f"{time.time() - at:.1f}s")
            return result
        return None

    run("vectors", lambda: check_vectors(checks, raven, args.version))
    generate.LEFT_OUT = frozenset(run("casing", lambda: check_casing(checks, raven, rs)) or ())
    run("order", lambda: check_prefix_order(checks, raven, rs, rng, 60))
    run("server-made", lambda: check_server_made_ids(checks, raven, rs, rng, 2000))
    run("buckets", lambda: check_buckets(checks, raven, rs, rng, args.ids, args.kinds.split(","),
                                         args.configurations, f"{args.seed}-{args.version}"))

    def migrations():
        ids = [i for i in generate.document_ids(rng, 3000, generate.PREFIX_POOL)
               if not re.search("[\t\r\n]", i) and len(i.encode()) <= 300 and i.strip()]
        check_migrations(checks, raven, rs, rng, args.rounds, ids)
        check_last_bucket(checks, raven, rs, rng, args.rounds, ids)

    run("migrations", migrations)
    print(f"RavenDB {args.version} in {time.time() - started:.1f}s: "
          f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
