import assert from "node:assert/strict";
import { TidepoolError, UnknownValueError } from "../../lib/errors/errors.ts";
import type { SearchParameters } from "../../lib/expressions/mod.ts";
import { withSandbox } from "./_helpers.ts";

// deno check rejects values outside the closed vocabularies (these lines fail
// `deno check` if the types ever accept them again).
// @ts-expect-error: "joy" is not an emotion category
const englishEmotion: SearchParameters = { emotion: ["joy"] };
// @ts-expect-error: 嬉 is not one of the ten categories
const wrongKanji: SearchParameters = { emotion: "嬉" };
// @ts-expect-error: body parts are named in Japanese
const englishBodyPart: SearchParameters = { bodyPart: "eye" };
// @ts-expect-error: "date" is not a sort key
const badSort: SearchParameters = { sort: "date" };
// @ts-expect-error: "other" is not a gender the filter knows
const badGender: SearchParameters = { gender: "other" };

Deno.test("unknown emotions and body parts are refused before the search is sent, listing the valid values", async () => {
  await withSandbox(async ({ client, urls }) => {
    for (const parameters of [englishEmotion, wrongKanji, englishBodyPart]) {
      await assert.rejects(client.search(parameters), (error: Error) => {
        assert.ok(error instanceof UnknownValueError && error instanceof TidepoolError);
        assert.match(
          error.message,
          /^Cannot search expressions: (emotion|bodyPart) "(joy|嬉|eye)"/,
        );
        // The valid values, or the one meant ("joy" is 喜).
        assert.match(
          error.message,
          /: ([喜怒哀怖恥好厭昂安驚], ){9}[喜怒哀怖恥好厭昂安驚]\n|目|did you mean 喜 \(joy\)\?/,
        );
        assert.match(error.message, /What to do: Use one of /);
        return true;
      });
      await assert.rejects(client.searchAll(parameters), /is not one of the service's/);
    }
    // The service's own list was read once; no search was sent.
    assert.deepEqual(urls.map((url) => url.pathname), ["/api/stats"]);
    const ok = await client.search({ emotion: "喜", bodyPart: ["目"], limit: 1 });
    assert.equal(ok.hits.numRows(), 1);
  });
});

Deno.test("sort keys and genders outside the lists are refused locally, with the valid values", async () => {
  await withSandbox(async ({ sandbox, client }) => {
    await assert.rejects(client.search(badSort), /sort "date" is not one of _score, emotion/);
    await assert.rejects(
      client.search({ sort: "constructor" as "emotion" }),
      /sort "constructor" is not one of/,
    );
    await assert.rejects(client.search(badGender), /male, female, unknown, mixed/);
    assert.equal(sandbox.requestCount, 0);
  });
});

Deno.test("a value the service lists in stats() is accepted even when tidepool does not know it", async () => {
  const withExtra: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!new URL(String(input)).pathname.endsWith("/api/stats")) return response;
    const body = await response.json();
    body.emotions["嬉"] = 1;
    return Response.json(body);
  };
  await withSandbox(async ({ client }) => {
    const page = await client.search({ emotion: "嬉" as "喜", limit: 5 });
    assert.equal(page.total, 0);
  }, { client: { fetch: withExtra } });
});

Deno.test("an emotion named in English or as a Japanese word points to its category", async () => {
  await withSandbox(async ({ client, urls }) => {
    const meant: [string, string][] = [
      ["joy", "喜 (joy)"],
      ["Happiness", "喜 (joy)"],
      ["喜び", "喜 (joy)"],
      ["怒り", "怒 (anger)"],
      ["sadness", "哀 (sorrow)"],
      ["恐怖", "怖 (fear)"],
    ];
    for (const [given, category] of meant) {
      // deno-lint-ignore no-explicit-any
      const error = await client.search({ emotion: given as any }).catch((e) => e);
      assert.ok(error instanceof UnknownValueError, given);
      assert.ok(error.message.includes(`did you mean ${category}?`), `${given}: ${error.message}`);
      // Every category with its gloss, in the order the service lists them.
      for (const gloss of ["喜 (joy)", "驚 (surprise)", "厭 (dislike)"]) {
        assert.ok(error.hint?.includes(gloss), `${given}: ${error.hint}`);
      }
    }
    // No category is guessed for what names none, or more than one.
    // deno-lint-ignore no-explicit-any
    for (const given of ["mood", "喜怒"] as any[]) {
      const error = await client.search({ emotion: given }).catch((e) => e);
      assert.doesNotMatch(error.message, /did you mean/);
      assert.match(error.message, /: ([喜怒哀怖恥好厭昂安驚], ){9}/);
    }
    assert.deepEqual(urls.map((url) => url.pathname), ["/api/stats"]);
  });
});
