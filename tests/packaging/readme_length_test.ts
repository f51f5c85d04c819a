/**
 * The README fits a few screens: at most 300 lines, the rest in the guides
 * under docs/ it links.
 */

import assert from "node:assert/strict";

Deno.test("README.md is at most 300 lines and links every guide in docs/", async () => {
  const root = new URL("../../", import.meta.url);
  const readme = await Deno.readTextFile(new URL("README.md", root));
  const lines = readme.trimEnd().split("\n").length;
  assert.ok(lines <= 300, `README.md has ${lines} lines; move detail into a guide under docs/`);
  const guides = [...Deno.readDirSync(new URL("docs/", root))]
    .filter((entry) => entry.name.endsWith(".md")).map((entry) => `docs/${entry.name}`);
  assert.deepEqual(guides.filter((guide) => !readme.includes(`](${guide})`)), []);
});
