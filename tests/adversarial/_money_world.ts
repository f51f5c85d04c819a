/**
 * The world the money tests attack: the sandbox node with its assets on a
 * local anvil chain, and what plays the other side (a hostile node or RPC
 * proxy on 127.0.0.1 port 0). Every outcome is read back from anvil with
 * viem, independently of what tidepool reports: balances, nonces, and the
 * `OrderStarted` events of a payer.
 */

import assert from "node:assert/strict";
import {
  createWalletClient,
  defineChain,
  erc20Abi,
  http,
  parseAbi,
  parseAbiItem,
  parseEther,
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { OceanNode, signerFromPrivateKey, TidepoolError } from "../../mod.ts";
import { startOceanSandbox } from "../../lib/sandbox/ocean/mod.ts";
import type { OceanSandbox } from "../../lib/sandbox/ocean/start_ocean_sandbox.ts";
import { type SandboxChain, startChainSandbox } from "../../lib/sandbox/chain/mod.ts";
import type { DatatokenPricing } from "../../lib/sandbox/chain/publish_datatoken.ts";
import { chainClients } from "../../lib/sandbox/chain/_chain_clients.ts";

const ORDER_STARTED = parseAbiItem(
  "event OrderStarted(address indexed consumer, address payer, uint256 amount, uint256 serviceIndex, uint256 timestamp, address indexed publishMarketAddress, uint256 blockNumber)",
);

/** The sandbox node and chain, and independent reads of the chain. */
export interface MoneyWorld {
  ocean: OceanSandbox;
  chain: SandboxChain;
  reader: PublicClient;
  /** A compute example: a dataset, the algorithm it trusts, an environment. */
  example: ReturnType<OceanSandbox["computeExample"]>;
  /**
   * A dataset's access service to order for download: ocean-node's
   * initialize refuses a compute service (and NFT states other than 0 and 1).
   */
  download: { documentId: string; serviceId: string };
  /** The payer's Ocean balance, read from the chain. */
  oceanOf(address: string): Promise<bigint>;
  /** A token balance, read from the chain. */
  balance(token: string, address: string): Promise<bigint>;
  /** How many transactions an address has sent (its nonce), read from the chain. */
  sent(address: string): Promise<number>;
  /** The `OrderStarted` events a payer paid for, on any datatoken. */
  ordersPaidBy(payer: string): Promise<{ datatoken: string; tx: string }[]>;
  close(): Promise<void>;
}

/**
 * Starts the node and its chain: the compute example's dataset and
 * algorithm, `extra` assets and one dataset to download (`download`), priced
 * by `pricing` (default 1 Ocean).
 */
export async function moneyWorld(
  options: {
    extra?: number;
    pricing?: (did: string, position: number) => DatatokenPricing;
    /** Prices per resource unit and minute in Ocean: the node then charges through the Escrow. */
    resourcePrices?: Readonly<Record<string, number>>;
  } = {},
): Promise<MoneyWorld> {
  const ocean = startOceanSandbox({ count: 40, compute: { stepMs: 5 } });
  try {
    const seeded = ocean.computeExample();
    // Datasets ocean-node lets be ordered for download: NFT state 0 or 1, an access service first.
    const orderable = ocean.ddos.filter((d) =>
      d.id !== seeded.dataset.documentId && d.id !== seeded.algorithm.documentId &&
      d.metadata.type === "dataset" && (d.indexedMetadata?.nft?.state ?? 0) <= 1 &&
      d.services[0]?.type === "access"
    );
    const others = orderable.slice(0, options.extra ?? 2).map((d) => d.id);
    const downloadDdo = orderable[others.length];
    const downloadDid = downloadDdo.id;
    const chain = await startChainSandbox(ocean, {
      dids: [seeded.dataset.documentId, seeded.algorithm.documentId, ...others, downloadDid],
      pricing: options.pricing ?? (() => ({ type: "fixed", price: "1" })),
      resourcePrices: options.resourcePrices,
    });
    // Publishing renamed the assets: their DIDs name the chain and their NFTs.
    const example = ocean.computeExample();
    const { publicClient } = chainClients(chain);
    const reader = publicClient as unknown as PublicClient;
    const balance = (token: string, address: string) =>
      reader.readContract({
        address: token as `0x${string}`,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [address as `0x${string}`],
      });
    return {
      ocean,
      chain,
      reader,
      example,
      download: { documentId: chain.dids.get(downloadDid)!, serviceId: downloadDdo.services[0].id },
      oceanOf: (address) => balance(chain.contracts.oceanToken, address),
      balance,
      sent: (address) => reader.getTransactionCount({ address: address as `0x${string}` }),
      async ordersPaidBy(payer) {
        const logs = await reader.getLogs({ event: ORDER_STARTED, fromBlock: 0n });
        return logs.filter((log) => log.args.payer?.toLowerCase() === payer.toLowerCase())
          .map((log) => ({ datatoken: log.address, tx: log.transactionHash }));
      },
      async close() {
        await chain.close();
        await ocean.close();
      },
    };
  } catch (error) {
    await ocean.close();
    throw error;
  }
}

/** A loopback server; `close()` stops it. */
export interface Proxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A hostile node: forwards every request to `upstream` and lets `rewrite`
 * change a JSON answer (return undefined to pass it on unchanged). It names
 * itself wherever the upstream's answers name the upstream (the DDOs'
 * `serviceEndpoint`): it claims to serve the assets, as a node in front of
 * another does, so what it rewrites is all that is hostile. `ask` may
 * change a JSON request before it is passed on (undefined: unchanged).
 */
export function hostileNode(
  upstream: string,
  rewrite: (url: URL, body: unknown) => unknown | Promise<unknown>,
  ask?: (url: URL, body: unknown) => unknown,
): Proxy {
  const proxy: Proxy = serve(async (request) => {
    const url = new URL(request.url);
    let body: ArrayBuffer | string | undefined = request.body
      ? await request.arrayBuffer()
      : undefined;
    const asked = ask && body ? ask(url, JSON.parse(new TextDecoder().decode(body))) : undefined;
    if (asked !== undefined) body = JSON.stringify(asked);
    const headers = new Headers(request.headers);
    headers.delete("content-length"); // the body may have changed length
    const answer = await fetch(`${upstream}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body,
    });
    const text = (await answer.text()).replaceAll(upstream, proxy.url);
    if (!answer.ok || !(answer.headers.get("content-type") ?? "").includes("json")) {
      const headers = new Headers(answer.headers);
      headers.delete("content-length"); // the text may have changed length
      return new Response(text, { status: answer.status, headers });
    }
    const changed = await rewrite(url, JSON.parse(text));
    return Response.json(changed === undefined ? JSON.parse(text) : changed, {
      status: answer.status,
    });
  });
  return proxy;
}

/** One JSON-RPC call as the proxy sees it. */
export interface RpcCall {
  method: string;
  params: unknown[];
}

/**
 * A JSON-RPC proxy before the chain. `before` may answer a call itself
 * (return a JSON-RPC error or result object); `after` sees each call once
 * the chain answered it.
 */
export function rpcProxy(
  rpcUrl: string,
  hooks: {
    before?: (call: RpcCall) => Promise<Record<string, unknown> | undefined>;
    after?: (call: RpcCall, answer: Record<string, unknown>) => Promise<void> | void;
  },
): Proxy {
  return serve(async (request) => {
    const call = await request.json() as RpcCall & { id: unknown; jsonrpc: string };
    const own = await hooks.before?.(call);
    if (own) return Response.json({ jsonrpc: "2.0", id: call.id, ...own });
    const answer = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(call),
    });
    const body = await answer.json();
    await hooks.after?.(call, body);
    return Response.json(body);
  });
}

function serve(handler: (request: Request) => Promise<Response>): Proxy {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    handler,
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    close: () => server.shutdown(),
  };
}

/** A throwaway folder for tidepool's state (wallet locks), set for this process. */
export async function privateStateDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-state-" });
  Deno.env.set("TIDEPOOL_STATE_DIR", dir);
  return dir;
}

/** The signer of `key` (a new one by default), funded with gas and `ocean` Ocean on the world's chain. */
export async function fundedBuyer(
  world: MoneyWorld,
  ocean = "20",
  key: `0x${string}` = generatePrivateKey(),
) {
  const signer = signerFromPrivateKey(key);
  await world.chain.fund(signer.address, ocean);
  return signer;
}

/** A viem wallet client of `key` on the world's chain, for what a test sends itself. */
export function walletOf(world: MoneyWorld, key: `0x${string}`) {
  return createWalletClient({
    account: privateKeyToAccount(key),
    chain: defineChain({
      id: world.chain.chainId,
      name: "anvil",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [world.chain.rpcUrl] } },
    }),
    transport: http(world.chain.rpcUrl),
  });
}

/**
 * Runs `run`, which must fail with a TidepoolError matching `pattern`
 * having sent nothing: the wallet's nonce, Ocean and orders on chain are
 * what they were.
 */
export async function refusedUntouched(
  world: MoneyWorld,
  address: string,
  run: () => Promise<unknown>,
  pattern: RegExp,
): Promise<TidepoolError> {
  const [sent, held] = [await world.sent(address), await world.oceanOf(address)];
  const error = await run().then(() => undefined, (e) => e);
  assert.ok(error instanceof TidepoolError, `refused as a TidepoolError: ${error}`);
  assert.match(error.message, pattern);
  assert.equal(await world.sent(address), sent, "no transaction was sent");
  assert.equal(await world.oceanOf(address), held, "no Ocean left the wallet");
  assert.deepEqual(await world.ordersPaidBy(address), []);
  return error;
}

const MARKET_FEE_ABI = parseAbi([
  "function setPublishingMarketFee(address _publishMarketFeeAddress, address _publishMarketFeeToken, uint256 _publishMarketFeeAmount)",
  "function getPublishingMarketFee() view returns (address, address, uint256)",
]);

/**
 * Sets a datatoken's publishing market fee as whoever may set it now (its
 * current fee address, impersonated on anvil): `amount` Ocean (or of
 * `token`) to `market`.
 */
export async function setMarketFee(
  world: MoneyWorld,
  datatoken: `0x${string}`,
  market: `0x${string}`,
  amount: string,
  token: `0x${string}` = world.chain.contracts.oceanToken,
): Promise<void> {
  const { reader, chain } = world;
  const [current] = await reader.readContract({
    address: datatoken,
    abi: MARKET_FEE_ABI,
    functionName: "getPublishingMarketFee",
  });
  const { walletClient } = chainClients(chain);
  await reader.request({ method: "anvil_impersonateAccount" as never, params: [current] as never });
  await reader.request({
    method: "anvil_setBalance" as never,
    params: [current, "0x56BC75E2D63100000"] as never,
  });
  const hash = await walletClient.writeContract({
    address: datatoken,
    abi: MARKET_FEE_ABI,
    functionName: "setPublishingMarketFee",
    args: [market, token, parseEther(amount)],
    account: current,
    chain: walletClient.chain,
  });
  const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  assert.equal(receipt.status, "success", "the market fee was set");
}

/**
 * A second dataset the compute example's algorithm may run on: another
 * asset on chain whose first service is made a compute service with the
 * example dataset's terms (whom it trusts).
 */
export function secondComputeDataset(world: MoneyWorld): { documentId: string; serviceId: string } {
  const { ocean, chain, example } = world;
  const ddo = ocean.ddos.find((d) =>
    chain.pricing.has(d.id) && d.id !== example.dataset.documentId &&
    d.id !== example.algorithm.documentId
  )!;
  const terms = ocean.ddos.find((d) => d.id === example.dataset.documentId)!.services
    .find((s) => s.id === example.dataset.serviceId)!.compute;
  Object.assign(ddo.services[0], { type: "compute", compute: structuredClone(terms) });
  return { documentId: ddo.id, serviceId: ddo.services[0].id };
}

/**
 * What the order tests order: the dataset to download (an access service:
 * ocean-node's initialize refuses a compute one), its datatoken, the Ocean
 * token, the exchange and a node.
 */
export function downloadOrder(world: MoneyWorld) {
  const { ocean, chain } = world;
  const { documentId: did, serviceId } = world.download;
  const datatoken = ocean.ddos.find((d) => d.id === did)!.services
    .find((s) => s.id === serviceId)!.datatokenAddress as `0x${string}`;
  return {
    did,
    serviceId,
    datatoken,
    oceanToken: chain.contracts.oceanToken,
    exchange: chain.contracts.fixedRateExchange,
    node: new OceanNode(ocean.url, { progress: false, retry: false }),
  };
}

/** What `owner` allows `spender` in Ocean, read from the chain. */
export function oceanAllowance(world: MoneyWorld, owner: string, spender: string) {
  return world.reader.readContract({
    address: world.chain.contracts.oceanToken,
    abi: erc20Abi,
    functionName: "allowance",
    args: [owner as `0x${string}`, spender as `0x${string}`],
  });
}

/**
 * A JSON-RPC proxy that runs `change` once, when the wallet asks the chain
 * to fill its transaction to `to` (after the lane's last check, before the
 * transaction is priced and signed): a publisher that front-runs it.
 */
export function changeBeforeFill(
  world: MoneyWorld,
  to: string,
  change: () => Promise<void>,
): Proxy & { changed(): boolean } {
  let changed = false;
  const proxy = rpcProxy(world.chain.rpcUrl, {
    before: async (call) => {
      const target = (call.params?.[0] as { to?: string } | undefined)?.to;
      if (
        call.method === "eth_fillTransaction" && !changed &&
        target?.toLowerCase() === to.toLowerCase()
      ) {
        changed = true;
        await change();
      }
      return undefined;
    },
  });
  return { ...proxy, changed: () => changed };
}
