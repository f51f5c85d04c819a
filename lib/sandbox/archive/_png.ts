/**
 * A minimal PNG encoder for the sandbox's image API and the tests' uploads:
 * 8-bit grayscale or RGB, zlib-compressed with the platform's
 * CompressionStream, so the images are real PNG files any decoder reads.
 *
 * @module
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function zlib(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(
    new CompressionStream("deflate"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The colour types written, 8 bits a channel: their IHDR code and channels a pixel. */
const COLOUR_TYPES = {
  gray: { code: 0, channels: 1 },
  rgb: { code: 2, channels: 3 },
} as const;

/** A PNG colour type: `gray` (one channel) or `rgb` (three). */
export type PngColour = keyof typeof COLOUR_TYPES;

/**
 * Encodes an 8-bit image as PNG.
 *
 * @param width Width in pixels.
 * @param height Height in pixels.
 * @param colour `gray` or `rgb`.
 * @param sample The value (0 to 255) of each pixel's channel: 0 for gray;
 *   0, 1, 2 (red, green, blue) for rgb.
 * @returns The PNG file bytes.
 */
export async function encodePng(
  width: number,
  height: number,
  colour: PngColour,
  sample: (x: number, y: number, channel: number) => number,
): Promise<Uint8Array> {
  const { code, channels } = COLOUR_TYPES[colour];
  const stride = 1 + width * channels; // a filter byte (0, none) starts each row
  const raw = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        raw[y * stride + 1 + x * channels + c] = sample(x, y, c) & 0xff;
      }
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, code, 0, 0, 0], 8); // 8-bit, colour type, deflate, no filter method, no interlace
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", await zlib(raw)),
    chunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
