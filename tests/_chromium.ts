/**
 * A page opened as a reader opens it: Debian's Chromium, headless, loading
 * the file from disk, with the network cut off (no name resolves, every
 * connection goes to a proxy on a closed port). Gives the DOM after the
 * page loaded and a screenshot, and tells a blank screenshot apart.
 */

import assert from "node:assert/strict";
import { inflateSync } from "node:zlib";

const OFFLINE = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--hide-scrollbars",
  "--no-first-run",
  "--disable-extensions",
  "--disable-background-networking",
  "--host-resolver-rules=MAP * ~NOTFOUND",
  "--proxy-server=127.0.0.1:9",
];

/** Whether Debian's chromium is installed (`.ci/run` installs it). */
export function chromiumAvailable(): boolean {
  try {
    return new Deno.Command("chromium", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().code === 0;
  } catch {
    return false;
  }
}

async function chromium(args: string[]): Promise<string> {
  const profile = await Deno.makeTempDir();
  try {
    const { code, stdout, stderr } = await new Deno.Command("chromium", {
      args: [...OFFLINE, `--user-data-dir=${profile}`, ...args],
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(120_000),
    }).output();
    assert.equal(code, 0, new TextDecoder().decode(stderr).slice(-2000));
    return new TextDecoder().decode(stdout);
  } finally {
    await Deno.remove(profile, { recursive: true });
  }
}

/**
 * Opens a file in headless Chromium, offline.
 *
 * @returns The DOM after load, and a PNG screenshot of the first `height` pixels.
 */
export async function openOffline(
  path: string,
  options: { width?: number; height?: number } = {},
): Promise<{ dom: string; png: Uint8Array }> {
  const url = new URL(`file://${await Deno.realPath(path)}`).href;
  const dom = await chromium(["--dump-dom", url]);
  const shot = `${await Deno.makeTempDir()}/shot.png`;
  await chromium([
    `--window-size=${options.width ?? 1280},${options.height ?? 1600}`,
    `--screenshot=${shot}`,
    url,
  ]);
  const png = await Deno.readFile(shot);
  await Deno.remove(shot);
  return { dom, png };
}

/** The share of a PNG's pixels that are not white (8-bit RGB or RGBA, as Chromium writes). */
export function inkShare(png: Uint8Array): number {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let offset = 8;
  let width = 0, height = 0, channels = 0;
  const data: Uint8Array[] = [];
  while (offset < png.length) {
    const length = view.getUint32(offset);
    const type = new TextDecoder().decode(png.subarray(offset + 4, offset + 8));
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = new DataView(body.buffer, body.byteOffset).getUint32(0);
      height = new DataView(body.buffer, body.byteOffset).getUint32(4);
      assert.equal(body[8], 8, "8-bit channels");
      channels = body[9] === 6 ? 4 : body[9] === 2 ? 3 : 0;
      assert.ok(channels, `colour type ${body[9]}`);
    }
    if (type === "IDAT") data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  // Undo the per-row filters (PNG's None, Sub, Up, Average, Paeth) to get the pixels.
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels] : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[y * stride + x] = (line[x] + predictor) & 0xff;
    }
  }
  let inked = 0;
  for (let i = 0; i < pixels.length; i += channels) {
    if (pixels[i] < 240 || pixels[i + 1] < 240 || pixels[i + 2] < 240) inked++;
  }
  return inked / (width * height);
}
