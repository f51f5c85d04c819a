/**
 * SPARQL result documents of three shapes seen from real endpoints, at any size, in
 * JSON and XML, for the SPARQL benches:
 *
 * - `six`: an IRI, a language-tagged literal, an xsd:integer, an xsd:dateTime, an
 *   xsd:decimal and an OPTIONAL variable unbound in one row in five;
 * - `wide`: the 15 variables of a Wikidata query with OPTIONALs (the variables and
 *   the share of unbound values follow `wikibase-sdk`'s recorded WDQS answer), most
 *   of them unbound in most rows;
 * - `strings`: long literals (abstracts in several languages), as description
 *   queries against DBpedia or HAL return;
 * - `mixed`: what a catalogue's SPARQL endpoint (Virtuoso, as the EEA's recorded
 *   answers) gives for an open query: blank nodes, booleans, dates, doubles,
 *   gYears, a datatype of its own, and Japanese literals (a text that is not
 *   ASCII decodes and parses differently), with OPTIONALs unbound.
 *
 * Rows are made from a fixed seed, so every run reads the same bytes.
 */

const XSD = "http://www.w3.org/2001/XMLSchema#";

/** The shapes. */
export type Shape = "six" | "wide" | "strings" | "mixed";

interface Term {
  type: "uri" | "literal" | "bnode";
  value: string;
  datatype?: string;
  "xml:lang"?: string;
}

type Row = Record<string, Term>;

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  "letter",
  "harbour",
  "survey",
  "archive",
  "map",
  "river",
  "temple",
  "railway",
  "silk",
  "school",
  "census",
  "festival",
  "bridge",
  "castle",
  "market",
];

function words(next: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(WORDS[Math.floor(next() * WORDS.length)]);
  return out.join(" ");
}

function sixRow(i: number, next: () => number): Row {
  const row: Row = {
    item: { type: "uri", value: `http://example.org/resource/${i}` },
    label: { type: "literal", value: `${words(next, 3)} ${i}`, "xml:lang": "en" },
    count: {
      type: "literal",
      value: String(Math.floor(next() * 100000)),
      datatype: `${XSD}integer`,
    },
    modified: {
      type: "literal",
      value: new Date(Date.UTC(2000, 0, 1) + Math.floor(next() * 8e11)).toISOString()
        .replace(".000Z", "Z"),
      datatype: `${XSD}dateTime`,
    },
    price: { type: "literal", value: (next() * 1000).toFixed(2), datatype: `${XSD}decimal` },
  };
  if (i % 5 !== 0) row.note = { type: "literal", value: words(next, 2) };
  return row;
}

const WIDE = [
  "item",
  "itemLabel",
  "itemDescription",
  "instance",
  "instanceLabel",
  "country",
  "countryLabel",
  "inception",
  "coordinates",
  "image",
  "population",
  "website",
  "officialName",
  "sitelinks",
  "article",
];

function wideRow(i: number, next: () => number): Row {
  const q = `http://www.wikidata.org/entity/Q${1000 + i}`;
  const row: Row = {
    item: { type: "uri", value: q },
    itemLabel: { type: "literal", value: `${words(next, 2)} ${i}`, "xml:lang": "en" },
  };
  const maybe = (share: number, name: string, term: () => Term) => {
    if (next() < share) row[name] = term();
  };
  maybe(
    0.6,
    "itemDescription",
    () => ({ type: "literal", value: words(next, 6), "xml:lang": "en" }),
  );
  maybe(
    0.9,
    "instance",
    () => ({ type: "uri", value: `http://www.wikidata.org/entity/Q${Math.floor(next() * 500)}` }),
  );
  maybe(0.9, "instanceLabel", () => ({ type: "literal", value: words(next, 1), "xml:lang": "en" }));
  maybe(
    0.5,
    "country",
    () => ({ type: "uri", value: `http://www.wikidata.org/entity/Q${Math.floor(next() * 200)}` }),
  );
  maybe(0.5, "countryLabel", () => ({ type: "literal", value: words(next, 1), "xml:lang": "en" }));
  maybe(0.3, "inception", () => ({
    type: "literal",
    value: `${1000 + Math.floor(next() * 1000)}-01-01T00:00:00Z`,
    datatype: `${XSD}dateTime`,
  }));
  maybe(0.25, "coordinates", () => ({
    type: "literal",
    value: `Point(${(next() * 360 - 180).toFixed(4)} ${(next() * 180 - 90).toFixed(4)})`,
    datatype: "http://www.opengis.net/ont/geosparql#wktLiteral",
  }));
  maybe(
    0.2,
    "image",
    () => ({ type: "uri", value: `http://commons.wikimedia.org/wiki/Special:FilePath/${i}.jpg` }),
  );
  maybe(
    0.15,
    "population",
    () => ({ type: "literal", value: String(Math.floor(next() * 1e7)), datatype: `${XSD}decimal` }),
  );
  maybe(0.1, "website", () => ({ type: "uri", value: `https://example.org/${i}` }));
  maybe(0.1, "officialName", () => ({ type: "literal", value: words(next, 3), "xml:lang": "de" }));
  row.sitelinks = {
    type: "literal",
    value: String(Math.floor(next() * 300)),
    datatype: `${XSD}integer`,
  };
  maybe(
    0.4,
    "article",
    () => ({ type: "uri", value: `https://en.wikipedia.org/wiki/Article_${i}` }),
  );
  return row;
}

const LANGS = ["en", "fr", "de", "ja"];

function stringsRow(i: number, next: () => number): Row {
  return {
    work: { type: "uri", value: `http://example.org/work/${i}` },
    title: { type: "literal", value: `${words(next, 8)} ${i}` },
    abstract: {
      type: "literal",
      value: `${words(next, 120)}. "Quoted" & <escaped> — ${i}`,
      "xml:lang": LANGS[i % LANGS.length],
    },
    author: { type: "literal", value: `${words(next, 2)}, ${words(next, 1)}` },
  };
}

const NAMES_JA = ["夏目漱石", "芥川龍之介", "樋口一葉", "森鷗外", "宮沢賢治", "太宰治"];

function mixedRow(i: number, next: () => number): Row {
  const row: Row = {
    s: next() < 0.3
      ? { type: "bnode", value: `b${i}` }
      : { type: "uri", value: `http://data.example.jp/resource/${i}` },
    flag: { type: "literal", value: next() < 0.5 ? "true" : "false", datatype: `${XSD}boolean` },
    day: {
      type: "literal",
      value: new Date(Date.UTC(1868, 0, 1) + Math.floor(next() * 5e12)).toISOString().slice(0, 10),
      datatype: `${XSD}date`,
    },
    ratio: { type: "literal", value: (next() * 10).toExponential(6), datatype: `${XSD}double` },
    name: {
      type: "literal",
      value: `${NAMES_JA[Math.floor(next() * NAMES_JA.length)]}の書簡 第${i}号`,
      "xml:lang": "ja",
    },
  };
  if (next() < 0.7) {
    row.year = {
      type: "literal",
      value: String(1868 + Math.floor(next() * 150)),
      datatype: `${XSD}gYear`,
    };
  }
  if (next() < 0.4) {
    row.unit = {
      type: "literal",
      value: (next() * 1000).toFixed(1),
      datatype: "http://aims.fao.org/aos/geopolitical.owl#MillionUSD",
    };
  }
  return row;
}

const MAKERS: Record<Shape, { vars: string[]; row: (i: number, next: () => number) => Row }> = {
  six: { vars: ["item", "label", "count", "modified", "price", "note"], row: sixRow },
  wide: { vars: WIDE, row: wideRow },
  strings: { vars: ["work", "title", "abstract", "author"], row: stringsRow },
  mixed: { vars: ["s", "flag", "day", "ratio", "year", "unit", "name"], row: mixedRow },
};

/** The variables and rows of a shape. */
export function shapeRows(shape: Shape, rows: number): { vars: string[]; rows: Row[] } {
  const next = random(20261123);
  const maker = MAKERS[shape];
  const out: Row[] = new Array(rows);
  for (let i = 0; i < rows; i++) out[i] = maker.row(i, next);
  return { vars: maker.vars, rows: out };
}

/** A SPARQL 1.1 Query Results JSON document. */
export function jsonDocument(shape: Shape, rows: number): string {
  const { vars, rows: bindings } = shapeRows(shape, rows);
  return JSON.stringify({ head: { vars }, results: { bindings } });
}

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A SPARQL Query Results XML document. */
export function xmlDocument(shape: Shape, rows: number): string {
  const { vars, rows: list } = shapeRows(shape, rows);
  const parts = [
    '<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n<head>',
    ...vars.map((name) => `<variable name="${name}"/>`),
    "</head>\n<results>",
  ];
  for (const row of list) {
    parts.push("<result>");
    for (const name of vars) {
      const term = row[name];
      if (!term) continue;
      const value = escapeXml(term.value);
      if (term.type === "uri") parts.push(`<binding name="${name}"><uri>${value}</uri></binding>`);
      else if (term.type === "bnode") {
        parts.push(`<binding name="${name}"><bnode>${value}</bnode></binding>`);
      } else {
        const lang = term["xml:lang"] ? ` xml:lang="${term["xml:lang"]}"` : "";
        const datatype = term.datatype ? ` datatype="${term.datatype}"` : "";
        parts.push(
          `<binding name="${name}"><literal${lang}${datatype}>${value}</literal></binding>`,
        );
      }
    }
    parts.push("</result>");
  }
  parts.push("</results>\n</sparql>\n");
  return parts.join("\n");
}
