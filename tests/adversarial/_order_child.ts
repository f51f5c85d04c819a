/**
 * A second program ordering with the same key, as a notebook or a script
 * would: it loads tidepool, says `ready`, waits for a line on standard
 * input, orders one service and prints the order (or the error) as JSON.
 * The key comes from `BUYER_KEY`, the rest from the environment.
 */

import { OceanNode, orderAsset, signerFromEnv } from "../../mod.ts";
import { readyThenWait } from "./_waiting_child.ts";

const env = (name: string) => Deno.env.get(name) ?? "";
const node = new OceanNode(env("NODE_URL"), { progress: false });
const signer = signerFromEnv("BUYER_KEY");
await readyThenWait();
try {
  const order = await orderAsset(node, {
    did: env("DID"),
    serviceId: env("SERVICE_ID"),
    signer,
    rpcUrl: env("RPC_URL"),
  });
  console.log(JSON.stringify({ txHash: order.txHash, source: order.source }));
} catch (error) {
  console.log(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
  Deno.exit(1);
}
Deno.exit(0);
