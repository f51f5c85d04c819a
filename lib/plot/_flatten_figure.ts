/**
 * Turns what Plot returns into one standalone SVG: Plot answers a `<figure>`
 * (HTML) when a chart has a title, subtitle, caption or legend; an `.svg`
 * file and an `image/svg+xml` display need a single SVG, so the title, the
 * swatches and the caption are redrawn as SVG text and rects, and a colour
 * ramp's own SVG is placed, above or below the chart's own SVG.
 *
 * @module
 */

/** The font stack of every chart: Japanese fonts first, so labels render on most systems. */
export const FONT_FAMILY =
  '"Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans CJK JP", "Noto Sans JP", "Yu Gothic", Meiryo, system-ui, sans-serif';

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";

// Minimal shapes of the DOM objects linkedom hands back.
interface Node {
  tagName?: string;
  textContent: string | null;
  outerHTML: string;
  childNodes: ArrayLike<Node>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  querySelector(selector: string): Node | null;
  querySelectorAll(selector: string): ArrayLike<Node>;
}

function escapeXml(text: string): string {
  return text.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!,
  );
}

/** Rough width of a label: CJK characters are about one em, others half. */
function textWidth(text: string, size: number): number {
  let width = 0;
  for (const char of text) width += char.charCodeAt(0) > 0x2e7f ? size : size * 0.6;
  return width;
}

/**
 * Rewrites the start tag of an `<svg>`: namespaces declared first (when
 * standalone) and the Japanese font stack in place of Plot's.
 */
function startTag(markup: string, standalone: boolean): string {
  return markup.replace(/^<svg\b([^>]*)>/, (_tag, attributes: string) => {
    const kept = attributes
      .replace(/\s(xmlns(:xlink)?|font-family)="[^"]*"/g, "");
    const namespaces = standalone ? ` xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}"` : "";
    return `<svg${namespaces}${kept} font-family="${escapeXml(FONT_FAMILY)}">`;
  });
}

/** Standalone SVG markup of a Plot result (an `<svg>` or a `<figure>`). */
export function flattenFigure(result: Node): string {
  if ((result.tagName ?? "").toLowerCase() === "svg") {
    return startTag(result.outerHTML, true);
  }
  // A continuous colour legend is an SVG of its own (class `plot-…-ramp`) before the chart.
  const isRamp = (svg: Node) => /-ramp\b/.test(svg.getAttribute("class") ?? "");
  const inSwatches = new Set(Array.from(result.querySelectorAll("[class*=swatch] svg")));
  const svgs = Array.from(result.querySelectorAll("svg")).filter((svg) => !inSwatches.has(svg));
  const ramps = svgs.filter(isRamp);
  const main = svgs.find((svg) =>
    !isRamp(svg) && !String(svg.getAttribute("class") ?? "").includes("swatch") &&
    Number(svg.getAttribute("width") ?? 0) > 40
  );
  if (!main) throw new Error("Plot returned a figure without a chart");
  const width = Number(main.getAttribute("width") ?? 640);
  const height = Number(main.getAttribute("height") ?? 400);
  const parts: string[] = [];
  let y = 0;
  const title = result.querySelector("h2")?.textContent ?? "";
  if (title) {
    parts.push(
      `<text x="0" y="${y + 18}" font-size="16" font-weight="bold">${escapeXml(title)}</text>`,
    );
    y += 26;
  }
  const subtitle = result.querySelector("h3")?.textContent ?? "";
  if (subtitle) {
    parts.push(
      `<text x="0" y="${y + 14}" font-size="12" fill="#555">${escapeXml(subtitle)}</text>`,
    );
    y += 20;
  }
  const swatches = Array.from(result.querySelectorAll("span[class*=swatch]"))
    .filter((span) => span.querySelector("svg"));
  if (swatches.length) {
    let x = 0;
    y += 4;
    for (const swatch of swatches) {
      const shape = swatch.querySelector("svg")!;
      const fill = shape.getAttribute("fill") ??
        shape.querySelector("[fill]")?.getAttribute("fill") ?? "#888";
      const label = (swatch.textContent ?? "").trim();
      const advance = 20 + textWidth(label, 10) + 12;
      if (x > 0 && x + advance > width) {
        x = 0;
        y += 20;
      }
      parts.push(
        `<g class="legend-swatch"><rect x="${x}" y="${y}" width="15" height="15" fill="${
          escapeXml(fill)
        }"/>` +
          `<text x="${x + 20}" y="${y + 12}" font-size="10">${escapeXml(label)}</text></g>`,
      );
      x += advance;
    }
    y += 24;
  }
  for (const ramp of ramps) {
    ramp.setAttribute("x", "0");
    ramp.setAttribute("y", String(y));
    parts.push(startTag(ramp.outerHTML, false));
    y += Number(ramp.getAttribute("height") ?? 50);
  }
  const chartTop = y;
  main.setAttribute("x", "0");
  main.setAttribute("y", String(chartTop));
  parts.push(startTag(main.outerHTML, false));
  y += height;
  const caption = result.querySelector("figcaption")?.textContent ?? "";
  if (caption) {
    parts.push(`<text x="0" y="${y + 16}" font-size="11" fill="#555">${escapeXml(caption)}</text>`);
    y += 24;
  }
  return `<svg xmlns="${SVG_NS}" xmlns:xlink="${XLINK_NS}" width="${width}" height="${y}" ` +
    `viewBox="0 0 ${width} ${y}" font-family="${escapeXml(FONT_FAMILY)}" font-size="10">` +
    `<rect width="100%" height="100%" fill="white"/>${parts.join("")}</svg>`;
}
