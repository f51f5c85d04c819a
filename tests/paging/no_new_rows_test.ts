/**
 * A paged read whose cursor advances while its rows do not (a fresh token
 * forever over the same records, links on over the same entries, pages of
 * the same resources reshuffled) stops with a PagingError `noNewRows` after
 * a bounded number of pages. Each case plays the hostile service on loopback
 * and counts the requests it answered there, not in tidepool's report.
 */

import assert from "node:assert/strict";
import { namedCursor, PagingError, walkPages } from "../../lib/paging/mod.ts";
import { OaiPmh } from "../../lib/archive/oai/mod.ts";
import { ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { Archive } from "../../mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";
import { startOaiSandbox } from "../../lib/sandbox/archive/oai/mod.ts";

/** The n-th ordering of the items (Lehmer code): a new order for each n below items.length!. */
function permutation<T>(items: readonly T[], n: number): T[] {
  const left = [...items];
  const out: T[] = [];
  for (let size = left.length; size > 0; size--) {
    out.push(left.splice(n % size, 1)[0]);
    n = Math.floor(n / size);
  }
  return out;
}

const reporter = { progress: () => ({ update() {}, finish() {}, fail() {} }), warn() {} };
const SITE = "acme/letters";

/** A token service: `rowsOf(n)` for page n, a fresh token after every page. */
function tokenWalk(rowsOf: (page: number) => number[], last = Infinity) {
  let fetched = 0;
  const seen = new Set<number>();
  const walk = walkPages({
    label: "endless",
    cursor: namedCursor<number>("token", 0, String),
    fetch: (page: number) => {
      fetched++;
      return Promise.resolve(page);
    },
    read: (page: number) => ({
      rows: rowsOf(page).filter((row) => !seen.has(row) && !!seen.add(row)),
      next: page + 1 < last ? page + 1 : null,
    }),
  }, reporter);
  return { walk, fetched: () => fetched };
}

async function drain(walk: AsyncGenerator<{ rows: readonly number[] }>): Promise<number[]> {
  const rows: number[] = [];
  for await (const page of walk) rows.push(...page.rows);
  return rows;
}

Deno.test("engine: the same rows under a fresh token forever stop after 50 fruitless pages", async () => {
  const { walk, fetched } = tokenWalk(() => [1, 2, 3]);
  const error = await drain(walk).catch((e) => e);
  assert.ok(error instanceof PagingError, `got ${error}`);
  assert.equal(error.code, "noNewRows");
  assert.match(
    error.message,
    /51 pages in a row brought no new row while the token kept advancing/,
  );
  assert.equal(fetched(), 52);
});

Deno.test("engine: empty pages with a token forever stop too", async () => {
  const { walk, fetched } = tokenWalk(() => []);
  const error = await drain(walk).catch((e) => e);
  assert.equal(error?.code, "noNewRows");
  assert.ok(fetched() <= 52);
});

Deno.test("engine: a run of empty pages within the bound is read through", async () => {
  // 40 pages of nothing between two pages of rows, then the end.
  const { walk } = tokenWalk((page) => page === 0 ? [1] : page === 41 ? [2, 3] : [], 43);
  assert.deepEqual(await drain(walk), [1, 2, 3]);
});

Deno.test("OAI-PMH: a repository handing out fresh tokens over the same records stops", async () => {
  const sandbox = startOaiSandbox({ pageSize: 10 });
  try {
    sandbox.providers[SITE].faults.endlessTokensFromPage = 1;
    const oai = new OaiPmh(`${sandbox.url}/${SITE}/api/oai`, { progress: false, warn() {} });
    for (const verb of ["ListRecords", "ListIdentifiers"] as const) {
      const before = sandbox.requestCount;
      const error = await oai.harvest({ verb }).catch((e) => e);
      assert.ok(error instanceof PagingError, `${verb}: got ${error}`);
      assert.equal(error.code, "noNewRows");
      // Page 1 is new, page 2 too (its records are new once), then 51 repeats.
      const sent = sandbox.requestCount - before;
      assert.ok(sent <= 55, `${verb}: ${sent} requests`);
    }
  } finally {
    await sandbox.close();
  }
});

Deno.test("OAI-PMH ListSets: the same sets under fresh tokens stop", async () => {
  let requests = 0;
  const server = serveLocal((request) => {
    requests++;
    const token = `t${requests}`;
    return new Response(
      `<?xml version="1.0"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">` +
        `<responseDate>2026-01-01T00:00:00Z</responseDate><request verb="ListSets">${
          new URL(request.url).origin
        }</request><ListSets><set><setSpec>a</setSpec><setName>A</setName></set>` +
        `<resumptionToken>${token}</resumptionToken></ListSets></OAI-PMH>`,
      { headers: { "content-type": "text/xml" } },
    );
  }, { maxRequests: 1000 });
  try {
    const oai = new OaiPmh(`${server.url}/oai`, { progress: false, warn() {} });
    const error = await oai.listSets().catch((e) => e);
    assert.equal(error?.code, "noNewRows", `got ${error}`);
    assert.ok(requests <= 53, `${requests} requests`);
  } finally {
    await server.close();
  }
});

Deno.test("archive resources: full pages of the same resources reshuffled stop", async () => {
  let requests = 0;
  const server = serveLocal(() => {
    requests++;
    // The same ten resources in a new order each time: no page repeats.
    const ids = permutation(Array.from({ length: 10 }, (_, i) => i), requests);
    return Response.json({
      data: ids.map((i) => ({ id: `r${i}`, slug: `r${i}`, type: "item", title: `${i}` })),
    });
  }, { maxRequests: 1000 });
  try {
    const archive = new Archive(server.url, {
      progress: false,
      account: "acme",
      db: "letters",
      retry: false,
    });
    const error = await archive.resources({ pageSize: 10 }).catch((e) => e);
    assert.equal(error?.code, "noNewRows", `got ${error}`);
    assert.ok(requests <= 53, `${requests} requests`);
  } finally {
    await server.close();
  }
});

Deno.test("ResourceSync: next links on forever over the same entries stop", async () => {
  const NS =
    `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"`;
  let lists = 0;
  const server = serveLocal((request) => {
    const url = new URL(request.url);
    const xml = (body: string) =>
      new Response(body, { headers: { "content-type": "application/xml" } });
    if (url.pathname === "/cap.xml") {
      return xml(
        `<urlset ${NS}><rs:md capability="capabilitylist"/><url><loc>/list.xml</loc><rs:md capability="resourcelist"/></url></urlset>`,
      );
    }
    lists++;
    // The same six entries in a new order each time: no page repeats.
    const entries = permutation([1, 2, 3, 4, 5, 6].map((i) => `/r/${i}`), lists);
    return xml(
      `<urlset ${NS}><rs:md capability="resourcelist"/><rs:ln rel="next" href="/list-${
        lists + 1
      }.xml"/>${entries.map((loc) => `<url><loc>${loc}</loc></url>`).join("")}</urlset>`,
    );
  }, { maxRequests: 1000 });
  try {
    const rs = new ResourceSync(server.url, { progress: false, capabilityList: "/cap.xml" });
    const error = await rs.resourceList().catch((e) => e);
    assert.equal(error?.code, "noNewRows", `got ${error}`);
    assert.ok(lists <= 53, `${lists} lists`);
  } finally {
    await server.close();
  }
});
