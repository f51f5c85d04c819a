/**
 * A name a node chooses (a compute result's file name, a download's
 * `Content-Disposition`) must come out of the one sanitiser as no Windows
 * device and with no invisible character, however it is built. Each case is
 * served by a hostile node on loopback and checked in the folder's own
 * listing on the disk, not in tidepool's report.
 */

import assert from "node:assert/strict";
import { OceanNode, signerFromPrivateKey } from "../../mod.ts";
import { serveLocal } from "../../lib/sandbox/_serve.ts";

/** Windows opens these as devices, whatever follows the first dot (trailing spaces ignored). */
const DEVICE = /^(?:con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³]) *(?:\.|$)/i;

/**
 * Characters of Unicode's format class (Cf) and fillers that render as
 * nothing: a soft hyphen, the Mongolian vowel separator, the combining
 * grapheme joiner, variation selectors, tag characters (which smuggle whole
 * words invisibly), interlinear annotation marks, Hangul and Braille fillers.
 */
const INVISIBLE =
  /[\p{Cf}\u034f\u115f\u1160\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0\u{e0100}-\u{e01ef}]/u;

/** A node that serves the job's results, each with the bytes of its index. */
function resultNode() {
  return serveLocal((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/api/services/nonce") return Response.json({ nonce: 0 });
    if (url.pathname === "/api/services/computeResult") {
      return new Response(`result ${url.searchParams.get("index")}`);
    }
    return new Response("not here", { status: 404 });
  }, { maxRequests: 200 });
}

async function downloadNamed(names: string[]): Promise<string[]> {
  const server = resultNode();
  const dir = await Deno.makeTempDir();
  try {
    const node = new OceanNode(server.url, { progress: false, retry: false });
    const signer = signerFromPrivateKey(`0x${"1".repeat(63)}2`);
    const job = {
      jobId: "job-1",
      environment: "0xenv",
      status: 70,
      owner: signer.address,
      results: names.map((filename, index) => ({ filename, filesize: 8, type: "output", index })),
    };
    // deno-lint-ignore no-explicit-any
    await node.downloadResults(job as any, { signer, dir });
    return [...Deno.readDirSync(dir)].map((entry) => entry.name);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a result name that becomes a Windows device once cut to 240 bytes is escaped", async () => {
  // The device check runs before the cut: "CON" + spaces + "x.txt" is no device,
  // but the cut drops the tail and the trailing spaces, leaving "CON.txt".
  const names = [
    "CON" + " ".repeat(300) + "x.txt",
    "nul" + " ".repeat(300) + "x",
    "AUX" + ".".repeat(1) + " ".repeat(300) + "tail",
    "COM1" + " ".repeat(250) + "y.csv",
  ];
  const listed = await downloadNamed(names);
  assert.equal(listed.length, names.length);
  for (const name of listed) {
    assert.doesNotMatch(name, DEVICE, `saved as ${JSON.stringify(name)}, a Windows device`);
  }
});

Deno.test("a result name with invisible format characters shows none of them", async () => {
  const names = [
    "invoice\u00ad.pdf", // soft hyphen
    "a\u180eb.csv", // Mongolian vowel separator
    "report\u{e0049}\u{e0047}\u{e004e}.txt", // tag characters spelling "IGN"
    "a\ufe0fb.csv", // variation selector
    "a\u034fb.csv", // combining grapheme joiner
    "a\ufff9b\ufffbc.csv", // interlinear annotation
    "a\u0600b.csv", // Arabic number sign (format)
    "\u3164.csv", // Hangul filler: a name that looks empty
  ];
  const listed = await downloadNamed(names);
  assert.equal(listed.length, names.length);
  for (const name of listed) {
    assert.doesNotMatch(name, INVISIBLE, `saved as ${JSON.stringify(name)}`);
  }
});
