/**
 * A recording holds no registered secret in any encoding, one step to the
 * side of latin-1, UTF-16, base64 and percent-encoding: the escapes of the
 * text formats a server answers in. A key with a slash and a plus (as
 * secret keys in base64 are) is echoed by a loopback server as PHP writes
 * JSON (`\/`), as JSON with `\u` escapes, and as HTML with numeric or named
 * character references (`&#x2F;`, `&#47;`, `&amp;`), mixed as an escaper
 * mixes them. The recording files on disk are read back, every escape
 * undone by the test itself, and searched for the key.
 */

import assert from "node:assert/strict";
import { HttpClient, registerSecret } from "../../lib/http/mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

const KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY+Ex&mp=KEY";
registerSecret(KEY);

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, "0");
const ESCAPES: Record<string, (text: string) => string> = {
  "PHP JSON slashes": (t) => JSON.stringify({ echoed: t }).replaceAll("/", "\\/"),
  "JSON \\u escapes": (t) =>
    JSON.stringify({ echoed: t }).replace(/[/+&=]/g, (c) => `\\u00${hex(c).toUpperCase()}`),
  "HTML hexadecimal references": (t) =>
    `<p>${
      t.replace(/[/+=]/g, (c) => `&#x${hex(c).toUpperCase()};`).replaceAll("&m", "&amp;m")
    }</p>`,
  "HTML decimal references": (t) => `<p>${t.replace(/[/&]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`,
  "HTML named references": (t) =>
    `<p title="${
      t.replaceAll("&", "&amp;").replaceAll("/", "&sol;").replaceAll("+", "&plus;")
    }"></p>`,
};

/** A text with every escape above undone, as a reader of the stored answer would read it. */
function unescaped(text: string): string {
  return text
    .replace(/\\u([0-9a-f]{4})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)))
    .replaceAll("\\/", "/")
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCharCode(parseInt(h, 16)))
    .replace(/&#([0-9]+);/g, (_, d) => String.fromCharCode(Number(d)))
    .replaceAll("&sol;", "/").replaceAll("&plus;", "+").replaceAll("&amp;", "&");
}

async function recordedTexts(dir: string): Promise<string[]> {
  const texts: string[] = [];
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".json")) {
        const text = await Deno.readTextFile(path);
        texts.push(text);
        const body = JSON.parse(text);
        if (typeof body.bodyBase64 === "string") texts.push(atob(body.bodyBase64));
        if (typeof body.body === "string") texts.push(body.body);
      }
    }
  };
  await walk(dir);
  return texts;
}

for (const [what, escape] of Object.entries(ESCAPES)) {
  Deno.test(`a key echoed with ${what} is not in the recording`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "tidepool-recording-" });
    await using server = serveLocal(
      (request) =>
        new Response(escape(`unknown key ${request.headers.get("x-api-key")}`), {
          headers: { "content-type": "text/plain; charset=utf-8" },
        }),
      { maxRequests: 4 },
    );
    try {
      const http = new HttpClient(server.url, {
        progress: false,
        cache: { dir, mode: "record" },
        headers: { "x-api-key": KEY },
      });
      const response = await http.request({ path: "/status", authenticated: true });
      const echoed = new TextDecoder().decode(response.bytes);
      assert.ok(!echoed.includes(KEY) && unescaped(echoed).includes(KEY), "the echo is escaped");
      const texts = await recordedTexts(dir);
      assert.ok(texts.length > 0, "the answer was recorded");
      for (const text of texts) {
        assert.ok(!unescaped(text).includes(KEY), `the key is in the recording: ${text}`);
        assert.ok(!unescaped(text).includes("bPxRfiCY"), `a piece of the key is in it: ${text}`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
