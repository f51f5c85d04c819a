/**
 * A hostile ResourceSync source against a mirror that keeps files: links to
 * another host (listed or by redirect), paths that climb, escaped slashes,
 * names of 300 bytes, bodies longer or shorter than listed, an endless body,
 * digests that do not match. Each is refused or contained; the outcome is
 * read on the file system and at a second loopback listener, not from
 * tidepool's report alone.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import {
  MirrorError,
  type MirrorResult,
  ResourceSync,
} from "../../../lib/archive/resourcesync/mod.ts";
import { serveLocal } from "../../../lib/sandbox/_serve.ts";
import { filesIn, sha256 } from "./_mirror_helpers.ts";
import {
  hostileResourceSync,
  type ListedResource,
  quiet,
} from "../../adversarial/_hostile_resourcesync.ts";

/** A source whose resource list the test writes, and whose data the test answers. */
function hostileSource(
  listed: (origin: string) => ListedResource[],
  answer: (path: string) => Response | undefined,
) {
  return hostileResourceSync(listed, (path) => answer(path), 500);
}

/** A listener that must never be reached: it counts what reaches it. */
function otherHost() {
  let hits = 0;
  const server = serveLocal(() => {
    hits++;
    return new Response("secret elsewhere");
  }, { maxRequests: 50 });
  return { server, hits: () => hits };
}

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

/** Runs a mirror that must end in a MirrorError; gives back the error. */
async function failingMirror(url: string, state: string, dir: string): Promise<MirrorError> {
  const rs = new ResourceSync(url, { ...quiet, capabilityList: "/cap.xml", concurrency: 4 });
  const error = await rs.mirror({ state, dir }).catch((e) => e);
  assert.ok(error instanceof MirrorError, String(error));
  return error;
}

Deno.test("links to another host, listed or by redirect, are refused and the host is never asked", async () => {
  const elsewhere = otherHost();
  const { server, asked } = hostileSource(
    () => [
      { loc: `${elsewhere.server.url}/stolen.json` },
      { loc: "/redirected.json" },
      { loc: "/fine.json" },
    ],
    (path) =>
      path === "/redirected.json"
        ? new Response(null, {
          status: 302,
          headers: { location: `${elsewhere.server.url}/via-redirect.json` },
        })
        : path === "/fine.json"
        ? new Response("fine")
        : undefined,
  );
  const root = await Deno.makeTempDir();
  try {
    const error = await failingMirror(server.url, `${root}/m.json`, `${root}/files`);
    assert.equal(elsewhere.hits(), 0, "the other host was reached");
    assert.deepEqual(
      error.failed.map((f) => f.loc).sort(),
      [`${elsewhere.server.url}/stolen.json`, `${server.url}/redirected.json`].sort(),
    );
    assert.match(error.message, /another host/);
    assert.deepEqual([...(await filesIn(`${root}/files`)).keys()], ["fine.json"]);
    assert.ok(!asked.includes("/stolen.json"));
  } finally {
    await server.close();
    await elsewhere.server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("paths that climb stay in the folder: .., %2e%2e, .%2E and escaped slashes", async () => {
  const { server, asked } = hostileSource(
    () => [
      { loc: "/a/b/../../../../outside-1.json" },
      { loc: "/a/%2e%2e/%2E%2E/%2e%2e/outside-2.json" },
      { loc: "/a/b/.%2E/%2e./.%2E/outside-3.json" },
      { loc: "/a/..%2F..%2F..%2Foutside-4.json" },
      { loc: "/a/..%5C..%5Coutside-5.json" },
    ],
    (path) => new Response(`content of ${path}`),
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
    const run = await rs.mirror({ state: `${root}/m.json`, dir: `${root}/files` });
    assert.equal(run.written.length, 5);
    // Outside the folder: only the mirror's own state files, nothing named outside-*.
    const beside: string[] = [];
    for await (const entry of Deno.readDir(root)) beside.push(entry.name);
    assert.deepEqual(beside.sort(), [
      "files",
      "m.json",
      "m.json.files.jsonl",
      "m.json.lock",
      "m.json.locs.txt",
    ]);
    const files = [...(await filesIn(`${root}/files`)).keys()].sort();
    assert.equal(files.length, 5);
    assert.ok(files.includes("outside-1.json") && files.includes("outside-2.json"), files.join());
    assert.ok(files.includes("outside-3.json"), files.join());
    // An escaped slash is part of one name, sanitised and tagged, in its own folder.
    assert.ok(files.some((f) => /^a\/outside-4~[0-9a-f]{8}\.json$/.test(f)), files.join());
    assert.ok(files.some((f) => /^a\/outside-5~[0-9a-f]{8}\.json$/.test(f)), files.join());
    for (const file of files) assert.ok(!file.split("/").includes(".."));
    // What the server was asked for is what each file holds.
    const held = await filesIn(`${root}/files`);
    assert.equal(
      held.get("outside-1.json"),
      await sha256(new TextEncoder().encode("content of /outside-1.json")),
    );
    assert.ok(asked.includes("/outside-1.json"));
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("names of 300 bytes are cut to fit, apart from each other, and read back whole", async () => {
  const long = (char: string, tail: string) => `/${char.repeat(300)}${tail}.json`;
  const { server } = hostileSource(
    () => [
      { loc: long("a", "1") },
      { loc: long("a", "2") },
      { loc: encodeURI(long("資", "")) },
    ],
    (path) => new Response(`body ${path.length}${path.slice(-6)}`),
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
    const run = await rs.mirror({ state: `${root}/m.json`, dir: `${root}/files` });
    const names = [...(await filesIn(`${root}/files`)).keys()];
    assert.equal(names.length, 3, names.join("\n"));
    for (const name of names) {
      assert.ok(new TextEncoder().encode(name).byteLength <= 240, name);
      assert.ok(name.endsWith(".json"), name);
    }
    assert.equal(new Set(run.written.map((f) => f.sha256)).size, 3);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("bodies that break the listed length or digest are refused by name, nothing written", async () => {
  const body = "the resource as served";
  const chunked = () =>
    new Response(ReadableStream.from([new TextEncoder().encode(body)]), {
      headers: { "content-type": "application/json" },
    });
  const { server } = hostileSource(
    () => [
      { loc: "/longer.json", length: body.length - 5 },
      { loc: "/shorter.json", length: body.length + 5 },
      { loc: "/chunked.json", length: body.length - 5 },
      { loc: "/wrong-md5.json", hash: `md5:${md5("something else")}` },
      { loc: "/wrong-sha.json", hash: `md5:${md5(body)} sha-256:${"0".repeat(64)}` },
      // The resync library's base64 digest: accepted.
      {
        loc: "/base64.json",
        length: body.length,
        hash: `md5:${Buffer.from(md5(body), "hex").toString("base64")}`,
      },
      { loc: "/hex.json", length: body.length, hash: `MD5:${md5(body).toUpperCase()}` },
    ],
    (path) => path === "/chunked.json" ? chunked() : new Response(body),
  );
  const root = await Deno.makeTempDir();
  try {
    const error = await failingMirror(server.url, `${root}/m.json`, `${root}/files`);
    const reasons = new Map(error.failed.map((f) => [new URL(f.loc).pathname, f.message]));
    assert.deepEqual([...reasons.keys()].sort(), [
      "/chunked.json",
      "/longer.json",
      "/shorter.json",
      "/wrong-md5.json",
      "/wrong-sha.json",
    ]);
    assert.match(reasons.get("/wrong-md5.json")!, /md5 does not match the list/);
    assert.match(reasons.get("/wrong-sha.json")!, /sha-256 does not match the list/);
    assert.match(error.message, /Mirror incomplete: 5 of 7 resources/);
    assert.match(error.message, /wrong-md5\.json/);
    assert.match(reasons.get("/longer.json")!, /more than the 17 bytes the list gives/);
    assert.match(reasons.get("/chunked.json")!, /more than the 17 bytes the list gives/);
    assert.match(reasons.get("/shorter.json")!, /sent 22 bytes, the list gives 27/);
    const files = await filesIn(`${root}/files`);
    assert.deepEqual([...files.keys()].sort(), ["base64.json", "hex.json"]);
    // Nothing half-written is left: no temporary file anywhere in the folder.
    for await (const entry of Deno.readDir(`${root}/files`)) {
      assert.ok(!entry.name.endsWith(".part"));
    }
    // The failed ones stay to fetch: a second run asks only for them.
    const again = await failingMirror(server.url, `${root}/m.json`, `${root}/files`);
    assert.equal(again.failed.length, 5);
    assert.equal((again.result as MirrorResult).written.length, 0);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a body with no length that never ends is cut at maxBytes, and the server sees the hang-up", async () => {
  let cancelled!: () => void;
  const hungUp = new Promise<void>((resolve) => cancelled = resolve);
  const { server } = hostileSource(
    () => [{ loc: "/endless.bin" }],
    () =>
      new Response(
        new ReadableStream({
          pull: (controller) => controller.enqueue(new Uint8Array(4096)),
          cancel: () => cancelled(),
        }),
      ),
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, { ...quiet, capabilityList: "/cap.xml" });
    const error = await rs.mirror({
      state: `${root}/m.json`,
      dir: `${root}/files`,
      maxBytes: 64_000,
    })
      .catch((e) => e);
    assert.ok(error instanceof MirrorError, String(error));
    assert.match(error.failed[0].message, /cap|maxBytes|larger/i);
    await hungUp;
    assert.equal((await filesIn(`${root}/files`)).size, 0);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a resource that answers 404 or 500 fails alone; a host that cannot be reached stops the run, finished files kept", async () => {
  const { server } = hostileSource(
    () => [{ loc: "/gone.json" }, { loc: "/broken.json" }, { loc: "/fine.json" }],
    (path) =>
      path === "/broken.json"
        ? Response.json({ error: "serializer failed" }, { status: 500 })
        : path === "/fine.json"
        ? new Response("fine")
        : undefined,
  );
  const root = await Deno.makeTempDir();
  try {
    const rs = new ResourceSync(server.url, {
      ...quiet,
      capabilityList: "/cap.xml",
      retry: false,
    });
    const state = `${root}/m.json`;
    const error = await rs.mirror({ state, dir: `${root}/files` }).catch((e) => e);
    assert.ok(error instanceof MirrorError, String(error));
    assert.deepEqual(error.failed.map((f) => new URL(f.loc).pathname).sort(), [
      "/broken.json",
      "/gone.json",
    ]);
    assert.deepEqual([...(await filesIn(`${root}/files`)).keys()], ["fine.json"]);

    // Now the host's resources cannot be reached at all: the run stops with the network's
    // error, and what was left to fetch stays listed for the next run.
    const unreachable = new ResourceSync(server.url, {
      ...quiet,
      capabilityList: "/cap.xml",
      retry: false,
      fetch: (input, init) =>
        String(input instanceof Request ? input.url : input).endsWith(".json")
          ? Promise.reject(new TypeError("error sending request: connection refused"))
          : fetch(input, init),
    });
    const stopped = await unreachable.mirror({ state, dir: `${root}/files` }).catch((e) => e);
    assert.equal(stopped.name, "NetworkError", String(stopped));
    const pending = JSON.parse(await Deno.readTextFile(`${state}.pending.json`)) as {
      loc: string;
    }[];
    assert.deepEqual(pending.map((e) => new URL(e.loc).pathname).sort(), [
      "/broken.json",
      "/gone.json",
    ]);
    assert.deepEqual([...(await filesIn(`${root}/files`)).keys()], ["fine.json"]);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
