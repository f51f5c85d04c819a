/**
 * ResourceSync and plain Sitemaps documents read through the one XML entry
 * point: references decoded, broken or truncated documents and undeclared
 * entities a ProtocolError, never a shorter table.
 */

import assert from "node:assert/strict";
import { ProtocolError } from "../../../lib/errors/errors.ts";
import { ResourceSync } from "../../../lib/archive/resourcesync/mod.ts";
import { serveLocal } from "../../../lib/sandbox/_serve.ts";

const CAPABILITY_LIST =
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:md capability="capabilitylist"/><url><loc>/list.xml</loc><rs:md capability="resourcelist"/></url></urlset>`;

/** A plain sitemaps.org sitemap (no rs:md), as most sites publish. */
const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>/items?id=1&amp;lang=en</loc><lastmod>2024-05-01</lastmod></url>
  <url><loc>/items?id=2&#38;lang=fr&#x26;v=caf&#xE9;</loc><lastmod>2024-05-02T10:00:00Z</lastmod></url>
  <url><loc><![CDATA[/items?id=3&lang=de]]></loc></url>
</urlset>`;

/** Serves the capability list and `list` as the resource list. */
async function readList(list: string) {
  const server = serveLocal((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/cap.xml") return new Response(CAPABILITY_LIST);
    if (path === "/list.xml") return new Response(list);
    return new Response("", { status: 404 });
  });
  try {
    const rs = new ResourceSync(server.url, { progress: false, capabilityList: "/cap.xml" });
    const table = await rs.resourceList().then((t) => t, (e) => e);
    return { table, origin: server.url };
  } finally {
    await server.close();
  }
}

Deno.test("sitemap: entity and character references in loc are decoded", async () => {
  const { table, origin } = await readList(SITEMAP);
  assert.ok(!(table instanceof Error), String(table));
  assert.deepEqual(table.array("loc"), [
    `${origin}/items?id=1&lang=en`,
    `${origin}/items?id=2&lang=fr&v=caf%C3%A9`,
    `${origin}/items?id=3&lang=de`,
  ]);
  const lastmod = (table.array("lastmod") as (Date | null)[]).map((d) => d?.toISOString());
  assert.deepEqual(lastmod, ["2024-05-01T00:00:00.000Z", "2024-05-02T10:00:00.000Z", undefined]);
});

Deno.test("sitemap: every truncation is a ProtocolError, never fewer rows", async () => {
  const cuts = [SITEMAP.indexOf("</urlset>"), SITEMAP.indexOf("<url>", 100), SITEMAP.length - 2];
  for (const cut of cuts) {
    const { table } = await readList(SITEMAP.slice(0, cut));
    assert.ok(table instanceof ProtocolError, `cut at ${cut}: ${table}`);
    assert.equal(table.code, "invalidXml");
    assert.match(table.message, /not well-formed XML/);
  }
});

Deno.test("sitemap: an undeclared entity and a DOCTYPE entity are refused", async () => {
  const undeclared = await readList(SITEMAP.replace("&amp;lang=en", "&nbsp;lang=en"));
  assert.ok(undeclared.table instanceof ProtocolError, String(undeclared.table));
  assert.match(undeclared.table.message, /undefined entity/);
  const declared = await readList(
    `<!DOCTYPE urlset [<!ENTITY x "/items">]>` + SITEMAP.replace(/^<\?xml[^>]*\?>/, ""),
  );
  assert.ok(declared.table instanceof ProtocolError, String(declared.table));
  assert.match(declared.table.message, /declares entities/);
});
