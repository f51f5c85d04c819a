import assert from "node:assert/strict";
import { AuthError, HttpError, TidepoolError } from "../../lib/errors/errors.ts";
import {
  JobFailedError,
  resultText,
  startFreeCompute,
  waitForJob,
} from "../../lib/ocean/compute/mod.ts";
import { signRequest } from "../../lib/ocean/sign_request.ts";
import { signerFromPrivateKey } from "../../lib/ocean/signer.ts";
import { SANDBOX_WALLET_KEY } from "../../lib/sandbox/ocean/compute/mod.ts";
import { setup, signer } from "./_setup.ts";

const SECRETS = [SANDBOX_WALLET_KEY, SANDBOX_WALLET_KEY.slice(2)];

function assertNoSecret(text: string) {
  for (const secret of SECRETS) {
    assert.ok(!text.toLowerCase().includes(secret.toLowerCase()), "private key leaked");
  }
  assert.ok(!/0x[0-9a-fA-F]{130}/.test(text), "signature leaked");
}

Deno.test("pre-checks report every violation in one error and send nothing", async () => {
  const { sandbox, http, environments, request } = await setup();
  try {
    const before = sandbox.compute!.requests.length;
    const stranger = signerFromPrivateKey("0x" + "22".repeat(32));
    await assert.rejects(
      startFreeCompute(http, {
        ...request,
        signer: stranger,
        // A resource no sandbox offers (seeds 1 and 2 give the environment a GPU).
        resources: [{ id: "cpu", amount: 5 }, { id: "ram", amount: 0 }, { id: "tpu", amount: 1 }],
        maxJobDuration: 5000,
      }, environments),
      (error: TidepoolError) => {
        assert.match(error.shortMessage, /^Cannot start compute job: /);
        assert.match(error.message, /not on the free allowlist/);
        assert.match(error.message, /cpu 5 exceeds the free maximum of 2/);
        assert.match(error.message, /ram 0 is below the free minimum of 1/);
        assert.match(error.message, /resource tpu is not offered/);
        assert.match(error.message, /maxJobDuration 5000 s exceeds the free maximum of 600 s/);
        return true;
      },
    );
    await assert.rejects(
      startFreeCompute(http, { ...request, maxJobDuration: 3 }, environments),
      /below the free minimum of 10 s/,
    );
    await assert.rejects(
      startFreeCompute(http, { ...request, environment: "nope" }, environments),
      /environment nope does not exist/,
    );
    const noFree = environments.map((env) => ({ ...env, free: null }));
    await assert.rejects(startFreeCompute(http, request, noFree), /offers no free jobs/);
    assert.equal(sandbox.compute!.requests.length, before, "nothing was sent");
    // Access lists cannot be checked locally: a note, and the node decides.
    const listed = environments.map((env) => ({
      ...env,
      free: { ...env.free!, access: { addresses: [], accessLists: [{ "11155111": ["0x1"] }] } },
    }));
    const [job] = await startFreeCompute(http, request, listed);
    assert.ok(job.jobId);
  } finally {
    await sandbox.close();
  }
});

Deno.test("the start is sent once and never retried, with the node's text as the message", async () => {
  const { sandbox, http, environments, request } = await setup({
    faults: { startFailure: { status: 503, body: '"Compute cluster is busy"' } },
  });
  try {
    await assert.rejects(startFreeCompute(http, request, environments), (error: HttpError) => {
      assert.equal(error.shortMessage, "Cannot start compute job: Compute cluster is busy");
      return true;
    });
    const starts = sandbox.compute!.requests.filter((r) => r.path === "/api/services/freeCompute");
    assert.equal(starts.length, 1);
    sandbox.compute!.faults.startFailure = { status: 400, body: "Plain text refusal" };
    await assert.rejects(
      startFreeCompute(http, request, environments),
      /Cannot start compute job: Plain text refusal/,
    );
  } finally {
    await sandbox.close();
  }
});

Deno.test("nonces: the timestamp trap, a raised stored nonce, and one retry after a mismatch", async () => {
  const { sandbox, http, environments, request } = await setup();
  try {
    // The trap: a counter-style nonce (last used plus one) is behind the timestamp the node stores.
    const stored = sandbox.compute!.nonces.get(signer.address);
    assert.ok(Number(stored) > 1e12, "the sandbox wallet starts with a timestamp nonce");
    const fields = await signRequest(signer, "freeStartCompute", { nonce: "2" });
    const trap = await fetch(`${sandbox.url}/api/services/freeCompute`, {
      method: "POST",
      body: JSON.stringify({
        ...fields,
        environment: request.environment,
        algorithm: request.algorithm,
        datasets: request.datasets,
      }),
    });
    assert.equal(trap.status, 401);
    assert.equal(await trap.text(), "consumer address and nonce signature mismatch");
    // tidepool reads the stored nonce, so even one far in the future does not stop it.
    sandbox.compute!.nonces.set(signer.address, String(Date.now() + 10_000_000));
    const [first] = await startFreeCompute(http, request, environments);
    assert.ok(first.jobId);
    // Another client raises the stored nonce after tidepool read it: one mismatch, re-read, one retry.
    sandbox.compute!.nonces.set(signer.address, String(Date.now() + 50_000_000));
    const count = () =>
      sandbox.compute!.requests.filter((r) => r.path === "/api/services/freeCompute").length;
    const before = count();
    const [second] = await startFreeCompute(http, request, environments);
    assert.ok(second.jobId);
    assert.equal(count() - before, 2, "sent, refused with a mismatch, re-signed once");
    // Two mismatches in a row: an AuthError naming the culprit, no third attempt.
    const third = count();
    sandbox.compute!.nonces.mismatchNext = true;
    const original = sandbox.compute!.nonces.verify.bind(sandbox.compute!.nonces);
    let calls = 0;
    sandbox.compute!.nonces.verify = (
      f,
      c,
    ) => (++calls === 2
      ? Promise.resolve({
        ok: false as const,
        status: 401 as const,
        text: "consumer address and nonce signature mismatch",
      })
      : original(f, c));
    await assert.rejects(startFreeCompute(http, request, environments), (error: AuthError) => {
      assert.ok(error instanceof AuthError);
      assert.match(error.hint ?? "", /key matches/);
      assertNoSecret(error.message + (error.stack ?? ""));
      return true;
    });
    assert.equal(count() - third, 2);
  } finally {
    await sandbox.close();
  }
});

Deno.test("a wallet off the allowlist and a key that is not the address's get AuthErrors that say which", async () => {
  const { sandbox, http, environments, request } = await setup();
  try {
    const stranger = signerFromPrivateKey("0x" + "33".repeat(32));
    // The local list is stale: the node refuses with 403.
    const open = environments.map((env) => ({
      ...env,
      free: { ...env.free!, access: { addresses: [stranger.address], accessLists: null } },
    }));
    await assert.rejects(
      startFreeCompute(http, { ...request, signer: stranger }, open),
      (error: AuthError) => {
        assert.ok(error instanceof AuthError);
        assert.equal(error.status, 403);
        assert.match(error.hint ?? "", /allowlist/);
        return true;
      },
    );
    // A signer that claims the sandbox address but signs with another key.
    const liar = { address: signer.address, signMessage: stranger.signMessage.bind(stranger) };
    await assert.rejects(
      startFreeCompute(http, { ...request, signer: liar }, environments),
      (error: AuthError) => {
        assert.ok(error instanceof AuthError);
        assert.match(error.hint ?? "", /The key is wrong/);
        return true;
      },
    );
  } finally {
    await sandbox.close();
  }
});

Deno.test("a failed job throws JobFailedError with code, text, exit code and OOM flag; its log stays readable", async () => {
  const { sandbox, http, environments, request, events } = await setup();
  try {
    const [oom] = await startFreeCompute(http, {
      ...request,
      algorithm: { ...request.algorithm, algocustomdata: { memoryMb: 4096 } },
    }, environments);
    const error = await waitForJob(http, signer, oom.jobId, { pollMs: 20, timeoutMs: 10_000 }).then(
      () => assert.fail("expected a failure"),
      (e) => e,
    );
    assert.ok(error instanceof JobFailedError);
    assert.ok(error instanceof TidepoolError);
    assert.equal(error.code, 41);
    assert.equal(error.statusText, "Algorithm failed");
    assert.equal(error.exitCode, 137);
    assert.equal(error.oomKilled, true);
    assert.match(error.hint ?? "", /ram/);
    const index = error.job.results!.findIndex((r) => r.type === "algorithmLog");
    assert.match(await resultText(http, error.job, index, { signer }), /Killed/);

    const [missing] = await startFreeCompute(http, {
      ...request,
      algorithm: { ...request.algorithm, algocustomdata: { columns: ["humidity"] } },
    }, environments);
    await assert.rejects(
      waitForJob(http, signer, missing.jobId, { pollMs: 20 }),
      (e: JobFailedError) => {
        assert.equal(e.exitCode, 1);
        assert.equal(e.oomKilled, false);
        return true;
      },
    );
    for (const event of events) assertNoSecret(JSON.stringify(event));
  } finally {
    await sandbox.close();
  }
});

Deno.test("waitForJob times out, can be aborted, and honours the 429 hint while polling", async () => {
  const { sandbox, http, environments, request } = await setup({ stepMs: 60_000 });
  try {
    const [job] = await startFreeCompute(http, request, environments);
    await assert.rejects(
      waitForJob(http, signer, job.jobId, { pollMs: 10, timeoutMs: 60 }),
      (e: Error) => {
        assert.equal(e.name, "TimeoutError");
        assert.match(e.message, /queued/i);
        return true;
      },
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stopped by the user")), 30);
    await assert.rejects(
      waitForJob(http, signer, job.jobId, { pollMs: 10, signal: controller.signal }),
      /stopped by the user/,
    );

    sandbox.compute!.faults.rateLimit = { requests: 2, windowSeconds: 1 };
    const times: number[] = [];
    const t0 = Date.now();
    const counting = sandbox.compute!.requests.length;
    await assert.rejects(
      waitForJob(http, signer, job.jobId, { pollMs: 5, timeoutMs: 1_500 }),
      /did not finish/,
    );
    const answered = sandbox.compute!.requests.length - counting;
    times.push(Date.now() - t0);
    // Without the hint the client would make about 300 polls in 1.5 s; with it, a handful a second.
    assert.ok(answered <= 8, `polls honoured the hint: ${answered} requests`);
  } finally {
    await sandbox.close();
  }
});
