/**
 * A second program starting a paid compute job with the same key, as a
 * notebook or a script would: it loads tidepool, says `ready`, waits for a
 * line on standard input, starts the job (quoting it itself) and prints
 * the job, the orders and the escrow's transactions (or the error) as JSON.
 * The key comes from `BUYER_KEY`, the job from the environment.
 */

import { OceanNode, signerFromEnv } from "../../mod.ts";
import { readyThenWait } from "./_waiting_child.ts";

const env = (name: string) => Deno.env.get(name) ?? "";
const node = new OceanNode(env("NODE_URL"), { progress: false });
const signer = signerFromEnv("BUYER_KEY");
await readyThenWait();
try {
  const started = await node.startCompute({
    signer,
    environment: env("ENVIRONMENT"),
    algorithm: JSON.parse(env("ALGORITHM")),
    datasets: [JSON.parse(env("DATASET"))],
    rpcUrl: env("RPC_URL"),
    escrowAddress: env("ESCROW"),
    maxJobDuration: 60,
    resources: [{ id: "cpu", amount: 1 }, { id: "ram", amount: 1 }],
    maxPrice: { [env("TOKEN")]: "1" },
  });
  console.log(JSON.stringify({
    jobId: started.jobs[0].jobId,
    orders: [started.orders.algorithm, ...started.orders.datasets].map((o) => o.source),
    deposit: String(started.escrow?.deposit),
  }));
} catch (error) {
  console.log(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
  Deno.exit(1);
}
Deno.exit(0);
