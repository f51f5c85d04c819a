import assert from "node:assert/strict";
import { ResourceSync } from "../../../lib/archive/resourcesync/mod.ts";
import { PagingError } from "../../../lib/paging/errors.ts";
import { serveLocal } from "../../../lib/sandbox/_serve.ts";

const NS =
  `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"`;
const CAPABILITIES =
  `<urlset ${NS}><rs:md capability="capabilitylist"/><url><loc>/list.xml</loc><rs:md capability="resourcelist"/></url></urlset>`;
const xml = (body: string) =>
  new Response(body, { headers: { "content-type": "application/xml" } });

Deno.test("resourceList: a source ignoring the page number ends in a clear error", async () => {
  // Every page is the same full page of 3 entries, whatever p says; after 20
  // requests it answers an empty page, so a client without a guard ends.
  let lists = 0;
  const server = serveLocal((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/cap.xml") return xml(CAPABILITIES);
    lists++;
    const urls = lists > 20 ? "" : [1, 2, 3].map((i) => `<url><loc>/r/${i}</loc></url>`).join("");
    return xml(`<urlset ${NS}><rs:md capability="resourcelist"/>${urls}</urlset>`);
  });
  try {
    const rs = new ResourceSync(server.url, {
      progress: false,
      capabilityList: "/cap.xml",
      pageSize: 3,
    });
    const error = await rs.resourceList().catch((e) => e);
    assert.ok(error instanceof PagingError, `expected a PagingError, got ${error}`);
    assert.equal(error.code, "repeatedPage");
    assert.match(error.message, /page 2 repeated page 1/);
    assert.equal(lists, 2);
  } finally {
    await server.close();
  }
});

Deno.test("resourceList: a next link that points back ends in a clear error", async () => {
  let lists = 0;
  const server = serveLocal((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/cap.xml") return xml(CAPABILITIES);
    lists++;
    const page = url.pathname === "/list.xml" ? 1 : 2;
    const next = page === 1 ? "/list-2.xml" : "/list.xml";
    return xml(
      `<urlset ${NS}><rs:md capability="resourcelist"/><rs:ln rel="next" href="${next}"/>` +
        `<url><loc>/r/${page}</loc></url></urlset>`,
    );
  });
  try {
    const rs = new ResourceSync(server.url, { progress: false, capabilityList: "/cap.xml" });
    const error = await rs.resourceList().catch((e) => e);
    assert.ok(error instanceof PagingError, `expected a PagingError, got ${error}`);
    assert.equal(error.code, "cursorCycle");
    assert.equal(lists, 2);
  } finally {
    await server.close();
  }
});
