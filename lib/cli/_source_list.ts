/**
 * The file of `tidepool harvest --sources`: a list of OAI-PMH repositories
 * in one of three formats, chosen by the file's extension (`.json`, `.csv`)
 * or else by its content: a JSON array of objects, a CSV file with a header
 * row, or one URL a line followed by `prefix=P set=S from=D`. Every entry
 * is checked before any harvest starts, and an error names its line (or
 * its entry in a JSON array).
 *
 * @module
 */

import { type OaiSource, sourceName } from "../archive/oai/harvest_sources.ts";
import { parseUtc } from "../archive/oai/_dates.ts";
import { decodeCsv } from "../files/_csv.ts";
import { terminalText } from "../errors/terminal_text.ts";
import { UsageError } from "./exit_codes.ts";

/** The keys an entry may have, in every format. */
const KEYS = ["url", "prefix", "set", "from"] as const;

/** The harvest's own format and set, which a source without its own takes. */
export interface SourceDefaults {
  metadataPrefix?: string;
  set?: string;
}

type Fields = Partial<Record<(typeof KEYS)[number], string>>;

const HINTS = {
  text: "Give one repository a line: URL [prefix=P] [set=S] [from=DATE]",
  json: 'Give a JSON array of objects such as {"url": "https://a.example/oai", "set": "maps"}',
  csv: "Give a header row of url and any of prefix, set, from, then one repository a row",
};

const shown = (text: string) => terminalText(text.slice(0, 80));

/** One entry's fields, checked, as a source; `where` names it in errors. */
function sourceOf(fields: Fields, where: string, hint: string): OaiSource {
  const url = fields.url?.trim() ?? "";
  if (url === "") throw new UsageError(`Missing url at ${where}`, { hint });
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new UsageError(
      `Invalid source at ${where}: ${shown(url)} is not an http or https URL`,
      { hint },
    );
  }
  const source: OaiSource = { url };
  for (const key of ["prefix", "set", "from"] as const) {
    const value = fields[key]?.trim();
    if (value === undefined || value === "") continue;
    if (/\s/.test(value)) {
      throw new UsageError(`Invalid ${key} at ${where}: ${shown(value)} holds a space`, { hint });
    }
    if (key === "from" && parseUtc(value) === null) {
      throw new UsageError(`Invalid from at ${where}: ${shown(value)} is not a date`, {
        hint: "Give from as YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ",
      });
    }
    if (key === "prefix") source.metadataPrefix = value;
    else source[key] = value;
  }
  return source;
}

function unknownKey(key: string, where: string, hint: string): never {
  throw new UsageError(`Unknown key ${shown(key)} at ${where}`, {
    hint: `${hint} (the keys are ${KEYS.join(", ")})`,
  });
}

function fromText(text: string, file: string): [OaiSource, string][] {
  const sources: [OaiSource, string][] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [url, ...rest] = line.split(/\s+/);
    const where = `${file} line ${i + 1}`;
    const fields: Fields = { url };
    for (const field of rest) {
      const at = field.indexOf("=");
      const key = field.slice(0, at);
      if (at < 1) {
        throw new UsageError(`Invalid field at ${where}: ${shown(field)}`, { hint: HINTS.text });
      }
      if (key === "url" || !(KEYS as readonly string[]).includes(key)) {
        unknownKey(field, where, HINTS.text);
      }
      fields[key as keyof Fields] = field.slice(at + 1);
    }
    sources.push([sourceOf(fields, where, HINTS.text), where]);
  }
  return sources;
}

function fromJson(text: string, file: string): [OaiSource, string][] {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`Invalid JSON in --sources ${file}: ${(error as Error).message}`, {
      hint: HINTS.json,
    });
  }
  if (!Array.isArray(list)) {
    throw new UsageError(`Invalid --sources ${file}: expected a JSON array of sources`, {
      hint: HINTS.json,
    });
  }
  return list.map((entry, i) => {
    const where = `${file} entry ${i + 1}`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new UsageError(`Invalid source at ${where}: expected an object`, { hint: HINTS.json });
    }
    for (const [key, value] of Object.entries(entry)) {
      if (!(KEYS as readonly string[]).includes(key)) unknownKey(key, where, HINTS.json);
      if (typeof value !== "string") {
        throw new UsageError(`Invalid ${key} at ${where}: expected text`, { hint: HINTS.json });
      }
    }
    return [sourceOf(entry as Fields, where, HINTS.json), where];
  });
}

function fromCsv(text: string, file: string): [OaiSource, string][] {
  let table;
  try {
    table = decodeCsv(text, false);
  } catch (error) {
    throw new UsageError(`Invalid CSV in --sources ${file}: ${(error as Error).message}`, {
      hint: HINTS.csv,
    });
  }
  const columns = table.columnNames();
  for (const column of columns) {
    if (!(KEYS as readonly string[]).includes(column)) {
      unknownKey(column, `${file} line 1 (the header)`, HINTS.csv);
    }
  }
  if (!columns.includes("url")) {
    throw new UsageError(`Missing url column in the header of --sources ${file}`, {
      hint: HINTS.csv,
    });
  }
  const rows = table.objects() as Record<string, string | null | undefined>[];
  const sources: [OaiSource, string][] = [];
  for (const [i, row] of rows.entries()) {
    if (Object.values(row).every((v) => v == null || v.trim() === "")) continue;
    // One line a row: a URL, a set or a date never holds a line break.
    const where = `${file} line ${i + 2}`;
    const fields = Object.fromEntries(
      Object.entries(row).filter(([, v]) => v != null),
    ) as Fields;
    sources.push([sourceOf(fields, where, HINTS.csv), where]);
  }
  return sources;
}

/** The file's format: by extension, or else a JSON array, a CSV header with url, or lines. */
function formatOf(text: string, file: string): "json" | "csv" | "text" {
  const extension = /\.([A-Za-z]+)$/.exec(file)?.[1]?.toLowerCase();
  if (extension === "json") return "json";
  if (extension === "csv") return "csv";
  const body = text.replace(/^\uFEFF/, "");
  if (body.trimStart().startsWith("[")) return "json";
  const first = body.split(/\r?\n/).map((l) => l.trim()).find((l) =>
    l !== "" && !l.startsWith("#")
  );
  const header = first?.split(",").map((cell) => cell.trim().replace(/^"|"$/g, ""));
  return header && header.length > 1 && header.includes("url") ? "csv" : "text";
}

/**
 * Reads a list of sources, in the format of its extension or content, and
 * refuses an entry that names the same source (URL, set and format, with
 * the harvest's own set and format for an entry without them) as an
 * earlier one: the two would share one partition.
 *
 * @param text The file's text.
 * @param file The file's name, for errors and its extension.
 * @param defaults The harvest's format and set.
 * @returns The sources, in the file's order.
 *
 * @example
 * ```ts
 * const sources = parseSourceList('[{"url": "https://a.example/oai", "set": "maps"}]', "list.json");
 * console.log(sources[0].set); // "maps"
 * ```
 */
export function parseSourceList(
  text: string,
  file: string,
  defaults: SourceDefaults = {},
): OaiSource[] {
  const format = formatOf(text, file);
  const entries = format === "json"
    ? fromJson(text, file)
    : format === "csv"
    ? fromCsv(text, file)
    : fromText(text, file);
  const seen = new Map<string, string>();
  for (const [source, where] of entries) {
    const id = sourceName({
      url: source.url,
      set: source.set ?? defaults.set,
      metadataPrefix: source.metadataPrefix ?? defaults.metadataPrefix ?? "oai_dc",
    });
    const earlier = seen.get(id);
    if (earlier !== undefined) {
      throw new UsageError(
        `Duplicate source at ${where}: the same URL, set and prefix as ${
          earlier.replace(`${file} `, "")
        }`,
        { hint: "List each repository (and set) once; remove one of the two" },
      );
    }
    seen.set(id, where);
  }
  return entries.map(([source]) => source);
}
