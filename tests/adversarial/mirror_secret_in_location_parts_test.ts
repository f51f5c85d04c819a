/**
 * A source reached with a password (`http://reader:<password>@host/`, which
 * the client registers as a secret) that echoes it in its locations, not in
 * the user information or a credential parameter's value but in another part
 * of the URL: a query parameter's name (`/a.txt?<password>`), the host
 * (`http://<password>.localhost/`), or the path with a few characters
 * percent-encoded (`/q7w%783kz9pm%32rtv5n`, so no 8 characters of it are
 * written as they are). No 8-character piece of the password may appear in
 * a file name in the mirror's folder nor in any file the mirror keeps (its
 * state, list of locations, journal, list of what is still to fetch), read
 * back from the disk, nor in an error. Class: a secret leaked into a file or
 * a file name (credentials in a URL told apart by position only).
 */

import assert from "node:assert/strict";
import { ResourceSync } from "../../lib/archive/resourcesync/mod.ts";
import { hostileResourceSync, quiet, treeOf } from "./_hostile_resourcesync.ts";

const password = "q7wx3kz9pm2rtv5n";

/** The 8-character pieces of the password found in a text, in any case. */
function pieces(text: string): string[] {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (let i = 0; i + 8 <= password.length; i++) {
    const piece = password.slice(i, i + 8);
    if (lower.includes(piece)) found.push(piece);
  }
  return found;
}

async function mirrorEchoing(loc: (origin: string) => string): Promise<void> {
  const { server } = hostileResourceSync(
    (origin) => [{ loc: loc(origin) }],
    (path) => new Response(`bytes of ${path}`),
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url.replace("http://", `http://reader:${password}@`), {
      ...quiet,
      capabilityList: "/cap.xml",
    });
    const error = await rs.mirror({ state: `${root}/m.json`, dir: `${root}/files` })
      .then(() => undefined, (e: unknown) => e);
    assert.deepEqual(pieces(String(error ?? "")), [], "the password in an error");
    const names = await treeOf(root);
    assert.deepEqual(pieces(names.join("\n")), [], `the password in a file name:\n${names}`);
    for (const name of names) {
      const text = await Deno.readTextFile(`${root}/${name}`);
      assert.deepEqual(pieces(text), [], `the password in ${name}:\n${text}`);
    }
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a password echoed as a query parameter's name reaches no file of the mirror", async () => {
  await mirrorEchoing(() => `/data/a.txt?${password}`);
});

Deno.test("a password echoed in a location's host reaches no file of the mirror", async () => {
  await mirrorEchoing(() => `http://${password}.localhost:9/data/a.txt`);
});

Deno.test("a password echoed partly percent-encoded in the path reaches no file of the mirror", async () => {
  // x as %78 and 2 as %32: no 8 characters of the password are written as they are.
  await mirrorEchoing(() => "/data/q7w%783kz9pm%32rtv5n");
});
