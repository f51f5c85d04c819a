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
import {
  MirrorError,
  type MirrorResult,
  ResourceSync,
} from "../../lib/archive/resourcesync/mod.ts";
import { withCredentialsOf, withoutCredentials } from "../../lib/http/credentials_in_url.ts";
import { registerSecret } from "../../lib/errors/redact.ts";
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

/** The locations of a mirror's table. */
function locsOf(table: MirrorResult["table"]): string[] {
  return Array.from(table.array("loc") as ArrayLike<unknown>, String);
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

Deno.test("a resource left to fetch is asked for with the source's key and kept without it", async () => {
  const key = "Hq3VnT8sLwZpRx2Kd";
  let refuseB = true;
  const seen: string[] = [];
  const { server } = hostileResourceSync(
    () => [{ loc: `/data/a.txt?v=1&api-key=${key}` }, { loc: `/data/b.txt?api-key=${key}` }],
    (path, request) => {
      const url = new URL(request.url);
      seen.push(`${path} ${url.searchParams.get("api-key") === key}`);
      if (url.searchParams.get("api-key") !== key) return new Response("key?", { status: 401 });
      if (path === "/data/b.txt" && refuseB) return new Response("gone", { status: 404 });
      return path.startsWith("/data/") ? new Response(`bytes of ${path}`) : undefined;
    },
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, {
      ...quiet,
      capabilityList: `/cap.xml?api-key=${key}`,
    });
    const options = { state: `${root}/m.json`, dir: `${root}/files` };
    await assert.rejects(rs.mirror(options), MirrorError);
    // The pending file, read from the disk, names b without its key.
    const pending = await Deno.readTextFile(`${root}/m.json.pending.json`);
    assert.match(pending, /\/data\/b\.txt/);
    assert.deepEqual(pieces(key, pending), []);
    refuseB = false;
    seen.length = 0;
    // A changes run: b is not listed again, only left to fetch, and is asked for with the key.
    const second = await rs.mirror(options);
    assert.equal(second.kind, "changes");
    assert.deepEqual(seen, ["/data/b.txt true"]);
    assert.equal(await Deno.readTextFile(`${root}/files/data/b.txt`), "bytes of /data/b.txt");
    // The location's identity is stable: a re-list holds both files and removes nothing.
    const relist = await rs.mirror({ ...options, relistAfterDays: 0 });
    assert.equal(relist.unchanged, 2);
    assert.deepEqual(relist.removed, []);
    assert.deepEqual(locsOf(relist.table).map((loc) => new URL(loc).search), ["?v=1", ""]);
    const { names, texts } = await everything(root);
    assert.deepEqual(pieces(key, names + texts), []);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a mirror that lists only (the command line's) keeps no key in its state", async () => {
  const key = "Mv4QpW9zXcRt7YbLn";
  const { server } = hostileResourceSync(
    () => [{ loc: `/data/a.txt?token=${key}` }],
    () => undefined,
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, { ...quiet, capabilityList: `/cap.xml?token=${key}` });
    const run = await rs.mirror({ state: `${root}/m.json` });
    assert.deepEqual(pieces(key, locsOf(run.table).join("\n")), [], "the key in the table");
    const { names, texts } = await everything(root);
    assert.ok(names.includes("m.json.locs.txt"));
    assert.deepEqual(pieces(key, names + texts), []);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a location on another host never gets the source's credentials", () => {
  const source = "http://reader:pw@127.0.0.1:9/cap.xml?api-key=k";
  assert.equal(withCredentialsOf("http://127.0.0.1:8/a", source), "http://127.0.0.1:8/a");
  assert.equal(withCredentialsOf("http://other.example/a", source), "http://other.example/a");
  assert.equal(
    withCredentialsOf("http://127.0.0.1:9/a?api-key=own", source),
    "http://reader:pw@127.0.0.1:9/a?api-key=own",
  );
  registerSecret("registered-wskey-0042");
  assert.equal(
    withoutCredentials("http://127.0.0.1:9/a?wskey=registered-wskey-0042&set=x#top"),
    "http://127.0.0.1:9/a?set=x",
  );
});
