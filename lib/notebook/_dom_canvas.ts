/**
 * A canvas for linkedom documents: linkedom's `<canvas>` has no 2D context
 * without the native `canvas` package, and Observable Plot draws the ramp
 * of a continuous colour legend (`color: { legend: true }`) on one, pixel by
 * pixel, then embeds it with `toDataURL()`. This gives linkedom's canvas
 * the part of the 2D context that does that (`fillStyle`, `fillRect`) and a
 * PNG `toDataURL`, so legends render in scripts, in the kernel and in saved
 * SVG and PNG files. Nothing native is loaded.
 *
 * @module
 */

/** The pixels of one canvas, RGBA, row by row. */
interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

const pixelsOf = new WeakMap<object, Pixels>();

/** A CSS colour as RGBA bytes: `#rgb`, `#rrggbb`, `rgb()`, `rgba()`, `hsl()`, `hsla()`; else black. */
export function parseColor(text: string): [number, number, number, number] {
  const color = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(color)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)).concat(255) as [
      number,
      number,
      number,
      number,
    ];
  }
  const call = /^(rgba?|hsla?)\(([^)]*)\)$/.exec(color);
  if (!call) return [0, 0, 0, 255];
  const parts = call[2].split(/[\s,/]+/).filter(Boolean);
  const alpha = parts[3] === undefined
    ? 255
    : Math.round(255 * (parts[3].endsWith("%") ? parseFloat(parts[3]) / 100 : Number(parts[3])));
  if (call[1].startsWith("rgb")) {
    const [r, g, b] = parts.slice(0, 3).map((p) =>
      p.endsWith("%") ? (parseFloat(p) * 255) / 100 : Number(p)
    );
    return [r, g, b, alpha].map((v) => Math.max(0, Math.min(255, Math.round(v || 0)))) as [
      number,
      number,
      number,
      number,
    ];
  }
  const h = ((parseFloat(parts[0]) % 360) + 360) % 360;
  const s = parseFloat(parts[1]) / 100;
  const l = parseFloat(parts[2]) / 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255)).concat(alpha) as [
    number,
    number,
    number,
    number,
  ];
}

/** The 2D context linkedom's canvas lacks: the part Plot's ramp legend draws with. */
class RampContext {
  fillStyle = "#000000";
  constructor(readonly canvas: { width: number; height: number }) {}

  fillRect(x: number, y: number, width: number, height: number): void {
    const pixels = pixelsFor(this.canvas);
    const [r, g, b, a] = parseColor(String(this.fillStyle));
    const x0 = Math.max(0, Math.floor(x));
    const y0 = Math.max(0, Math.floor(y));
    const x1 = Math.min(pixels.width, Math.ceil(x + width));
    const y1 = Math.min(pixels.height, Math.ceil(y + height));
    for (let row = y0; row < y1; row++) {
      for (let column = x0; column < x1; column++) {
        pixels.data.set([r, g, b, a], (row * pixels.width + column) * 4);
      }
    }
  }
}

/** The canvas's pixels, made (transparent) or remade when its size changed. */
function pixelsFor(canvas: { width: number; height: number }): Pixels {
  const width = Math.max(1, Math.floor(Number(canvas.width) || 1));
  const height = Math.max(1, Math.floor(Number(canvas.height) || 1));
  let pixels = pixelsOf.get(canvas);
  if (!pixels || pixels.width !== width || pixels.height !== height) {
    pixels = { width, height, data: new Uint8Array(width * height * 4) };
    pixelsOf.set(canvas, pixels);
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A zlib stream of stored (uncompressed) blocks: synchronous, as `toDataURL` is. */
function zlibStored(data: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(data.length / 65535));
  const out = new Uint8Array(2 + blocks * 5 + data.length + 4);
  const view = new DataView(out.buffer);
  out.set([0x78, 0x01]);
  let at = 2;
  for (let i = 0; i < blocks; i++) {
    const chunk = data.subarray(i * 65535, (i + 1) * 65535);
    out[at] = i === blocks - 1 ? 1 : 0;
    view.setUint16(at + 1, chunk.length, true);
    view.setUint16(at + 3, ~chunk.length & 0xffff, true);
    out.set(chunk, at + 5);
    at += 5 + chunk.length;
  }
  view.setUint32(at, adler32(data));
  return out;
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

/**
 * The pixels as a PNG (RGBA, 8 bits, unfiltered rows).
 *
 * @param pixels The canvas's pixels.
 * @returns The PNG file's bytes.
 */
export function encodePng(pixels: Pixels): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, pixels.width);
  view.setUint32(4, pixels.height);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = new Uint8Array(pixels.height * (1 + pixels.width * 4));
  for (let row = 0; row < pixels.height; row++) {
    const start = row * (1 + pixels.width * 4);
    rows.set(pixels.data.subarray(row * pixels.width * 4, (row + 1) * pixels.width * 4), start + 1);
  }
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", zlibStored(rows)),
    chunk("IEND", new Uint8Array()),
  ];
  const png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    png.set(part, at);
    at += part.length;
  }
  return png;
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Gives the `<canvas>` of a linkedom document (and of every other linkedom
 * document, which share its classes) the 2D drawing Plot's legends need,
 * when it has none; a canvas that already draws (the native package) is
 * left as it is.
 *
 * @param document A linkedom document.
 *
 * @example A colour ramp drawn and embedded as Plot does
 * ```ts
 * import { parseHTML } from "linkedom";
 * interface Canvas {
 *   width: number;
 *   height: number;
 *   getContext(type: "2d"): { fillStyle: string; fillRect(...box: number[]): void };
 *   toDataURL(): string;
 * }
 * const page = parseHTML("<html><body></body></html>") as unknown as {
 *   document: { createElement(name: string): unknown };
 * };
 * installCanvas(page.document);
 * const canvas = page.document.createElement("canvas") as Canvas;
 * canvas.width = 2;
 * canvas.height = 1;
 * const context = canvas.getContext("2d");
 * context.fillStyle = "rgb(255, 0, 0)";
 * context.fillRect(0, 0, 1, 1);
 * console.log(canvas.toDataURL().startsWith("data:image/png;base64,")); // true
 * ```
 */
export function installCanvas(document: unknown): void {
  const doc = document as { createElement(name: string): object };
  const canvas = doc.createElement("canvas") as { getContext?(type: string): unknown };
  if (typeof canvas.getContext !== "function" || canvas.getContext("2d") !== null) return;
  const prototype = Object.getPrototypeOf(canvas);
  const contexts = new WeakMap<object, RampContext>();
  Object.defineProperties(prototype, {
    getContext: {
      value(this: { width: number; height: number }, type: string) {
        if (type !== "2d") return null;
        let context = contexts.get(this);
        if (!context) contexts.set(this, context = new RampContext(this));
        return context;
      },
      configurable: true,
      writable: true,
    },
    toDataURL: {
      value(this: { width: number; height: number }) {
        return `data:image/png;base64,${base64(encodePng(pixelsFor(this)))}`;
      },
      configurable: true,
      writable: true,
    },
  });
}
