/**
 * Every date parameter of the archive is a Date or ISO 8601: a US-order or
 * impossible date is refused before anything is sent.
 */

import assert from "node:assert/strict";
import { archiveOn, withSandbox } from "./_sandbox.ts";

Deno.test("harvest and changeList refuse 01/02/2025 and 2025-13-45 before sending anything", async () => {
  await withSandbox(async (sandbox) => {
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const { archive } = archiveOn(sandbox, { fetch: counting });
    for (const from of ["01/02/2025", "2025-13-45"]) {
      await assert.rejects(
        archive.harvest({ metadataPrefix: "oai_dc", from }),
        /Invalid from date .*What to do: Give a Date, a day \(2025-01-31\)/s,
      );
      await assert.rejects(archive.harvest({ until: from }), /Invalid until date/);
      await assert.rejects(archive.changeList({ from }), /Invalid from date/);
    }
    assert.equal(requests, 0);
    const recent = await archive.harvest({ metadataPrefix: "oai_dc", from: "2024-01-02" });
    for (const stamp of recent.array("datestamp") as Date[]) {
      assert.ok(stamp >= new Date("2024-01-02T00:00:00Z"));
    }
  });
});

Deno.test("a harvest or change list from a date in the future is refused before sending anything", async () => {
  await withSandbox(async (sandbox) => {
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const { archive } = archiveOn(sandbox, { fetch: counting });
    for (const from of ["2099-01-01", new Date(Date.now() + 86_400_000)]) {
      await assert.rejects(
        archive.harvest({ metadataPrefix: "oai_dc", from }),
        /Invalid from date: .* is in the future \(now is .*\)\nWhat to do: Give a from date up to now/,
      );
      await assert.rejects(archive.changeList({ from }), /Invalid from date: .* is in the future/);
    }
    assert.equal(requests, 0);
  });
});

Deno.test("a harvest option misspelt is refused with a did-you-mean before sending anything", async () => {
  await withSandbox(async (sandbox) => {
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const { archive } = archiveOn(sandbox, { fetch: counting });
    await assert.rejects(
      archive.harvest({ metadataPrefix: "oai_dc", form: "2025-01-01" } as never),
      /Unknown option form of harvest; did you mean "from"\?/,
    );
    assert.equal(requests, 0);
  });
});
