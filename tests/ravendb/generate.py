"""Deterministic inputs for the differential suite: document IDs that reach what hand-written
vectors miss, and sharding configurations as users write them and as RavenDB writes them.
Everything comes from one `random.Random(seed)`, so a seed names a run."""
import json

BUCKETS = 1 << 20
SEPARATOR = "\uffff"  # joins IDs on their way to .NET; never generated

# Letters whose case mappings differ between simple, full and locale-specific rules, or that
# Unicode added late: U+0130 İ, U+0131 ı, U+0345 (iota subscript), Σ/σ/ς, K (Kelvin), ẞ, Ω
# (Ohm), Cherokee (both cases), Georgian Mtavruli, Deseret, Adlam, Glagolitic, fullwidth, and
# letters whose lower case is longer or shorter in UTF-8 (the 512-byte limit counts it).
SPECIAL = ("\u0130\u0131\u0345\u03a3\u03c3\u03c2\u212a\u1e9e\u2126\u01c4\u01c5\u01c6\u00df"
           "\u13a0\u13f5\uab70\uabbf\u1c90\u1cbf\u10d0\u2c00\u2c30\uff21\uff41\u0049\u0069"
           "\u023a\u023e\u2c6f\u2c7e")  # the last four change UTF-8 length when lowered
SUPPLEMENTARY_SPECIAL = [0x10400, 0x10428, 0x1E900, 0x1E922, 0x104B0, 0x10C80, 0x16E40, 0x1F600]
COMBINING = [0x0300, 0x0301, 0x0308, 0x0327, 0x0345, 0x20DD, 0xFE0F]
FORMAT = [0x00AD, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0x2066, 0xFEFF, 0xE0001]
WHITE = [0x20, 0xA0, 0x1680, 0x2000, 0x2007, 0x200A, 0x2028, 0x2029, 0x202F, 0x3000, 0x85]
ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-_.:@#!~ "


def _any_char(rng):
    """A code point of any plane, never a surrogate (Rust strings cannot hold one) or U+FFFF."""
    plane = rng.choice([0, 0, 0, 1, 2, 3, 14, 15, 16, rng.randrange(17)])
    while True:
        cp = plane * 0x10000 + rng.randrange(0x10000)
        if not (0xD800 <= cp <= 0xDFFF) and cp != 0xFFFF:
            return chr(cp)


def _piece(rng, prefixes):
    kind = rng.randrange(12)
    if kind < 4:
        return "".join(rng.choice(ASCII) for _ in range(rng.randint(1, 6)))
    if kind == 4:
        return rng.choice(SPECIAL)
    if kind == 5:
        return chr(rng.choice(SUPPLEMENTARY_SPECIAL) + rng.randrange(8))
    if kind == 6:
        return chr(rng.choice(COMBINING))
    if kind == 7:
        return chr(rng.choice(FORMAT))
    if kind == 8:
        return chr(rng.choice(list(range(0x20)) + [0x7F] + list(range(0x80, 0xA0))))
    if kind == 9:
        return "$" * rng.choice([1, 1, 1, 2, 3])
    if kind == 10 and prefixes:
        return _recase(rng, rng.choice(prefixes))
    return _any_char(rng)


def _recase(rng, text):
    return "".join(c.upper() if rng.random() < 0.3 else c for c in text)


def _cut(text, size):
    """`text` cut to at most `size` UTF-8 bytes, on a character boundary."""
    out, used = [], 0
    for c in text:
        n = len(c.encode("utf-8"))
        if used + n > size:
            break
        out.append(c)
        used += n
    return "".join(out)


def document_id(rng, prefixes=()):
    """One ID: random pieces up to a length around 8, 16, 32 or 512 bytes (or anything from 1
    to 100), with `$` at the start, the end, doubled, repeated, and prefixed anchors."""
    size = rng.choice([rng.randint(1, 7), rng.randint(7, 9), rng.randint(15, 17),
                       rng.randint(31, 33), rng.randint(509, 515), rng.randint(1, 100),
                       rng.randint(1, 100)])
    parts, used = [], 0  # used: the parts' UTF-8 bytes
    if prefixes and rng.random() < 0.5:
        parts.append(_recase(rng, rng.choice(prefixes)))
        used = len(parts[0].encode("utf-8"))
    while used < size:
        parts.append(_piece(rng, prefixes))
        used += len(parts[-1].encode("utf-8"))
    text = _cut("".join(parts), size) or "x"
    shape = rng.randrange(10)
    if shape == 0:
        text = "$" + text
    elif shape == 1:
        text = text + "$"
    elif shape == 2 and prefixes:  # an anchor that is itself prefixed
        text = text + "$" + _recase(rng, rng.choice(prefixes)) + str(rng.randrange(1000))
    elif shape == 3:
        text = "".join(chr(rng.choice(WHITE)) for _ in range(rng.randint(1, 3)))
    return text


# Characters left out of generated IDs: those the casing check found lowered by a newer
# Unicode than the runtime's (oracle.check_casing sets it).
LEFT_OUT = frozenset()


def document_ids(rng, count, prefixes=()):
    ids = [document_id(rng, prefixes) for _ in range(count)]
    if LEFT_OUT:
        ids = ["".join(c for c in i if c not in LEFT_OUT) or "x" for i in ids]
    return ids


# Prefixes: prefix-of-prefix, case, digits, punctuation, non-ASCII, '/' and '-' endings.
PREFIX_POOL = ["users/", "users/eu/", "eu/", "eu-", "asia/", "orders/", "orders/2024-", "a/",
               "a_b/", "a.b-", "2024/", "10/", "über/", "straße/", "οδος/", "İstanbul/",
               "\U00010428/", "カタ/", "x$y/", "Z/", "zz-", "-", "/"]


def prefixes_for(rng, shards):
    """Up to five distinct prefixes (distinct case-insensitively, as RavenDB requires) with a
    non-empty subset of the shards each."""
    chosen, seen = [], set()
    for p in rng.sample(PREFIX_POOL, rng.randint(1, 5)):
        p = _recase(rng, p)
        if p.lower() in seen:
            continue
        seen.add(p.lower())
        chosen.append({"Prefix": p, "Shards": sorted(rng.sample(shards, rng.randint(1, len(shards))))})
    return chosen


def _ranges(rng, shards, base, count):
    """Ranges from `base` as RavenDB keeps them: no two neighbours on one shard (the server's
    ValidateBucketsMapping refuses that), unless there is only one shard."""
    starts = sorted(rng.sample(range(1, BUCKETS), count - 1))
    ranges = []
    for s in [0] + starts:
        others = [x for x in shards if not ranges or x != ranges[-1]["ShardNumber"]]
        if not others:
            break
        ranges.append({"BucketRangeStart": base + s, "ShardNumber": rng.choice(others)})
    return ranges


def configuration(rng, kind):
    """(name, JSON text) of one configuration of `kind`:
    - create: Shards only (numbers in any order, some missing), maybe prefixes: the server's
      creation step makes the ranges and blocks;
    - ranges: random ranges over several shards;
    - prefixed: an existing database's record: ranges in the main block and in every
      prefix's block, `BucketRangeStart` on each prefix, first match in `Prefixed` order."""
    count = rng.randint(1, 8)
    shards = sorted(rng.sample(range(count + rng.randint(0, 3)), count))
    order = shards[:]
    if rng.random() < 0.5:
        rng.shuffle(order)
    config = {"Shards": {str(s): {"Members": ["A"]} for s in order}}
    if kind == "create":
        if rng.random() < 0.6:
            config["Prefixed"] = prefixes_for(rng, shards)
    elif kind == "ranges":
        config["BucketRanges"] = _ranges(rng, shards, 0, rng.randint(1, 40))
    else:
        prefixes = prefixes_for(rng, shards)
        ranges = _ranges(rng, shards, 0, rng.randint(1, 20))
        blocks = rng.sample(range(1, len(prefixes) + 3), len(prefixes))
        for p, block in zip(prefixes, blocks):
            p["BucketRangeStart"] = block * BUCKETS
            ranges += _ranges(rng, p["Shards"], block * BUCKETS, rng.randint(1, 6))
        config["BucketRanges"] = sorted(ranges, key=lambda r: r["BucketRangeStart"])
        config["Prefixed"] = prefixes
    if rng.random() < 0.5:
        config = {"DatabaseName": "Orders", "Sharding": config, "Settings": {}}
    return json.dumps(config, ensure_ascii=rng.random() < 0.5)


def noisy(rng, text):
    """A record with what RavenDB's readers skip: unknown keys, nulls for optional sections."""
    record = json.loads(text)
    target = record.get("Sharding", record)
    target["UnknownKey" + str(rng.randrange(100))] = rng.choice([None, 1, "x", [], {"a": None}])
    for key in ["BucketMigrations", "Orchestrator", "DatabaseId"]:
        if rng.random() < 0.5:
            target[key] = None
    if "Sharding" in record and rng.random() < 0.5:
        record["Topology"] = None
        record["Indexes"] = None
    return json.dumps(record)
