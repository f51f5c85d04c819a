/**
 * Review findings on the write side: a create whose answer is lost neither
 * resends blindly nor calls an older resource its own, a restated write
 * error keeps `shortMessage` in step with `message`, and `usage()` is a
 * read (retried like one).
 */

import assert from "node:assert/strict";
import { TidepoolError } from "../../lib/errors/errors.ts";
import { SANDBOX_KEYS } from "../../lib/sandbox/archive/mod.ts";
import { archiveOn, withSandbox } from "./_sandbox.ts";

const WRITE = SANDBOX_KEYS.shinanoWrite;

function isCreate(input: RequestInfo | URL, init?: RequestInit): boolean {
  return init?.method === "POST" && String(input).endsWith("/api/resources");
}

Deno.test("createResource: a first send that lands after the read-back is this create, not a conflict", async () => {
  await withSandbox(async (sandbox) => {
    let held: (() => Promise<Response>) | undefined;
    let dropped = false;
    const { archive, warnings } = archiveOn(sandbox, {
      apiKey: WRITE,
      fetch: async (input, init) => {
        if (!dropped && isCreate(input, init)) {
          // The first send is slow: the client gives up on it before it reaches the server.
          dropped = true;
          held = () => fetch(input, init);
          throw new TypeError("connection reset");
        }
        const response = await fetch(input, init);
        if (held && (init?.method ?? "GET") === "GET") {
          // ...and it lands just after the client looked for the resource.
          const late = held;
          held = undefined;
          await (await late()).body?.cancel();
        }
        return response;
      },
    });
    const resource = await archive.createResource({
      slug: "slow-create",
      title: "遅い",
      metadata: { "dcterms:creator": "森鷗外" },
    });
    assert.equal(resource.slug, "slow-create");
    assert.equal(resource.title, "遅い");
    assert.ok(warnings.some((w) => /arrived late/.test(w)), warnings.join("\n"));
    const stored = sandbox.requests.filter((r) => r.method === "POST");
    assert.equal(stored.length, 2, "the late first send and one resend reached the server");
  });
});

Deno.test("createResource: after a lost answer, a resource that existed before is a conflict, not 'created'", async () => {
  await withSandbox(async (sandbox) => {
    const { archive: setupArchive } = archiveOn(sandbox, { apiKey: WRITE });
    await setupArchive.createResource({ slug: "older", title: "Older letter" });
    let dropped = false;
    const { archive } = archiveOn(sandbox, {
      apiKey: WRITE,
      fetch: (input, init) => {
        if (!dropped && isCreate(input, init)) {
          dropped = true;
          return Promise.reject(new TypeError("connection reset"));
        }
        return fetch(input, init);
      },
    });
    await assert.rejects(
      archive.createResource({ slug: "older", title: "A new letter" }),
      (error: Error) =>
        error.name === "ConflictError" && /differs in title/.test(error.message) &&
        /not made by this call/.test(error.message),
    );
    assert.equal((await archive.resource("older")).title, "Older letter", "nothing overwritten");
  });
});

Deno.test("a restated write error keeps shortMessage in step with message", async () => {
  await withSandbox(async (sandbox) => {
    const { archive } = archiveOn(sandbox, { apiKey: WRITE });
    sandbox.faults.quotaExceeded = true;
    const error = await archive.createResource({ slug: "q-1", title: "q" }).then(
      () => assert.fail("expected a quota error"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof TidepoolError);
    assert.equal(error.name, "QuotaError");
    assert.match(error.shortMessage, /^Cannot create resource q-1: Quota exceeded/);
    assert.ok(error.message.startsWith(`${error.shortMessage}\n`), error.message);
    assert.equal((error as TidepoolError & { status: number }).status, 402);
  });
});

Deno.test("usage() is a read: a passing 503 is retried", async () => {
  await withSandbox(async (sandbox) => {
    let failed = 0;
    const { archive } = archiveOn(sandbox, {
      apiKey: SANDBOX_KEYS.shinanoRead,
      retry: { retries: 2, baseDelayMs: 1 },
      fetch: (input, init) => {
        if (String(input).endsWith("/usage") && failed === 0) {
          failed++;
          return Promise.resolve(new Response("busy", { status: 503 }));
        }
        return fetch(input, init);
      },
    });
    const use = await archive.usage();
    assert.equal(failed, 1);
    assert.equal(typeof use.databases, "number");
  });
});
