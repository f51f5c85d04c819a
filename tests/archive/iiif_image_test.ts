/**
 * IIIF images: the output size is worked out and checked against info.json's
 * limits before the request; the sandbox serves real scaled PNG bytes.
 */

import assert from "node:assert/strict";
import { iiifOutputSize } from "../../lib/archive/iiif_image.ts";
import type { IiifInfo } from "../../lib/archive/mod.ts";
import { archiveOn, withSandbox } from "./_sandbox.ts";

/** Width, height and the inflated pixel rows of a grayscale PNG. */
async function readPng(bytes: Uint8Array): Promise<{ width: number; height: number; raw: number }> {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  assert.equal(new TextDecoder().decode(bytes.subarray(12, 16)), "IHDR");
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  let at = 8;
  const idat: Uint8Array[] = [];
  while (at < bytes.length) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(bytes.subarray(at + 4, at + 8));
    if (type === "IDAT") idat.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const stream = new Blob(idat as BlobPart[]).stream().pipeThrough(
    new DecompressionStream("deflate"),
  );
  const raw = (await new Response(stream).arrayBuffer()).byteLength;
  return { width, height, raw };
}

Deno.test("iiifImage: a region at a size, as PNG bytes of that size, saved to a file", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox);
    const dir = await Deno.makeTempDir();
    try {
      const image = await archive.iiifImage("img-0001", {
        region: "1000,500,3000,2000",
        size: "300,",
        format: "png",
        path: `${dir}/scan.png`,
      });
      assert.equal(image.width, 300);
      assert.equal(image.height, 200);
      assert.equal(image.contentType, "image/png");
      assert.match(image.url, /\/img-0001\/1000,500,3000,2000\/300,\/0\/default\.png$/);
      const png = await readPng(image.bytes);
      assert.deepEqual(png, { width: 300, height: 200, raw: 301 * 200 });
      assert.deepEqual(await Deno.readFile(`${dir}/scan.png`), image.bytes);
      // max is the largest the limits allow: 6000 × 4000 under maxWidth 1200.
      const max = await archive.iiifImage("img-0001", { format: "png" });
      assert.deepEqual([max.width, max.height], [1200, 800]);
      assert.equal((await readPng(max.bytes)).width, 1200);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("iiifImage: limits and upscaling are refused locally, before the image is requested", async () => {
  await withSandbox(async (sandbox) => {
    const requested: string[] = [];
    const { archive } = archiveOn(sandbox, {
      fetch: (input, init) => {
        requested.push(String(input instanceof Request ? input.url : input));
        return fetch(input, init);
      },
    });
    await assert.rejects(
      archive.iiifImage("img-0001", { size: "2000,", format: "png" }),
      /Cannot request the IIIF image: width 2000 exceeds maxWidth 1200/,
    );
    await assert.rejects(
      archive.iiifImage("img-0001", { region: "0,0,100,100", size: "200,", format: "png" }),
      /larger than the region \(100 × 100\); ask for \^200, to upscale/,
    );
    assert.ok(requested.every((url) => url.endsWith("/info.json")), requested.join("\n"));
  });
});

Deno.test("iiifOutputSize: the Image API 3 size forms", () => {
  const info = {
    id: "x",
    version: 3,
    width: 4000,
    height: 3000,
    profile: "level2",
    sizes: [{ width: 500, height: 375 }],
    tiles: [],
    raw: { maxArea: 6_000_000 },
  } as IiifInfo;
  assert.deepEqual(iiifOutputSize(info, { size: ",300" }), { width: 400, height: 300 });
  assert.deepEqual(iiifOutputSize(info, { size: "pct:10" }), { width: 400, height: 300 });
  assert.deepEqual(iiifOutputSize(info, { size: "!500,500" }), { width: 500, height: 375 });
  assert.deepEqual(iiifOutputSize(info, { region: "square", size: "max" }), {
    width: 2449,
    height: 2449,
  });
  assert.deepEqual(iiifOutputSize(info, { region: "pct:0,0,50,50", size: "^2400," }), {
    width: 2400,
    height: 1800,
  });
  assert.throws(
    () => iiifOutputSize(info, { size: "3000,3000" }),
    /area 9000000 exceeds maxArea 6000000.*preferred sizes: 500,375/s,
  );
});
