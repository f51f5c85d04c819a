/**
 * Charts of expression search tables as Observable Plot figures rendered to
 * standalone SVG: shown as SVG in the Deno notebook, saved as `.svg` files
 * by scripts. Japanese labels use the font stack in `FONT_FAMILY` (Hiragino,
 * Noto Sans CJK JP, Yu Gothic, Meiryo); install one of them to see them.
 *
 * @module
 */

export * from "./plot_figure.ts";
export * from "./render_plot.ts";
export * from "./save_plot.ts";
export { document, type PlotDocument } from "./plot_document.ts";
export { type PlotElement, plotFigure } from "./plot_element.ts";
export * from "./emotion_distribution_chart.ts";
export * from "./emotion_body_part_heatmap.ts";
export * from "./valence_by_book_chart.ts";
export * from "./expressions_per_year_chart.ts";
export * from "./keyword_in_context_chart.ts";
export { FONT_FAMILY } from "./_flatten_figure.ts";
