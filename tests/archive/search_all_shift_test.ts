import assert from "node:assert/strict";
import { Archive, ProtocolError } from "../../mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

const hit = (slug: string) => ({ id: slug, slug, type: "item", title: slug, is_public: true });

/** A search endpoint whose pages are fixed lists, by page number. */
function searchServer(pages: Record<number, string[]>, total: number) {
  return serveLocal((request) => {
    const page = Number(new URL(request.url).searchParams.get("page[number]") ?? 1);
    return Response.json({ hits: (pages[page] ?? []).map(hit), total, facets: {} });
  });
}

const quiet = { progress: false as const, account: "acme", db: "letters" };

Deno.test("searchAll keeps a hit once when the index shifts while paging", async () => {
  // A resource inserted before page 2 was read: page 2 starts with page 1's last hit.
  const server = searchServer({ 1: ["a", "b"], 2: ["b", "c"], 3: ["d", "e"], 4: ["e"] }, 5);
  try {
    const warnings: string[] = [];
    const archive = new Archive(server.url, { ...quiet, warn: (m) => warnings.push(m) });
    const table = await archive.searchAll({ q: "x", pageSize: 2 });
    assert.deepEqual(table.array("slug"), ["a", "b", "c", "d", "e"]);
    assert.deepEqual(warnings, []);
  } finally {
    await server.close();
  }
});

Deno.test("searchAll refuses a service that ignores the page number", async () => {
  const server = searchServer({ 1: ["a", "b"], 2: ["a", "b"] }, 4);
  try {
    const archive = new Archive(server.url, quiet);
    await assert.rejects(
      archive.searchAll({ q: "x", pageSize: 2 }),
      (error: unknown) => error instanceof ProtocolError && /repeated page 1/.test(error.message),
    );
  } finally {
    await server.close();
  }
});

Deno.test("searchAll reads on while repeated hits keep the unique count below the total", async () => {
  // Two inserts while paging: pages 2 and 3 each start with the hit before.
  const server = searchServer({ 1: ["a", "b"], 2: ["b", "c"], 3: ["c", "d"], 4: ["e"] }, 5);
  try {
    const warnings: string[] = [];
    const archive = new Archive(server.url, { ...quiet, warn: (m) => warnings.push(m) });
    const table = await archive.searchAll({ q: "x", pageSize: 2 });
    assert.deepEqual(table.array("slug"), ["a", "b", "c", "d", "e"]);
    assert.deepEqual(warnings, []);
  } finally {
    await server.close();
  }
});
