// The JavaScript examples of the package's README and of the repository's README.md (copied
// next to this file as README.repository.md) run as they are: each ```js block that imports
// "ravenshard" is written to a module of this project and run with node.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const packageReadme = createRequire(import.meta.url).resolve("ravenshard/package.json").replace(/package\.json$/, "README.md");
const readmes = { "the package's README": packageReadme, "README.md": new URL("./README.repository.md", import.meta.url) };

for (const [name, path] of Object.entries(readmes)) {
  const blocks = [...readFileSync(path, "utf8").matchAll(/```js\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .filter((code) => code.includes('from "ravenshard"'));
  test(`${name} has JavaScript examples`, () => assert.ok(blocks.length > 0));
  blocks.forEach((code, i) => {
    test(`${name}, example ${i + 1} runs`, () => {
      const dir = mkdtempSync(new URL("./readme-", import.meta.url).pathname);
      try {
        writeFileSync(`${dir}/example.mjs`, code);
        execFileSync(process.execPath, [`${dir}/example.mjs`], { cwd: dir, stdio: "pipe" });
      } finally {
        rmSync(dir, { recursive: true });
      }
    });
  });
}
