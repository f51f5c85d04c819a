/**
 * A recording holds no registered secret in any encoding a server may echo
 * it in: a loopback server answers with the request URL (which carries the
 * key) as ISO-8859-1, UTF-16 (both byte orders), base64 (at each alignment)
 * and percent-encoded, and the recording files on disk are searched for the
 * key in each of those forms.
 */

import assert from "node:assert/strict";
import { HttpClient, registerSecret } from "../../lib/http/mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

const KEY = "pub7.Zq8rT2vW9xY4kL6mN3bC";
registerSecret(KEY);

const utf16 = (text: string, little: boolean) => {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    bytes[2 * i + (little ? 0 : 1)] = text.charCodeAt(i) & 0xff;
    bytes[2 * i + (little ? 1 : 0)] = text.charCodeAt(i) >> 8;
  }
  return bytes;
};
const latin1 = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** The answer of each route: the request URL echoed in one encoding. */
function echo(route: string, url: string): Response {
  const echoed = `<request>${url}</request> r\xe9ponse caf\xe9`;
  const body: Record<string, () => Uint8Array<ArrayBuffer>> = {
    latin1: () => latin1(echoed),
    utf16le: () => new Uint8Array([0xff, 0xfe, ...utf16(echoed, true)]),
    utf16be: () => new Uint8Array([0xfe, 0xff, ...utf16(echoed, false)]),
    base64_0: () => latin1(b64(latin1(echoed))),
    base64_1: () => latin1(b64(latin1(`x${echoed}`))),
    base64_2: () => latin1(b64(latin1(`xy${echoed}`))),
    percent: () => latin1(`caf\xe9 ${encodeURIComponent(url)}`),
  };
  if (route === "location") {
    // A created resource named by the URL it was asked with, key included.
    return new Response(latin1("created"), { status: 201, headers: { location: url } });
  }
  return new Response(body[route](), {
    headers: { "content-type": "text/xml; charset=iso-8859-1" },
  });
}

/** Every form of the key searched for in the stored bytes. */
function keyForms(): Uint8Array[] {
  const forms = [KEY, encodeURIComponent(KEY)];
  const out: Uint8Array[] = [];
  for (const form of forms) out.push(latin1(form), utf16(form, true), utf16(form, false));
  // base64 of the key at each alignment: the run made of the key's bytes alone.
  for (let skip = 0; skip < 3; skip++) {
    const rest = KEY.slice(skip);
    out.push(latin1(b64(latin1(rest.slice(0, rest.length - (rest.length % 3))))));
  }
  return out;
}

function holds(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

async function recordedBodies(dir: string): Promise<Uint8Array[]> {
  const bodies: Uint8Array[] = [];
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".json")) {
        const file = JSON.parse(await Deno.readTextFile(path));
        if (file.bodyBase64 !== undefined) {
          bodies.push(Uint8Array.from(atob(file.bodyBase64), (c) => c.charCodeAt(0)));
        }
        bodies.push(latin1(await Deno.readTextFile(path)));
      }
    }
  };
  await walk(dir);
  return bodies;
}

const ROUTES = [
  "latin1",
  "utf16le",
  "utf16be",
  "base64_0",
  "base64_1",
  "base64_2",
  "percent",
  "location",
];

for (const route of ROUTES) {
  Deno.test(`a key echoed in ${route} is not in the recording`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
    await using server = serveLocal((request) => echo(route, request.url), { maxRequests: 4 });
    try {
      const http = new HttpClient(server.url, {
        progress: false,
        cache: { dir, mode: "record" },
      });
      const response = await http.request({
        path: `/${route}`,
        query: { api_key: KEY, verb: "Identify" },
      });
      // The echo did carry the key: the check below is not vacuous.
      assert.ok(
        keyForms().some((form) =>
          holds(
            route === "location" ? latin1(response.headers.get("location") ?? "") : response.bytes,
            form,
          )
        ),
        "the server echoed the key",
      );
      const bodies = await recordedBodies(dir);
      assert.ok(bodies.length > 0, "the answer was recorded");
      for (const body of bodies) {
        for (const form of keyForms()) {
          assert.ok(!holds(body, form), `no key form in the ${route} recording`);
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
