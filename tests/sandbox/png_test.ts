/**
 * The sandbox's one PNG encoder, both colour types: read back with other
 * code than its own (node:zlib's CRC-32 and inflate, the platform's image
 * decoder), every pixel where it was put.
 */

import assert from "node:assert/strict";
import zlib from "node:zlib";
import { encodePng, type PngColour } from "../../lib/sandbox/archive/_png.ts";

/** The chunks of a PNG, each CRC checked with node:zlib. */
function chunks(png: Uint8Array): { type: string; data: Uint8Array }[] {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out = [];
  for (let at = 8; at < png.length;) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    assert.equal(
      view.getUint32(at + 8 + length),
      zlib.crc32(png.subarray(at + 4, at + 8 + length)),
    );
    out.push({ type, data });
    at += 12 + length;
  }
  return out;
}

const CASES: [PngColour, number, number[]][] = [["gray", 0, [1]], ["rgb", 2, [1, 2, 3]]];

for (const [colour, code, channels] of CASES) {
  Deno.test(`encodePng ${colour}: a PNG other decoders read, each sample in place`, async () => {
    const [width, height] = [7, 5];
    const sample = (x: number, y: number, c: number) => (x * 31 + y * 7 + c * 90) % 256;
    const png = await encodePng(width, height, colour, sample);
    const parts = chunks(png);
    assert.deepEqual(parts.map((p) => p.type), ["IHDR", "IDAT", "IEND"]);
    const header = new DataView(parts[0].data.buffer, parts[0].data.byteOffset, 13);
    assert.deepEqual([header.getUint32(0), header.getUint32(4)], [width, height]);
    assert.deepEqual([...parts[0].data.subarray(8)], [8, code, 0, 0, 0]);
    const raw = zlib.inflateSync(parts[1].data);
    const stride = 1 + width * channels.length;
    assert.equal(raw.length, stride * height);
    for (let y = 0; y < height; y++) {
      assert.equal(raw[y * stride], 0, "filter none");
      for (let x = 0; x < width; x++) {
        for (let c = 0; c < channels.length; c++) {
          assert.equal(raw[y * stride + 1 + x * channels.length + c], sample(x, y, c));
        }
      }
    }
    const bitmap = await createImageBitmap(new Blob([png as BlobPart], { type: "image/png" }));
    assert.deepEqual([bitmap.width, bitmap.height], [width, height]);
  });
}
