/**
 * Options checked at the door, by one helper every public constructor and
 * function uses before any request: unknown keys refused with a "did you
 * mean", each value checked against its rule, whole numbers turned into
 * bigints where a bigint goes (only when exact), and nothing sent when any
 * of it fails.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import { showValue } from "../errors/redact.ts";
import { didYouMean } from "./did_you_mean.ts";

/**
 * What one option accepts:
 * - `string`, `number`, `integer` (a whole number), `boolean`, `function`,
 *   `object` (a plain object), `signal` (an `AbortSignal`), `date` (a `Date`
 *   or ISO 8601 text), `strings` (a list of strings), `any`;
 * - `bigint`: a bigint, or a number or digit string that is one exactly
 *   (handed on as a bigint);
 * - a list of the values it may take;
 * - a function that checks the value itself and returns it (or its
 *   normalised form), throwing a `TidepoolError` when it is wrong.
 */
export type OptionRule =
  | "string"
  | "number"
  | "integer"
  | "boolean"
  | "function"
  | "object"
  | "signal"
  | "date"
  | "strings"
  | "bigint"
  | "any"
  | readonly (string | number | boolean)[]
  | ((value: unknown, name: string) => unknown);

/** The rules of every option a function takes, by option name. */
export type OptionRules = Readonly<Record<string, OptionRule | readonly OptionRule[]>>;

/**
 * Checks an options object against the rules of the function that takes it.
 * Undefined values pass (an option left out); every other value must meet
 * its rule, or one of its rules when several are given.
 *
 * @param where The function, as the user wrote it (`new OceanNode`, `chainOrders`).
 * @param options What the user passed.
 * @param rules The options the function takes.
 * @param required The options that must be given (not undefined).
 * @returns A copy of the options, bigints converted and values normalised.
 * @throws {TidepoolError} Naming the option, what it takes and what was given.
 *
 * @example An option misspelt
 * ```ts
 * try {
 *   checkOptions("new Example", { timeoutMS: 10 }, { timeoutMs: "number" });
 * } catch (error) {
 *   console.log((error as Error).message);
 *   // Unknown option timeoutMS of new Example; did you mean "timeoutMs"?
 * }
 * ```
 */
export function checkOptions<T extends object>(
  where: string,
  options: T | undefined,
  rules: OptionRules,
  required: readonly string[] = [],
): T {
  options ??= {} as T;
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TidepoolError(
      `Invalid options of ${where}: expected an object, got ${shown(options)}`,
      {
        hint: `Pass the options as { name: value }; ${where} takes ${known(rules)}`,
      },
    );
  }
  const checked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if (!Object.hasOwn(rules, name)) {
      throw new TidepoolError(
        `Unknown option ${name} of ${where}${didYouMean(name, Object.keys(rules))}`,
        { hint: `${where} takes ${known(rules)}` },
      );
    }
    checked[name] = value === undefined ? value : checkOption(where, name, value, rules[name]);
  }
  const missing = required.filter((name) => checked[name] === undefined);
  if (missing.length > 0) {
    throw new TidepoolError(
      `Missing ${missing.length === 1 ? "option" : "options"} ${missing.join(", ")} of ${where}`,
      { hint: `${where} needs ${required.join(", ")} (it takes ${known(rules)})` },
    );
  }
  return checked as T;
}

/** The options one call takes, and those it must be given. */
export interface CallRules {
  /** The rules of every option the call takes. */
  rules: OptionRules;
  /** The options that must be given. */
  required: readonly string[];
}

/**
 * A checker for a table of calls, each by the name its errors give it, for
 * an adapter that keeps the rules of all its calls in one place.
 *
 * @param table The calls and their rules.
 * @returns A function checking the options of one call (see {@linkcode checkOptions}).
 *
 * @example Two calls' rules
 * ```ts
 * const checkCall = callChecker({
 *   "Client.read": { rules: { limit: "integer" }, required: [] },
 *   "Client.write": { rules: { path: "string" }, required: ["path"] },
 * });
 * console.log(checkCall("Client.read", { limit: 5 }).limit); // 5
 * ```
 */
export function callChecker<Call extends string>(
  table: Readonly<Record<Call, CallRules>>,
): <T extends object>(call: Call, options: T | undefined) => T {
  return (call, options) => checkOptions(call, options, table[call].rules, table[call].required);
}

/** One option's value against its rule (or any of its rules). */
export function checkOption(
  where: string,
  name: string,
  value: unknown,
  rule: OptionRule | readonly OptionRule[],
): unknown {
  const candidates: readonly OptionRule[] = isRuleList(rule) ? rule : [rule as OptionRule];
  let failure: unknown;
  for (const candidate of candidates) {
    try {
      return meet(where, name, value, candidate);
    } catch (error) {
      failure ??= error;
      if (candidates.length === 1) throw error;
    }
  }
  throw new TidepoolError(
    `Invalid option ${name} of ${where}: expected ${candidates.map(expected).join(" or ")}, got ${
      shown(value)
    }`,
    { cause: failure },
  );
}

/** A list of rules, as opposed to one rule that is a list of values. */
function isRuleList(rule: OptionRule | readonly OptionRule[]): rule is readonly OptionRule[] {
  return Array.isArray(rule) &&
    rule.some((item) => typeof item === "function" || RULE_NAMES.has(item as string));
}

const RULE_NAMES = new Set([
  "string",
  "number",
  "integer",
  "boolean",
  "function",
  "object",
  "signal",
  "date",
  "strings",
  "bigint",
  "any",
]);

function meet(where: string, name: string, value: unknown, rule: OptionRule): unknown {
  if (typeof rule === "function") return rule(value, name);
  const wrong = () =>
    new TidepoolError(
      `Invalid option ${name} of ${where}: expected ${expected(rule)}, got ${shown(value)}`,
      { hint: hintFor(rule) },
    );
  if (Array.isArray(rule)) {
    if (rule.includes(value as string)) return value;
    throw wrong();
  }
  switch (rule) {
    case "any":
      return value;
    case "string":
      if (typeof value === "string") return value;
      throw wrong();
    case "boolean":
      if (typeof value === "boolean") return value;
      throw wrong();
    case "function":
      if (typeof value === "function") return value;
      throw wrong();
    case "number":
      if (typeof value === "number" && !Number.isNaN(value)) return value;
      throw wrong();
    case "integer":
      if (Number.isInteger(value)) return value;
      throw wrong();
    case "object":
      if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
      throw wrong();
    case "signal":
      if (value instanceof AbortSignal) return value;
      throw wrong();
    case "strings":
      if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
      throw wrong();
    case "date":
      if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
      if (typeof value === "string" && !Number.isNaN(Date.parse(value))) return value;
      throw wrong();
    case "bigint":
      return toBigInt(where, name, value);
  }
  throw wrong();
}

/** A bigint option's value: a bigint, or a number or digit string that is one exactly. */
function toBigInt(where: string, name: string, value: unknown): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) return BigInt(value.trim());
  if (typeof value === "number" && Number.isInteger(value)) {
    if (Number.isSafeInteger(value)) return BigInt(value);
    throw new TidepoolError(
      `Invalid option ${name} of ${where}: ${value} is past 2^53, where a number may have lost digits`,
      { hint: `Give it as a bigint (${BigInt(value)}n) or as text ("${BigInt(value)}")` },
    );
  }
  if (typeof value === "number") {
    throw new TidepoolError(
      `Invalid option ${name} of ${where}: ${value} is not a whole number`,
      { hint: `Give a whole number, such as ${Math.trunc(value)}n or ${Math.trunc(value)}` },
    );
  }
  throw new TidepoolError(
    `Invalid option ${name} of ${where}: expected a whole number, got ${shown(value)}`,
    { hint: "Give a bigint (123n), a whole number (123) or its digits as text" },
  );
}

function expected(rule: OptionRule): string {
  if (typeof rule === "function") return "a valid value";
  if (Array.isArray(rule)) return `one of ${rule.map((item) => JSON.stringify(item)).join(", ")}`;
  switch (rule) {
    case "integer":
      return "a whole number";
    case "object":
      return "an object";
    case "signal":
      return "an AbortSignal";
    case "date":
      return "a Date or an ISO 8601 date";
    case "strings":
      return "a list of strings";
    case "bigint":
      return "a whole number";
    case "any":
      return "any value";
    default:
      return `a ${rule}`;
  }
}

function hintFor(rule: OptionRule): string | undefined {
  if (rule === "date") return 'Write the date as ISO 8601, such as "2026-06-01"';
  if (rule === "strings") return 'Give a list, such as ["a", "b"]';
  return undefined;
}

/** The options a function takes, for a hint. */
function known(rules: OptionRules): string {
  const names = Object.keys(rules);
  return names.length ? names.join(", ") : "no options";
}

/** A value as the user would recognise it, short. */
function shown(value: unknown): string {
  // A key given where a signer or a name goes: no part of it is echoed.
  if (typeof value === "string") return showValue(value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "function") return "a function";
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value instanceof Date) return `the date ${value.toISOString()}`;
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return String(value);
}
