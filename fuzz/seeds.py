#!/usr/bin/env python3
"""Writes the fuzz targets' seed inputs into corpus/TARGET/ (file names are the SHA-1 of
the content, as libFuzzer names them): the vectors of ../vectors/, shapes from the tests'
fixtures and what RavenDB itself writes (database records, exports, bucket statistics).
Run once; scripts/fuzz.sh --cmin then minimises each corpus (cargo fuzz cmin)."""

import gzip
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.join(HERE, "..", "vectors")


def unescape(text):
    return text.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def vector_ids():
    ids = []
    for name in sorted(os.listdir(VECTORS)):
        with open(os.path.join(VECTORS, name), encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                raw = line.rstrip("\n").split("\t")[0]
                ids.append(unescape(raw) if "\\x" in raw else raw)
    return ids


RECORD = {
    "DatabaseName": "Orders", "Disabled": False, "Encrypted": False, "EtagForBackup": 0,
    "Sharding": {
        "Shards": {"0": {"Members": ["A"], "Promotables": [], "Rehabs": [],
                         "ReplicationFactor": 1, "DynamicNodesDistribution": False},
                   "1": {"Members": ["B"]}, "2": {"Members": ["C"]}},
        "BucketRanges": [{"BucketRangeStart": 0, "ShardNumber": 0},
                         {"BucketRangeStart": 349525, "ShardNumber": 1},
                         {"BucketRangeStart": 699050, "ShardNumber": 2},
                         {"BucketRangeStart": 1048576, "ShardNumber": 1},
                         {"BucketRangeStart": 1572864, "ShardNumber": 2}],
        "Prefixed": [{"Prefix": "eu/", "Shards": [1, 2], "BucketRangeStart": 1048576}],
        "BucketMigrations": {}, "MigrationCutOffIndex": 0, "DatabaseId": "xyz",
        "Orchestrator": {"Topology": {"Members": ["A", "B", "C"]}},
    },
}

CONFIGS = [
    {"Shards": {"0": {}, "1": {}, "2": {}}},
    {"Shards": {"0": {"Members": ["A"]}, "1": {"Members": ["B"]}},
     "Prefixed": [{"Prefix": "users/", "Shards": [1]}, {"Prefix": "Users/a/", "Shards": [0]}]},
    {"Shards": {"0": None, "1": {}}, "BucketRanges": None, "Prefixed": None},
    {"Shards": {"0": {}, "1": {}},
     "Prefixed": [{"Prefix": "é/", "Shards": [0]}, {"Prefix": "f-", "Shards": [1]}]},
]

CONTENT = [
    {"Shards": {"0": {}, "1": {}, "2": {}},
     "ByContent": {"Orders": {"Fields": ["Customer"], "Range": 1000, "Mutable": False}}},
    {"Shards": {"0": {}, "1": {}}, "ByContent": {},
     "IdConventions": {"Invoices": "{Id}${OrderId}"}},
    {"Shards": {"0": {}, "1": {}, "2": {}},
     "ByContent": {"Orders/Totals": {"Fields": ["CustomerId"]}},
     "Indexes": {"Orders/Totals": {"Collections": ["Orders"], "Type": "MapReduce"}}},
]

CONTENT_DOCUMENTS = [
    {"Customer": "customers/1-A", "@metadata": {"@id": "orders/1-A$", "@collection": "Orders"}},
    {"OrderId": "orders/1-A", "@metadata": {"@id": "invoices/1-A", "@collection": "Invoices"}},
    {"@metadata": {"@id": "orders/1-A$@982173"}},
]

WHOLE = {"TotalSizeHumane": "1.21 KBytes", "TotalSize": 1240, "BucketRanges": {
    "131072": {"RangeSizeHumane": "1.21 KBytes", "ShardNumbers": [0], "FromBucket": 131072,
               "ToBucket": 163839, "NumberOfBuckets": 2, "RangeSize": 1240,
               "DocumentsCount": 2, "LastModified": "2026-11-20T10:11:12.1234567Z"}}}
DRILL = {"TotalSize": 1240, "BucketRanges": {
    "131072": {"ShardNumbers": [0], "FromBucket": 131072, "ToBucket": 132095,
               "NumberOfBuckets": 1, "RangeSize": 1000, "DocumentsCount": 1},
    "140288": {"ShardNumbers": [0], "FromBucket": 140288, "ToBucket": 141311,
               "NumberOfBuckets": 1, "RangeSize": 240, "DocumentsCount": 1}}}
SINGLE = {"Bucket": 131080, "Size": 900, "NumberOfDocuments": 1,
          "LastModified": "2026-11-20T10:11:12.1234567Z", "Items": ["orders/1-A"]}

RQL = [
    "from Orders where id() = 'orders/1-A'",
    "from Orders where OrderedAt > $today limit 10 offset 5000",
    "from index 'Orders/ByCustomer' where Count < 10 limit 2",
    "from Orders group by Address.City select count(), Address.City",
    "FROM Orders AS o WHERE o.Customer = 'x' AnD NOT ID(o) In ('a') ORDER BY o.Freight DESC LIMIT 1 OFFSET 2",
    "-- orders of one customer\nfrom Orders -- the collection\nwhere Customer = 'c'\n",
    "FROM 'Order Lines' AS l WHERE l.a == 1 AND (l.b <> 'x' OR NOT l.c BETWEEN 1 AND 2) "
    "ORDER BY l.d AS long DESC select x LIMIT 5, 10",
    "from index 'I' where id() = 'it''s' and x in ('a', \"b\", -1.50, true, null)",
    "from Orders where Lines[].Product all in ('p/1') include Customer",
]

SHARE = [
    "#shards=3&db=Orders&ids=orders%2F1-A%0Acustomers%2F1-A%0Aorders%2F2-A%24customers%2F1-A",
    "db=shop&ids=a%09120%09Orders%0Ab",
    "shards=3&ids=orders/1-A%0AUsers/70$Users/4",
    "config=" + "%7B%22Shards%22%3A%7B%220%22%3A%7B%7D%2C%221%22%3A%7B%7D%7D%7D",
]

EXPORT_DOCS = [
    {"Name": "Alfreds", "@metadata": {"@id": "companies/1-A", "@collection": "Companies",
                                      "@change-vector": "A:1-x", "@last-modified": "2026-01-01T00:00:00.0000000Z"}},
    {"Company": "companies/1-A", "Lines": [{"Product": "products/1-A", "Quantity": 2}],
     "@metadata": {"@id": "orders/1-A", "@collection": "Orders", "@flags": "HasRevisions"}},
    {"Id": "plain/1"},
]


def saved_settings(config, layout, **more):
    """A settings record as the studio writes it (`settings_json`: `Saved` without its
    documents, then the documents' `Layout`)."""
    saved = {"version": 1, "database": "Orders", "nodes": "A, B", "replication_factor": "1",
             "config": json.dumps(config, separators=(",", ":")), "custom": False,
             "documents": []}
    saved.update(more)
    saved.update(layout)
    return json.dumps(saved, separators=(",", ":"), ensure_ascii=False)


def saved_records(settings, parts):
    """The `saved` target's input: the settings, then each part as key 0x1F text, the
    records separated by 0x1E (fuzz/src/saved.rs)."""
    return settings.encode() + b"".join(b"\x1e" + k.encode() + b"\x1f" + v.encode() for k, v in parts)


def part_ref(generation, index, documents):
    ids = [d[0] for d in documents]
    bodies = [d[3] for d in documents if d[3] is not None]
    return {"generation": generation, "index": index, "documents": len(documents),
            "id_bytes": sum(len(i.encode()) for i in ids), "bodies": len(bodies),
            "body_bytes": sum(len(b.encode()) for b in bodies)}


def lines_part(documents):
    out = "ravenshard documents lines 1\n"
    for id, size, collection, body in documents:
        fields = [id, "" if size is None else str(size), collection or "", body or ""]
        while fields and fields[-1] == "":
            fields.pop()
        out += "\t".join(fields) + "\n"
    return out


def saved_seeds():
    """Saved studios as the studio's save and the tests' fixtures write them: parts keyed by
    a save generation, parts keyed by index (studios saved before), one documents record,
    a part kept as JSON, and the fields an import kept."""
    docs = [("orders/1-A", 120, "Orders", '{"Company":"companies/1-A"}'),
            ("orders/2-A$companies/1-A", None, "Orders", None),
            (" users/4 ", 0, None, None), ("Ünïcode/1", None, None, "[1, 2]")]
    first, second = docs[:2], docs[2:]
    refs = [part_ref(17, 0, first), part_ref(17, 1, second)]
    texts = [lines_part(first), lines_part(second)]
    for ref, text in zip(refs, texts):
        ref["bytes"] = len(text.encode())
    layout = {"document_parts": 2, "generation": 17, "document_count": 4,
              "id_bytes": sum(r["id_bytes"] for r in refs), "bodies": 2,
              "body_bytes": sum(r["body_bytes"] for r in refs), "parts": refs}
    settings = saved_settings({"Shards": {"0": {}, "1": {}, "2": {}}}, layout, tab="nodes")
    write("saved", saved_records(settings, [(f"documents.17.{i}", t) for i, t in enumerate(texts)]))
    old = {"document_parts": 1, "document_count": 4, "id_bytes": 0, "bodies": 0, "body_bytes": 0}
    write("saved", saved_records(saved_settings(RECORD["Sharding"], old, custom=True),
                                 [("documents.0", lines_part(docs))]))
    json_part = "ravenshard documents json 1\n" + json.dumps(
        [{"id": "a\tb"}, {"id": "c", "size": 1, "collection": " spaced ", "body": "{\n \"x\": 1\n}"}])
    write("saved", saved_records(saved_settings(CONFIGS[1], {}, kept={"file": "a.json", "fields": ["Customer"]}),
                                 [("documents", json_part)]))
    write("saved", saved_records(saved_settings(CONTENT[0], {"document_parts": 0}, tab="map"), []))


def write(target, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def main():
    ids = vector_ids()
    for i in range(0, len(ids), 10):
        write("ids", "\n".join(ids[i:i + 10]) + "\n")
    write("ids", "orders/1-A\t1200\tOrders\t{\"Name\": \"x\"}\r\ncustomers/1-A\t\t\n\n")
    for config in [RECORD] + CONFIGS:
        write("config", json.dumps(config, indent=2, ensure_ascii=False))
    for config in CONTENT:
        for document in CONTENT_DOCUMENTS:
            write("content", json.dumps(config) + "\0" + json.dumps(document))
    for answer in (WHOLE, DRILL, SINGLE):
        write("statistics", json.dumps(answer, indent=2))
    for query in RQL:
        write("rql", query)
    for link in SHARE:
        write("share", link)
    lines = "".join(f"{d.get('@metadata', {}).get('@id', 'x')}\t{len(json.dumps(d))}\n" for d in EXPORT_DOCS)
    export = json.dumps({"BuildVersion": 62000, "Docs": EXPORT_DOCS, "RevisionDocuments": [],
                         "Attachments": [], "Counters": [], "Identities": []})
    files = {
        0: lines,  # Text
        1: "id,size,collection\norders/1-A,1200,Orders\n\"x,y\",12,\n\"say \"\"hi\"\"\",,\n",
        2: json.dumps(EXPORT_DOCS + ["orders/2-A"]),
        3: "\n".join(json.dumps(d) for d in EXPORT_DOCS) + "\n\"orders/2-A\"\n",
        4: export,
    }
    for pick, text in files.items():
        write("import", bytes([pick, 7]) + text.encode())
    write("import", bytes([4, 3]) + gzip.compress(export.encode(), mtime=0))
    write("import", bytes([2, 9]) + json.dumps({"Docs": EXPORT_DOCS}).encode())
    write("import", bytes([0, 1]) + b"\xef\xbb\xbforders/1-A\r\n\r\n")
    # ravenshard's own CSV export, its formula cells neutralised.
    write("import", bytes([1, 5]) + "id,bucket,shard,collection,size\n'-1,663183,0,'@x,12\n"
          "\"'=SUM(A1,A2)\",1,1,Orders,\n''-2,5,2,,\n".encode())
    saved_seeds()


if __name__ == "__main__":
    sys.exit(main())
