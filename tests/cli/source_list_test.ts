/**
 * The file of `tidepool harvest --sources` in its three formats (lines, a
 * JSON array, a CSV file with a header row), chosen by extension or by
 * content; bad entries refused before any harvest, the error naming the
 * line or entry: an unknown key, a bad URL, a bad date, a duplicate source.
 */

import assert from "node:assert/strict";
import { parseSourceList } from "../../lib/cli/_source_list.ts";
import { UsageError } from "../../lib/cli/exit_codes.ts";
import { runTidepool } from "./_run_cli.ts";

const WANT = [
  { url: "https://a.example/oai" },
  { url: "https://b.example/oai", set: "maps", metadataPrefix: "jps", from: "2026-01-01" },
];

function refused(text: string, file: string, message: RegExp, defaults = {}) {
  assert.throws(() => parseSourceList(text, file, defaults), (e: unknown) => {
    assert.ok(e instanceof UsageError, String(e));
    assert.match(e.message, message);
    assert.ok(e.hint, "every refusal says what to do");
    return true;
  }, `${file}: ${JSON.stringify(text)}`);
}

Deno.test("a sources file of lines: a URL a line with prefix, set and from", () => {
  const text =
    "# comment\nhttps://a.example/oai\n\n  https://b.example/oai set=maps prefix=jps from=2026-01-01 \n";
  assert.deepEqual(parseSourceList(text, "list.txt"), WANT);
  assert.deepEqual(parseSourceList(text, "list"), WANT, "no extension: read by content");
});

Deno.test("a sources file in JSON: an array of objects, by extension or content", () => {
  const text = JSON.stringify(
    [
      { url: "https://a.example/oai" },
      { url: "https://b.example/oai", set: "maps", prefix: "jps", from: "2026-01-01" },
    ],
    null,
    2,
  );
  assert.deepEqual(parseSourceList(text, "list.json"), WANT);
  assert.deepEqual(parseSourceList(text, "list.txt"), WANT, "a .txt holding an array");
  assert.deepEqual(parseSourceList("[]", "none.json"), []);
});

Deno.test("a sources file in CSV: a header row, columns in any order, empty cells absent", () => {
  const text =
    'set,url,prefix,from\r\n,https://a.example/oai,,\r\n"maps",https://b.example/oai,jps,2026-01-01\r\n\r\n';
  assert.deepEqual(parseSourceList(text, "list.csv"), WANT);
  assert.deepEqual(parseSourceList(text, "sources"), WANT, "no extension: read by content");
  assert.deepEqual(
    parseSourceList("url\nhttps://a.example/oai\n", "one.csv"),
    [{ url: "https://a.example/oai" }],
    "only the url column",
  );
});

Deno.test("bad lines refused, each naming its line", () => {
  for (
    const [text, message] of [
      [
        "ftp://a.example/oai",
        /list.txt line 1: ftp:\/\/a.example\/oai is not an http or https URL/,
      ],
      ["a.example/oai", /line 1/],
      [
        "https://a.example/oai\nhttps://b.example/oai colour=red",
        /Unknown key colour=red at list.txt line 2/,
      ],
      ["https://a.example/oai url=https://c.example/oai", /Unknown key url=.* line 1/],
      ["https://a.example/oai =x", /Invalid field at list.txt line 1/],
      ["https://a.example/oai from=yesterday", /Invalid from at list.txt line 1: yesterday/],
      [
        "# a\nhttps://a.example/oai\nhttps://a.example/oai prefix=oai_dc",
        /Duplicate source at list.txt line 3: .* as line 2/,
      ],
    ] as const
  ) refused(text, "list.txt", message);
});

Deno.test("bad JSON entries refused, each naming its entry", () => {
  const a = { url: "https://a.example/oai" };
  for (
    const [list, message] of [
      [
        [a, { url: "https://b.example/oai", colour: "red" }],
        /Unknown key colour at list.json entry 2/,
      ],
      [[a, { url: "mailto:x@y.example" }], /list.json entry 2: mailto:x@y.example is not an http/],
      [[{ set: "maps" }], /Missing url at list.json entry 1/],
      [[a, "https://b.example/oai"], /list.json entry 2: expected an object/],
      [
        [{ url: "https://b.example/oai", set: 7 }],
        /Invalid set at list.json entry 1: expected text/,
      ],
      [
        [a, { ...a, set: "maps" }, { ...a, set: "maps" }],
        /Duplicate source at list.json entry 3: .* as entry 2/,
      ],
      [{ sources: [a] }, /expected a JSON array/],
    ] as const
  ) refused(JSON.stringify(list), "list.json", message);
  refused(
    '[{"url": "https://a.example/oai"},]',
    "list.json",
    /Invalid JSON in --sources list.json/,
  );
});

Deno.test("bad CSV rows refused, each naming its line", () => {
  for (
    const [text, message] of [
      [
        "url,colour\nhttps://a.example/oai,red",
        /Unknown key colour at list.csv line 1 \(the header\)/,
      ],
      ["set,prefix\nmaps,oai_dc", /Missing url column/],
      ["url,set\nhttps://a.example/oai,\nnot a url,maps", /Invalid source at list.csv line 3/],
      ["url,set\nhttps://a.example/oai,maps\n,maps", /Missing url at list.csv line 3/],
      ["url,from\nhttps://a.example/oai,31/12/2026", /Invalid from at list.csv line 2/],
      [
        "url,set\nhttps://a.example/oai,\nhttps://a.example/oai,maps",
        /Duplicate source at list.csv line 3: .* as line 2/,
      ],
    ] as const
  ) refused(text, "list.csv", message, { set: "maps" });
});

Deno.test("tidepool harvest --sources refuses a bad file before any request", async () => {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-source-list-" });
  try {
    await Deno.writeTextFile(
      `${dir}/list.json`,
      JSON.stringify([{ url: "http://127.0.0.1:9/oai" }, {
        url: "http://127.0.0.1:9/oai",
        prefix: "x",
        extra: "1",
      }]),
    );
    const run = await runTidepool(["harvest", "--sources", "list.json", "--to", "out/"], {
      cwd: dir,
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /Unknown key extra at list.json entry 2/);
    assert.equal(run.stdout, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
