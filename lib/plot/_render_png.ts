/**
 * SVG to PNG with resvg, loaded on first use (it is a native module, and
 * only PNG output needs it).
 *
 * @module
 */

/** Families tried in order for text whose own family is missing (Japanese first). */
export const PNG_FALLBACK_FONTS: readonly string[] = [
  "Noto Sans CJK JP",
  "IPAGothic",
  "IPAexGothic",
  "Hiragino Sans",
  "Yu Gothic",
  "DejaVu Sans",
];

/** A rendered image: the PNG file bytes and the raw RGBA pixels. */
export interface RenderedPng {
  png: Uint8Array;
  pixels: Uint8Array;
  width: number;
  height: number;
}

/** The PNG part of `SavePlotOptions`: pixels per SVG unit and extra font files. */
export interface PngOptions {
  scale?: number;
  fontFiles?: string[];
}

/** Renders SVG markup to PNG, with the system's fonts and any font files given. */
export async function renderPng(svg: string, options: PngOptions = {}): Promise<RenderedPng> {
  const { Resvg } = await import("@resvg/resvg-js");
  const image = new Resvg(svg, {
    fitTo: { mode: "zoom", value: options.scale ?? 2 },
    background: "white",
    font: {
      loadSystemFonts: true,
      fontFiles: options.fontFiles ?? [],
      defaultFontFamily: PNG_FALLBACK_FONTS[0],
      sansSerifFamily: PNG_FALLBACK_FONTS[0],
    },
  }).render();
  return { png: image.asPng(), pixels: image.pixels, width: image.width, height: image.height };
}
