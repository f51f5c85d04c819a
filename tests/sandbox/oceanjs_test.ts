/**
 * The official Ocean client, ocean.js 8.6.2, runs its usual flows unchanged
 * against `startSandbox({ chain: true })`: nonce, file info, environments,
 * encrypt, initialize, order and download of a dataset, a refused initialize
 * on an asset whose ordering is disabled, a free compute job to its result
 * file, waitForIndexer with a transaction id, and a JWT auth token, also
 * when the signed request's hash starts with a zero byte (ocean.js signs the
 * hash as a number's bytes, as ocean-node reads it).
 *
 * ocean.js is installed from npm with `npm ci` (tests/oceanjs/package.json
 * pins it, with an override of @oceanprotocol/ddo-js to 0.2.0: its ^0.3
 * dependency is not served) into `.cache/oceanjs`, once per lock file, and
 * runs under Node (tests/oceanjs/flows.mjs): Deno cannot apply npm overrides.
 * A failed install fails the test, naming the command.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { keccak256, stringToBytes } from "viem";
import { startSandbox } from "../../lib/sandbox/start_sandbox.ts";
import { SANDBOX_WALLET_ADDRESS, SANDBOX_WALLET_KEY } from "../../lib/sandbox/ocean/mod.ts";
import { clusterOf } from "../ocean_compute/_job_ids.ts";

const SOURCE = new URL("../oceanjs/", import.meta.url).pathname;
const INSTALL = new URL("../../.cache/oceanjs/", import.meta.url).pathname;

/** Runs a command to its end, with a bound on time; the child is killed if the bound passes. */
async function run(command: string, args: string[], cwd: string, timeoutMs: number) {
  const child = new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "piped" }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  try {
    const { code, stdout, stderr } = await child.output();
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code, stdout: text(stdout), stderr: text(stderr) };
  } finally {
    clearTimeout(timer);
  }
}

/** ocean.js installed from the lock file into `.cache/oceanjs` (reinstalled when the lock changes). */
async function installOceanJs(): Promise<string> {
  const lock = await Deno.readTextFile(join(SOURCE, "package-lock.json"));
  const stamp = createHash("sha256").update(lock).digest("hex");
  const stampFile = join(INSTALL, ".installed");
  await Deno.mkdir(INSTALL, { recursive: true });
  for (const file of ["package.json", "package-lock.json", "flows.mjs"]) {
    await Deno.copyFile(join(SOURCE, file), join(INSTALL, file));
  }
  const installed = await Deno.readTextFile(stampFile).catch(() => "");
  if (installed !== stamp) {
    const command = "npm ci --ignore-scripts --no-audit --no-fund";
    const result = await run("npm", command.split(" ").slice(1), INSTALL, 300_000)
      .catch((error) => ({ code: -1, stdout: "", stderr: String(error) }));
    if (result.code !== 0) {
      throw new Error(
        `ocean.js could not be installed: \`${command}\` in ${INSTALL} exited ${result.code}: ${
          result.stderr.slice(-2000)
        }`,
      );
    }
    await Deno.writeTextFile(stampFile, stamp);
  }
  return INSTALL;
}

type Step = { ok: boolean; value?: unknown; error?: string };

Deno.test("ocean.js 8.6.2 runs its usual flows unchanged against the sandbox node and chain", async () => {
  const folder = await installOceanJs();
  await using sandbox = await startSandbox({
    ocean: { count: 40, compute: { stepMs: 30 } },
    subgraph: { orders: 10 },
    expressions: { size: 10 },
    chain: true,
  });
  const chain = sandbox.chain!;
  const ocean = sandbox.ocean;
  await chain.fund(SANDBOX_WALLET_ADDRESS);
  const state = (ddo: (typeof ocean.ddos)[number]) => ddo.indexedMetadata?.nft?.state;
  const accessOf = (ddo: (typeof ocean.ddos)[number]) =>
    ddo.services.findIndex((s) => s.type === "access");
  const free = ocean.ddos.find((ddo) =>
    ddo.metadata.type === "dataset" && state(ddo) === 0 && accessOf(ddo) >= 0 &&
    chain.pricing.get(ddo.id)?.type === "free"
  );
  assert.ok(free, "a free dataset with an access service on chain");
  const serviceIndex = accessOf(free);
  const service = free.services[serviceIndex];
  const disabled = ocean.ddos.find((ddo) => state(ddo) === 4 && ddo.services.length > 0) ??
    ocean.ddos.find((ddo) => state(ddo) === 2 || state(ddo) === 3 || state(ddo) === 5);
  assert.ok(disabled, "an asset whose ordering is disabled");
  const compute = ocean.computeExample();
  const indexed = ocean.ddos[0];
  const storedNonce = ocean.nonces.get(SANDBOX_WALLET_ADDRESS);
  const setupFile = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(
      setupFile,
      JSON.stringify({
        node: ocean.url,
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        contracts: chain.contracts,
        key: SANDBOX_WALLET_KEY,
        download: {
          did: free.id,
          serviceId: service.id,
          serviceIndex,
          datatoken: service.datatokenAddress,
        },
        disabled: { did: disabled.id, serviceId: disabled.services[0].id },
        compute,
        indexed: { did: indexed.id, txid: indexed.indexedMetadata?.event?.txid },
      }),
    );
    const result = await run("node", ["flows.mjs", setupFile], folder, 240_000).catch((error) => {
      throw new Error(
        `\`node flows.mjs\` in ${folder} could not run (Node 20 is needed): ${error}`,
      );
    });
    assert.equal(result.code, 0, `node flows.mjs: ${result.stderr.slice(-3000)}`);
    const out = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as Record<string, Step>;
    const ok = (name: string) => {
      assert.ok(out[name]?.ok, `${name}: ${out[name]?.error}\n${result.stderr.slice(-2000)}`);
      return out[name].value as never;
    };

    // ocean.js reads the stored nonce as a number (a millisecond timestamp here).
    assert.equal(ok("nonce"), Number(storedNonce));
    const files = ocean.files(free.id, service.id);
    const info = ok("fileInfo") as { valid: boolean; checksum: string }[];
    assert.equal(info.length, files.length);
    assert.ok(info[0].valid);
    const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
    assert.equal(info[0].checksum, sha256(files[0].bytes));
    assert.deepEqual(ok("environments"), ocean.environments.map((env) => env.id));
    assert.match(ok("encrypt") as string, /^0x[0-9a-f]+$/);

    const download = ok("download") as { status: number; sha256: string; nonce: string };
    assert.equal(download.status, 200);
    assert.equal(download.sha256, sha256(files[0].bytes), "the bytes ordered are the file's");
    assert.match(String(download.nonce), /^[0-9]+$/, "initialize names the stored nonce");

    assert.equal(out.refusedInitialize.ok, false, "ordering a disabled asset is refused");
    // ocean-node answers the refusal as 500 plain text, which ocean.js tries to read as JSON.
    assert.match(String(out.refusedInitialize.error), /"Nft not pr/);

    const job = ok("compute") as {
      jobId: string;
      status: number;
      resultStatus: number;
      text: string;
    };
    assert.ok(job.jobId.startsWith(`${clusterOf(compute.environment)}-`), job.jobId);
    assert.ok(job.status === 70 || job.status === 71, `status ${job.status}`);
    assert.equal(job.resultStatus, 200);
    assert.ok(JSON.parse(job.text)[compute.dataset.documentId], "the output names the dataset");

    assert.equal(ok("waitForIndexer"), indexed.id);
    const token = ok("authToken") as string;
    const parts = token.split(".");
    assert.equal(parts.length, 3, "a JWT");
    const payload = JSON.parse(atob(parts[1].replaceAll("-", "+").replaceAll("_", "/")));
    assert.equal(payload.address.toLowerCase(), SANDBOX_WALLET_ADDRESS.toLowerCase());

    // ocean.js signs the stored nonce + 1: store the one before a nonce whose hash starts with 0x00.
    const message = (nonce: bigint) => `${SANDBOX_WALLET_ADDRESS}${nonce}createAuthToken`;
    let zeroHashNonce = BigInt(ocean.nonces.get(SANDBOX_WALLET_ADDRESS)) + 1n;
    while (!keccak256(stringToBytes(message(zeroHashNonce))).startsWith("0x00")) zeroHashNonce++;
    ocean.setNonce(SANDBOX_WALLET_ADDRESS, String(zeroHashNonce - 1n));
    const again = await run("node", ["flows.mjs", setupFile, "authToken"], folder, 60_000);
    assert.equal(again.code, 0, `node flows.mjs authToken: ${again.stderr.slice(-3000)}`);
    const second = JSON.parse(again.stdout.trim().split("\n").at(-1)!) as Record<string, Step>;
    assert.ok(second.authToken?.ok, `authToken at a zero-led hash: ${second.authToken?.error}`);
    assert.equal(ocean.nonces.get(SANDBOX_WALLET_ADDRESS), String(zeroHashNonce));
  } finally {
    await Deno.remove(setupFile);
  }
});
