/**
 * Every link of README.md and the guides in docs/ leads somewhere: a
 * relative link names a file of the repository, and a `#fragment` a heading
 * of the document it points into (GitHub's anchors: lower case, spaces to
 * hyphens, punctuation dropped).
 */

import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";

const ROOT = new URL("../../", import.meta.url).pathname;

/** GitHub's anchor of a heading. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/`/g, "").replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

async function anchorsOf(path: string): Promise<Set<string>> {
  const text = await Deno.readTextFile(path);
  const withoutCode = text.replace(/```[\s\S]*?```/g, "");
  return new Set(
    [...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1])),
  );
}

Deno.test("README and guides: every relative link and anchor exists", async () => {
  const documents = ["README.md"];
  for await (const entry of Deno.readDir(join(ROOT, "docs"))) {
    if (entry.name.endsWith(".md")) documents.push(`docs/${entry.name}`);
  }
  const broken: string[] = [];
  for (const document of documents) {
    const text = (await Deno.readTextFile(join(ROOT, document))).replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue; // http, https, mailto: not followed
      const [file, fragment] = target.split("#");
      const path = file ? normalize(join(ROOT, dirname(document), file)) : join(ROOT, document);
      const exists = await Deno.stat(path).then(() => true, () => false);
      if (!exists) {
        broken.push(`${document}: ${target} (no such file)`);
        continue;
      }
      if (fragment && path.endsWith(".md") && !(await anchorsOf(path)).has(fragment)) {
        broken.push(`${document}: ${target} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});
