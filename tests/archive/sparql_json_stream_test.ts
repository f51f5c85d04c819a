/**
 * The SPARQL JSON reader takes the document whole or in chunks, split
 * anywhere (inside a string, an escape, a key, between two bindings): the
 * columns are the same. Documents: W3C's JSON results tests and answers
 * recorded from Wikidata (wikibase-sdk, pywikibot).
 */

import assert from "node:assert/strict";
import { parseJsonResults } from "../../lib/sparql/_sparql_json.ts";
import { ProtocolError } from "../../lib/errors/errors.ts";

const DOCUMENTS = [
  "../fixtures/sparql-results/jsonres01.srj",
  "../fixtures/sparql-results/jsonres02.srj",
  "../fixtures/sparql-results/jsonres03.srj",
  "../fixtures/sparql-results/jsonres04.srj",
  "../fixtures/sparql-results/agg-empty-group-count-1.srj",
  "../fixtures/external/sparql/pywikibot/ask_true.srj",
  "../fixtures/external/sparql/pywikibot/select_cats.srj",
  "../fixtures/external/sparql/wikibase-sdk/multi_vars_sparql_results.srj",
  "../fixtures/external/sparql/wikibase-sdk/sparql_results_with_optional_values.srj",
].map((path) => [path, Deno.readTextFileSync(new URL(path, import.meta.url))] as const);

async function* pieces(text: string, cuts: number[]): AsyncGenerator<string> {
  let at = 0;
  for (const cut of cuts) {
    yield text.slice(at, cut);
    at = cut;
  }
  yield text.slice(at);
}

/** A deterministic split into pieces of 1 to 9 characters. */
function smallCuts(length: number, seed: number): number[] {
  const cuts: number[] = [];
  for (let at = 0, s = seed; at < length;) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    at += 1 + (s % 9);
    if (at < length) cuts.push(at);
  }
  return cuts;
}

Deno.test("JSON results read in two pieces, cut at every place, equal the whole text's", async () => {
  for (const [path, text] of DOCUMENTS) {
    const whole = await parseJsonResults(text);
    const step = Math.max(1, Math.floor(text.length / 400));
    for (let cut = 0; cut <= text.length; cut += step) {
      assert.deepEqual(await parseJsonResults(pieces(text, [cut])), whole, `${path} cut at ${cut}`);
    }
    for (let seed = 1; seed <= 5; seed++) {
      const split = pieces(text, smallCuts(text.length, seed));
      assert.deepEqual(
        await parseJsonResults(split),
        whole,
        `${path} in small pieces, seed ${seed}`,
      );
    }
  }
});

Deno.test("JSON results: a head after the results, escapes, braces inside strings, quoted triples", async () => {
  const text = JSON.stringify({
    results: {
      bindings: [
        { s: { type: "literal", value: 'a "quoted" {brace} [bracket] \\ back', "xml:lang": "en" } },
        {
          s: {
            type: "triple",
            value: {
              subject: { type: "uri", value: "http://ex/a" },
              predicate: { type: "uri", value: "http://ex/p" },
              object: { type: "literal", value: "}" },
            },
          },
        },
        {},
      ],
    },
    head: { vars: ["s", "unbound"] },
  });
  for (const cut of [1, 30, 60, 90, 120, text.length - 5]) {
    const result = await parseJsonResults(pieces(text, [cut]));
    assert.ok(typeof result !== "boolean");
    assert.equal(result.length, 3);
    assert.deepEqual(result.vars, ["s", "unbound"]);
    assert.equal(result.columns[0].values[0], 'a "quoted" {brace} [bracket] \\ back');
    assert.equal(result.columns[0].langs[0], "en");
    assert.match(result.columns[0].values[1]!, /"object":\{"type":"literal","value":"\}"\}/);
    assert.equal(result.columns[1].kinds[0], 0);
  }
});

Deno.test("JSON results with a key written with escapes are read all the same", async () => {
  const text =
    '{"head":{"vars":["x"]},"res\\u0075lts":{"bindings":[{"x":{"type":"uri","value":"http://ex/1"}}]}}';
  const result = await parseJsonResults(pieces(text, [40]));
  assert.ok(typeof result !== "boolean");
  assert.equal(result.columns[0].values[0], "http://ex/1");
});

Deno.test("JSON results that are cut, unbalanced or hold non-objects are refused, never short", async () => {
  const good =
    '{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"uri","value":"a"}},{"x":{"type":"uri","value":"b"}}]}}';
  const bad = [
    good.slice(0, 70), // cut inside the bindings
    good.slice(0, -1), // the last brace missing
    good.replace("}]}}", "},]}}"), // a trailing comma
    good.replace("},{", "}{"), // a missing comma
    good.replace("[{", "[null,{"), // a binding that is not an object
    good.replace("]}}", "}}}"), // brackets that do not match
    "<html><body>Service unavailable</body></html>",
  ];
  for (const text of bad) {
    for (const cut of [10, 50, 80]) {
      const error = await parseJsonResults(pieces(text, [Math.min(cut, text.length)])).then(
        () => undefined,
        (e) => e,
      );
      assert.ok(error instanceof ProtocolError, `refused: ${text} (cut ${cut})`);
      assert.match(error.message, /Cannot read the SPARQL JSON results/);
    }
  }
});

/** A seeded string of the characters a scanner can trip on: quotes, runs of backslashes, brackets. */
function trickyString(next: () => number): string {
  const alphabet = ['"', "\\", "\\\\", '\\"', "{", "}", "[", "]", ":", ",", "a", "語", "\n", "😀"];
  let text = "";
  const length = Math.floor(next() * 12);
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
  return text;
}

Deno.test("JSON results: strings full of quotes and backslash runs, cut anywhere, keep every value", async () => {
  for (let seed = 1; seed <= 40; seed++) {
    let state = seed;
    const next = () => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state / 0x80000000;
    };
    const values = Array.from({ length: 30 }, () => trickyString(next));
    const text = JSON.stringify({
      head: { vars: ["s"] },
      results: { bindings: values.map((value) => ({ s: { type: "literal", value } })) },
    });
    for (const cuts of [smallCuts(text.length, seed), [Math.floor(next() * text.length)]]) {
      const result = await parseJsonResults(pieces(text, cuts));
      assert.ok(typeof result !== "boolean");
      assert.deepEqual(result.columns[0].values, values, `seed ${seed}`);
    }
  }
});
