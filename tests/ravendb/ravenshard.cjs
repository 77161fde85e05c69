// The JS API's side of the differential suite: node ravenshard.cjs PACKAGE JOB OUT.
// JOB is {"config": JSON text, "ids": [...], "serverVersion": "7" | "6.2"}; OUT gets
// {"read": the topology as toJson() writes it, or {"error": message},
//  "answers": [[bucket, shard] | [-1, message], ...]}.
const { readFileSync, writeFileSync } = require("node:fs");
const [pkg, jobPath, outPath] = process.argv.slice(2);
const { Topology } = require(pkg);
const job = JSON.parse(readFileSync(jobPath, "utf8"));
let out;
try {
  const topology = new Topology(job.config);
  if (job.serverVersion !== "7") topology.serverVersion = job.serverVersion;
  const answers = job.ids.map((id) => {
    try {
      const { bucket, shard } = topology.locate(id);
      return [bucket, shard];
    } catch (e) {
      return [-1, e.message];
    }
  });
  out = { read: JSON.parse(topology.toJson()), answers };
} catch (e) {
  out = { read: { error: e.message }, answers: [] };
}
writeFileSync(outPath, JSON.stringify(out));
