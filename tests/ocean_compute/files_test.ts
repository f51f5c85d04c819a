import assert from "node:assert/strict";
import { join } from "node:path";
import { AuthError, type HttpError } from "../../lib/errors/errors.ts";
import { downloadResults, startFreeCompute, waitForJob } from "../../lib/ocean/compute/mod.ts";
import { download, initialize } from "../../lib/ocean/download/mod.ts";
import { signRequest } from "../../lib/ocean/sign_request.ts";
import { SANDBOX_WALLET_KEY } from "../../lib/sandbox/ocean/compute/mod.ts";
import { setup, signer } from "./_setup.ts";

async function finishedJob(context: Awaited<ReturnType<typeof setup>>) {
  const [job] = await startFreeCompute(context.http, context.request, context.environments);
  return await waitForJob(context.http, signer, job.jobId, { pollMs: 20, timeoutMs: 10_000 });
}

function listing(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

Deno.test("hostile and colliding result names stay inside dir and overwrite nothing", async () => {
  const context = await setup({
    faults: {
      hostileResultFilename: true,
      resultFilenames: {
        algorithmLog: "same.log",
        configurationLog: "same.log",
        imageLog: "bad\u0007\nname.log",
        publishLog: "..",
      },
    },
  });
  const root = await Deno.makeTempDir();
  const dir = join(root, "a", "b");
  try {
    const done = await finishedJob(context);
    const table = await downloadResults(context.http, done, { signer, dir });
    assert.deepEqual(listing(root), ["a"]);
    assert.deepEqual(listing(join(root, "a")), ["b"]);
    const names = listing(dir);
    assert.equal(names.length, 5);
    assert.ok(names.includes("escape.txt"));
    assert.ok(names.includes("same.log") && names.includes("same-1.log"));
    assert.ok(names.includes("bad__name.log"));
    assert.ok(
      names.every((n) =>
        ![...n].some((c) => c.charCodeAt(0) < 32 || c === "/" || c === "\\") && n !== ".." &&
        !n.startsWith(".")
      ),
    );
    for (const path of table.array("path") as string[]) assert.ok(path.startsWith(dir + "/"));
    assert.equal(
      (table.array("filename") as string[]).filter((f) => f === "../../escape.txt").length,
      1,
    );
    // Downloading again keeps the first files and adds safe variants.
    await downloadResults(context.http, done, { signer, dir, types: ["output"] });
    assert.ok(listing(dir).includes("escape-1.txt"));
  } finally {
    await context.sandbox.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an empty body where bytes were promised, and an interrupted body, leave no file", async () => {
  const context = await setup();
  const dir = await Deno.makeTempDir();
  try {
    const done = await finishedJob(context);
    context.sandbox.compute!.faults.emptyResultBody = true;
    await assert.rejects(
      downloadResults(context.http, done, { signer, dir }),
      /is empty although the node listed \d+ bytes/,
    );
    assert.deepEqual(listing(dir), []);
    context.sandbox.compute!.faults.emptyResultBody = false;
    context.sandbox.compute!.faults.interruptResultBody = true;
    await assert.rejects(
      downloadResults(context.http, done, { signer, dir, types: ["output"] }),
      /interrupted/,
    );
    assert.deepEqual(listing(dir), []);
  } finally {
    await context.sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("computeResult with the short job id answers 500 Invalid C2D Environment; a running job has no results", async () => {
  const context = await setup();
  try {
    const done = await finishedJob(context);
    const fields = await signRequest(signer, "getComputeResult", {
      nonce: String(Date.now() + 5_000_000),
    });
    const query = new URLSearchParams({ ...fields, jobId: done.jobId, index: "0" });
    const response = await fetch(`${context.sandbox.url}/api/services/computeResult?${query}`);
    assert.equal(response.status, 500);
    assert.equal(await response.text(), "Invalid C2D Environment");
    // A job whose environment the node does not know gets the same answer and a clear error.
    const dir = await Deno.makeTempDir();
    try {
      const foreign = { ...done, environment: "ffff-eeee" };
      await assert.rejects(
        downloadResults(context.http, foreign, { signer, dir }),
        (e: HttpError) => {
          assert.match(e.message, /Invalid C2D Environment/);
          assert.ok(!/0x[0-9a-fA-F]{130}/.test(e.message + JSON.stringify(e)));
          return true;
        },
      );
      assert.deepEqual(listing(dir), []);
      await assert.rejects(
        downloadResults(context.http, { ...done, status: 40 }, { signer, dir }),
        /has no results yet/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  } finally {
    await context.sandbox.close();
  }
});

Deno.test("file access: initialize, a 401 download leaves no file, an ordered download is saved and verified", async () => {
  const context = await setup();
  const dir = await Deno.makeTempDir();
  try {
    // An asset ocean-node lets be ordered: NFT state 0 or 1 (see initializeRefusal).
    const ddo = context.sandbox.ddos.find((d) =>
      (d.indexedMetadata?.nft?.state ?? 0) <= 1 && d.services.some((s) => s.type === "access")
    )!;
    const service = ddo.services.find((s) => s.type === "access")!;
    const fee = await initialize(context.http, {
      did: ddo.id,
      serviceId: service.id,
      consumer: signer.address.toLowerCase(),
    });
    assert.equal(fee.datatoken, service.datatokenAddress);
    assert.equal(typeof fee.providerFee?.validUntil, "number");

    const txId = "0x" + "ab".repeat(32);
    const params = { did: ddo.id, serviceId: service.id, txId, signer, dir };
    await assert.rejects(download(context.http, params), (error: AuthError) => {
      assert.ok(error instanceof AuthError);
      assert.equal(error.status, 401);
      assert.match(error.message, /Failed to validate order/);
      const text = error.message + (error.stack ?? "") + JSON.stringify(error);
      assert.ok(!text.toLowerCase().includes(SANDBOX_WALLET_KEY.slice(2)));
      assert.ok(!/0x[0-9a-fA-F]{130}/.test(text));
      return true;
    });
    assert.deepEqual(listing(dir), []);

    context.sandbox.compute!.orders.push({
      txId,
      did: ddo.id,
      serviceId: service.id,
      consumer: signer.address,
    });
    const file = await download(context.http, { ...params, verify: true });
    const content = await Deno.readFile(file.path);
    const [served] = context.sandbox.files(ddo.id, service.id);
    assert.deepEqual(content, served.bytes);
    assert.equal(file.bytes, content.byteLength);
    assert.deepEqual(listing(dir), [served.name]);

    context.sandbox.compute!.faults.interruptResultBody = true;
    await assert.rejects(download(context.http, params), /interrupted/);
    assert.deepEqual(listing(dir), [served.name]);
  } finally {
    await context.sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
