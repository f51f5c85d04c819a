import assert from "node:assert/strict";
import * as Plot from "@observablehq/plot";
import { renderPlot, savePlot } from "../../lib/plot/mod.ts";
import { renderPng } from "../../lib/plot/_render_png.ts";

/** Whether a font with Japanese glyphs is installed (fc-list is part of fontconfig). */
function japaneseFontInstalled(): boolean {
  try {
    const { stdout } = new Deno.Command("fc-list", { args: [":lang=ja"], stdout: "piped" })
      .outputSync();
    return new TextDecoder().decode(stdout).trim().length > 0;
  } catch {
    return false;
  }
}

const INSTALL = "apt-get install -y fonts-ipafont-gothic (or fonts-noto-cjk)";
const japanese = japaneseFontInstalled();
if (!japanese) {
  const message = `No font with Japanese glyphs is installed; install one with: ${INSTALL}`;
  if (Deno.env.get("CI") === "true") {
    Deno.test("a Japanese font is installed on CI", () => assert.fail(message));
  } else console.warn(`\n*** ${message} ***\n`);
}

function darkPixels(pixels: Uint8Array): number {
  let dark = 0;
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i] < 128) dark++;
  return dark;
}

Deno.test("savePlot writes a PNG at twice the SVG size, and refuses other formats", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const figure = renderPlot({
      width: 300,
      height: 200,
      marks: [Plot.barY([{ emotion: "喜", count: 3 }, { emotion: "哀", count: 1 }], {
        x: "emotion",
        y: "count",
      })],
    });
    await savePlot(`${dir}/chart.png`, figure);
    const png = await Deno.readFile(`${dir}/chart.png`);
    assert.deepEqual([...png.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], "PNG signature");
    const view = new DataView(png.buffer, png.byteOffset);
    assert.deepEqual([view.getUint32(16), view.getUint32(20)], [600, 400], "IHDR width, height");
    await assert.rejects(savePlot(`${dir}/chart.gif`, figure), /Cannot save a plot as \.gif/);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["chart.png"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "Japanese labels are drawn in the PNG, not left blank",
  ignore: !japanese,
  async fn() {
    const text = (label: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><text x="10" y="45" font-size="40" font-family="Hiragino Sans, sans-serif">${label}</text></svg>`;
    const blank = darkPixels((await renderPng(text(""))).pixels);
    const kanji = darkPixels((await renderPng(text("喜怒"))).pixels);
    assert.equal(blank, 0);
    assert.ok(kanji > 200, `only ${kanji} dark pixels for two kanji`);
  },
});
