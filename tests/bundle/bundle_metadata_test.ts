/**
 * The metadata a repository asks of a bundle: title, authors (with ORCID),
 * licence as an entity, keywords, CITATION.cff; a bundle without a title or
 * a licence refused unless a draft. The RO-Crate is checked by the
 * `ro-crate` package's validator, its context served from the package's own
 * copy (the validator fetches it, and tests use no network).
 */

import assert from "node:assert/strict";
import * as aq from "arquero";
import { saveBundle } from "../../lib/bundle/save_bundle.ts";

const RO_CRATE_CONTEXT = "https://w3id.org/ro/crate/1.2/context";

/** The ro-crate validator, loaded with a fetch that serves only the RO-Crate context. */
async function roCrateValidator() {
  const contextFile = new URL(import.meta.resolve("ro-crate")).pathname
    .replace(/index\.js$/, "lib/context.json");
  const context = JSON.parse(await Deno.readTextFile(contextFile));
  const realFetch = globalThis.fetch;
  // The validator keeps the fetch it finds when it loads: give it this one.
  globalThis.fetch = ((input: string | URL | Request) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url === RO_CRATE_CONTEXT) return Promise.resolve(Response.json(context));
    return Promise.reject(new Error(`no network in tests: ${url}`));
  }) as typeof fetch;
  try {
    // The package's types leave validate out; its CommonJS exports have it.
    const { validate } = (await import("ro-crate")) as unknown as { validate: unknown };
    return validate as (crate: unknown) => Promise<{ status: string; message: string }[]>;
  } finally {
    globalThis.fetch = realFetch;
  }
}

const table = () => aq.table({ emotion: ["喜", "怒"], n: [3, 1] });

Deno.test("a bundle for a repository: authors, licence, keywords, CITATION.cff, a valid RO-Crate", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await saveBundle(dir, {
      tables: { counts: table() },
      title: "漱石の感情表現",
      description: "Emotion expressions counted in Sōseki's novels",
      authors: [
        { name: "Ada Lovelace", orcid: "0000-0002-1825-0097", affiliation: "Analytical Society" },
        { name: "夏目 漱石", familyName: "夏目", givenName: "漱石" },
        "Anonymous Reviewer",
      ],
      keywords: ["emotion", "感情"],
      license: "https://creativecommons.org/licenses/by/4.0/",
    });
    const crate = JSON.parse(await Deno.readTextFile(`${dir}/ro-crate-metadata.json`));
    const byId = new Map(crate["@graph"].map((e: { "@id": string }) => [e["@id"], e]));
    const root = byId.get("./") as Record<string, unknown>;
    assert.equal(root.name, "漱石の感情表現");
    assert.equal(root.keywords, "emotion, 感情");
    assert.deepEqual(root.license, { "@id": "https://creativecommons.org/licenses/by/4.0/" });
    assert.deepEqual(byId.get("https://creativecommons.org/licenses/by/4.0/"), {
      "@id": "https://creativecommons.org/licenses/by/4.0/",
      "@type": "CreativeWork",
      name: "CC-BY-4.0",
      identifier: "CC-BY-4.0",
    });
    const authors = (root.author as { "@id": string }[]).map((ref) => byId.get(ref["@id"]));
    assert.deepEqual(authors[0], {
      "@id": "https://orcid.org/0000-0002-1825-0097",
      "@type": "Person",
      name: "Ada Lovelace",
      affiliation: { "@id": "#organization-Analytical_20Society" },
    });
    assert.equal((authors[1] as Record<string, unknown>).familyName, "夏目");
    assert.equal((authors[2] as Record<string, unknown>)["@type"], "Person");

    const validate = await roCrateValidator();
    const results = await validate(crate);
    const failures = results.filter((r) => r.status === "error" || r.status === "warning");
    assert.deepEqual(failures, [], JSON.stringify(failures));
    assert.ok(
      results.some((r) => /Has a context .* named "RO-Crate JSON-LD Context"/.test(r.message)),
    );

    const cff = await Deno.readTextFile(`${dir}/CITATION.cff`);
    assert.match(cff, /^cff-version: 1\.2\.0\n/);
    assert.match(cff, /\ntitle: "漱石の感情表現"\n/);
    assert.ok(
      cff.includes(
        [
          "authors:",
          '  - name: "Ada Lovelace"',
          '    orcid: "https://orcid.org/0000-0002-1825-0097"',
          '    affiliation: "Analytical Society"',
          '  - family-names: "夏目"',
          '    given-names: "漱石"',
          '  - name: "Anonymous Reviewer"',
        ].join("\n"),
      ),
      cff,
    );
    assert.match(cff, /\nlicense: "CC-BY-4.0"\n/);
    assert.ok(cff.endsWith('keywords:\n  - "emotion"\n  - "感情"\n'), cff);

    const pkg = JSON.parse(await Deno.readTextFile(`${dir}/datapackage.json`));
    assert.deepEqual(pkg.licenses, [
      { path: "https://creativecommons.org/licenses/by/4.0/", name: "CC-BY-4.0" },
    ]);
    assert.deepEqual(pkg.contributors[0], {
      title: "Ada Lovelace",
      path: "https://orcid.org/0000-0002-1825-0097",
      organization: "Analytical Society",
      roles: ["creator"],
    });
    assert.deepEqual(pkg.keywords, ["emotion", "感情"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a bundle without a title or a licence is refused unless a draft, before any file is written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      saveBundle(`${dir}/a`, { tables: { counts: table() }, license: "CC-BY-4.0" }),
      /Cannot save the bundle without a title[\s\S]*or pass draft: true/,
    );
    await assert.rejects(
      saveBundle(`${dir}/a`, { tables: { counts: table() }, title: "Counts" }),
      /Cannot save the bundle without a license/,
    );
    await assert.rejects(Deno.stat(`${dir}/a`), Deno.errors.NotFound);
    await assert.rejects(
      saveBundle(`${dir}/a`, {
        tables: { counts: table() },
        title: "Counts",
        license: "CC-BY-4.0",
        authors: [{ name: "Ada", orcid: "0000-0002-1825-0098" }],
      }),
      /Invalid ORCID iD of Ada: 0000-0002-1825-0098 has a wrong check digit/,
    );
    // A draft is saved, and its crate still validates: the licence entity says none was given.
    await saveBundle(`${dir}/draft`, { tables: { counts: table() }, draft: true });
    const crate = JSON.parse(await Deno.readTextFile(`${dir}/draft/ro-crate-metadata.json`));
    const results = await (await roCrateValidator())(crate);
    assert.deepEqual(results.filter((r) => r.status === "error"), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
