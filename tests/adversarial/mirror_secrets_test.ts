/**
 * A source reached with a key (`?api-key=` on the capability list, as some
 * gateways require, or a password in the URL) whose lists name resources
 * with that key in their locations, as a gateway echoing the request's query
 * does. No 8-character piece of the key may appear in a file name in the
 * mirror's folder, nor in any file the mirror keeps (its state, list of
 * locations, journal, list of what is still to fetch), read back from the
 * disk, nor in an error.
 */

import assert from "node:assert/strict";
import { ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { hostileResourceSync, quiet, treeOf } from "./_hostile_resourcesync.ts";

/** The 8-character pieces of a secret found in a text. */
function pieces(secret: string, text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) {
    const piece = secret.slice(i, i + 8);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

/** Every name below a folder and every file's text, joined. */
async function everything(root: string): Promise<{ names: string; texts: string }> {
  const names = await treeOf(root);
  const texts = await Promise.all(names.map((name) => Deno.readTextFile(`${root}/${name}`)));
  return { names: names.join("\n"), texts: texts.join("\n") };
}

Deno.test("a key in the source's query never reaches a file name or a file of the mirror", async () => {
  const key = "Zq8KxLmPwRtYvNbHsDfG";
  const { server } = hostileResourceSync(
    // The gateway names its resources with the key it was asked with.
    () => [{ loc: `/data/a.txt?api-key=${key}` }, { loc: `/data/b.txt?api-key=${key}` }],
    (path, request) =>
      path.startsWith("/data/") && new URL(request.url).searchParams.get("api-key") === key
        ? new Response(`bytes of ${path}`)
        : new Response("a key is needed", { status: 401 }),
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, {
      ...quiet,
      capabilityList: `/cap.xml?api-key=${key}`,
    });
    const error = await rs.mirror({ state: `${root}/m.json`, dir: `${root}/files` })
      .then(() => undefined, (e: unknown) => e);
    assert.deepEqual(pieces(key, String(error ?? "")), [], "the key in an error");
    const { names, texts } = await everything(root);
    assert.deepEqual(pieces(key, names), [], `the key in a file name:\n${names}`);
    assert.deepEqual(pieces(key, texts), [], "the key in a file the mirror keeps");
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a password in the source's URL, echoed in the locations, never reaches a file of the mirror", async () => {
  const password = "pW7rdQxZ2mKsLvNc";
  const { server } = hostileResourceSync(
    (origin) => {
      const withPassword = origin.replace("http://", `http://reader:${password}@`);
      return [{ loc: `${withPassword}/data/a.txt` }, { loc: `${withPassword}/data/b.txt` }];
    },
    (path) => path.startsWith("/data/") ? new Response(`bytes of ${path}`) : undefined,
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url.replace("http://", `http://reader:${password}@`), {
      ...quiet,
      capabilityList: "/cap.xml",
    });
    const error = await rs.mirror({ state: `${root}/m.json`, dir: `${root}/files` })
      .then(() => undefined, (e: unknown) => e);
    assert.deepEqual(pieces(password, String(error ?? "")), [], "the password in an error");
    const { names, texts } = await everything(root);
    assert.deepEqual(pieces(password, names), [], `the password in a file name:\n${names}`);
    assert.deepEqual(pieces(password, texts), [], "the password in a file the mirror keeps");
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
