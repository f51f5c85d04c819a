/**
 * Text that reaches a terminal, made inert: every character a terminal acts
 * on rather than shows (C0 controls but the line end and the tab, DEL, C1
 * controls, so every escape sequence: a clipboard write (OSC 52), a screen
 * clear, a cursor move) and every character that reorders or hides what is
 * shown (bidirectional overrides and isolates, line and paragraph
 * separators) becomes a visible `\u` escape. Text a program chose (a
 * re-run's output, a file name it wrote) keeps no line end either, so it
 * cannot forge a line of tidepool's own.
 *
 * @module
 */

const ACTIVE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const ACTIVE_OR_LINE_END =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Text as it may be printed on a terminal: line ends and tabs kept, every
 * other control character (and so every escape sequence) shown escaped.
 *
 * @param text Any text.
 * @returns The text, inert.
 *
 * @example A clipboard write made visible
 * ```ts
 * console.log(terminalText("ok\u001b]52;c;aGk=\u0007")); // ok\u001b]52;c;aGk=\u0007 (as text)
 * ```
 */
export function terminalText(text: string): string {
  return text.replace(ACTIVE, escape);
}

/**
 * A value a program chose (a file name, one line of its output) as it may
 * stand inside a line on a terminal: line ends escaped as well.
 *
 * @param text Any text.
 * @returns The text on one line, inert.
 *
 * @example A file name that would forge a line
 * ```ts
 * console.log(inlineText("a\nreproduced: 1 of 1")); // a\u000areproduced: 1 of 1
 * ```
 */
export function inlineText(text: string): string {
  return text.replace(ACTIVE_OR_LINE_END, escape);
}

/**
 * Another program's output quoted on a terminal: each line inert and marked
 * with `mark`, so none can pass for a line of tidepool's own.
 *
 * @param text The output.
 * @param mark What starts each line, such as `re-run| `.
 * @returns The marked lines.
 *
 * @example
 * ```ts
 * console.log(quotedOutput("reproduced: 1 of 1", "re-run| ")); // re-run| reproduced: 1 of 1
 * ```
 */
export function quotedOutput(text: string, mark: string): string {
  return text.split(/\r\n|\n|\r/).map((line) => `${mark}${inlineText(line)}`).join("\n");
}
