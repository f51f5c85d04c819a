/**
 * A payer's side of ocean-node's Escrow contract (paid compute, C2D v2) as
 * one table: the funds per token (available and locked), the authorizations
 * given to each node (payee) and the locks each node holds, read from the
 * chain at one block.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { TidepoolError } from "../../errors/errors.ts";
import { checkOptions } from "../../options/check_options.ts";
import { noteAsOf } from "../../table/call_trace.ts";
import { withProvenance } from "../../table/with_provenance.ts";
import { buildTable } from "../../table/build_table.ts";
import { defineSchema, type TableSchema } from "../../table/schema.ts";
import type { CacheOptions } from "../../http/cache.ts";
import { SANDBOX_CHAIN_ID } from "./order_asset.ts";
import { onChain, originOf } from "./_chain_errors.ts";
import { rpcThroughHttp } from "./_rpc_through_http.ts";

/** Options of {@linkcode escrowTable}. */
export interface EscrowTableOptions {
  /** The chain's JSON-RPC URL. */
  rpcUrl: string;
  /** The Escrow contract (`payment.escrowAddress` of `initializeCompute`). */
  escrow: string;
  /** The payer whose escrow is read. */
  payer: string;
  /** Only these nodes' (payees', `payment.payee`) authorizations and locks; default every payee. */
  payees?: readonly string[];
  /** The chain id; default the sandbox chain's. */
  chainId?: number;
  /** The record/replay cache of the chain's answers; default the environment's, `false` for none. */
  cache?: CacheOptions | false;
}

/** The columns of {@linkcode escrowTable}: one row per funds, authorization or lock. */
export const escrowSchema: TableSchema<Record<string, unknown>> = defineSchema(
  [
    {
      name: "kind",
      type: "string",
      description: "funds (per token), authorization (per token and payee) or lock (per job)",
    },
    { name: "token", type: "string", description: "The token's address" },
    { name: "symbol", type: "string", description: "The token's symbol" },
    {
      name: "payee",
      type: "string",
      description: "The node paid (null for funds)",
    },
    {
      name: "amount",
      type: "string",
      description:
        "funds: available to lock or withdraw; authorization: the most the payee may hold locked; lock: the amount locked (exact decimal, in whole tokens)",
    },
    {
      name: "locked",
      type: "string",
      description: "funds: locked now; authorization: locked now by this payee (exact decimal)",
    },
    { name: "jobId", type: "string", description: "lock: the job's id in the Escrow (decimal)" },
    { name: "expiry", type: "date", description: "lock: when it may be cancelled and refunded" },
    {
      name: "maxLockSeconds",
      type: "integer",
      description: "authorization: longest lock allowed",
    },
    {
      name: "maxLockCounts",
      type: "integer",
      description: "authorization: most locks at once",
    },
    { name: "currentLocks", type: "integer", description: "authorization: locks held now" },
  ] as const,
);

const ZERO = "0x0000000000000000000000000000000000000000";

const ESCROW_READS = [
  "function getUserTokens(address user) view returns (address[])",
  "function getUserFunds(address payer, address token) view returns ((uint256 available, uint256 locked))",
  "function getAuthorizations(address token, address payer, address payee) view returns ((address payee, uint256 maxLockedAmount, uint256 currentLockedAmount, uint256 maxLockSeconds, uint256 maxLockCounts, uint256 currentLocks)[])",
  "function getLocks(address token, address payer, address payee) view returns ((uint256 jobId, address payer, uint256 amount, uint256 expiry, address token)[])",
  "function decimals() view returns (uint8)",
  "function symbol() view returns (string)",
] as const;

/**
 * Reads a payer's escrow: for each token the payer holds funds in
 * (`getUserTokens`), a `funds` row (available, locked), an `authorization`
 * row per payee and a `lock` row per lock each payee holds. All
 * reads are made at one block, recorded and replayed like other chain reads.
 * Amounts are exact decimals in whole tokens (the token's own decimals).
 *
 * @param options RPC URL, Escrow address, payer, payees.
 * @returns The rows (columns of {@linkcode escrowSchema}).
 * @example The escrow of a wallet at the node it pays
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const escrow = await escrowTable({
 *   rpcUrl, escrow: terms.payment.escrowAddress, payer: signer.address,
 *   payees: [terms.payment.payee],
 * });
 * escrow.print();
 * ```
 */
export async function escrowTable(options: EscrowTableOptions): Promise<ColumnTable> {
  const checked = checkOptions("escrowTable", options, {
    rpcUrl: "string",
    escrow: "string",
    payer: "string",
    payees: "strings",
    chainId: "integer",
    cache: ["object", [false]],
  });
  for (const field of ["rpcUrl", "escrow", "payer"] as const) {
    if (!checked[field]) {
      throw new TidepoolError(`Cannot read the escrow: no ${field}`, {
        hint:
          "Give rpcUrl, escrow (payment.escrowAddress of initializeCompute) and payer: escrowTable({ rpcUrl, escrow, payer })",
      });
    }
  }
  const { rpcUrl, cache: _cache, ...params } = checked;
  return await withProvenance(
    { service: originOf(rpcUrl), operation: "escrowTable", params },
    () => onChain(rpcUrl, "read the escrow", () => readEscrow(checked)),
  );
}

async function readEscrow(options: EscrowTableOptions): Promise<ColumnTable> {
  const { createPublicClient, custom, defineChain, formatUnits, getAddress, parseAbi } =
    await import("viem");
  const abi = parseAbi(ESCROW_READS);
  const chain = defineChain({
    id: options.chainId ?? SANDBOX_CHAIN_ID,
    name: "escrow chain",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const transport = custom({ request: rpcThroughHttp(options.rpcUrl, options.cache) }, {
    retryCount: 0,
  });
  const client = createPublicClient({ chain, transport });
  const blockNumber = await client.getBlockNumber();
  noteAsOf({ chainId: chain.id, block: Number(blockNumber) });
  const escrow = getAddress(options.escrow);
  const payer = getAddress(options.payer);
  const payees = options.payees === undefined
    ? undefined
    : new Set(options.payees.map((p) => getAddress(p).toLowerCase()));
  const read = <T>(address: `0x${string}`, functionName: string, args: unknown[]) =>
    client.readContract({ address, abi, functionName, args, blockNumber } as never) as Promise<T>;
  const tokens = await read<readonly `0x${string}`[]>(escrow, "getUserTokens", [payer]);
  const rows: Record<string, unknown>[] = [];
  for (const token of tokens) {
    const decimals = Number(await read<number>(token, "decimals", []));
    const symbol = await read<string>(token, "symbol", []).catch(() => null);
    const units = (value: bigint) => formatUnits(value, decimals);
    const base = { token: token.toLowerCase(), symbol };
    const funds = await read<{ available: bigint; locked: bigint }>(escrow, "getUserFunds", [
      payer,
      token,
    ]);
    rows.push({
      kind: "funds",
      ...base,
      payee: null,
      amount: units(funds.available),
      locked: units(funds.locked),
    });
    // Every payee's authorization at once (the zero address matches any payee).
    const auths = (await read<
      readonly {
        payee: `0x${string}`;
        maxLockedAmount: bigint;
        currentLockedAmount: bigint;
        maxLockSeconds: bigint;
        maxLockCounts: bigint;
        currentLocks: bigint;
      }[]
    >(escrow, "getAuthorizations", [token, payer, ZERO])).filter((auth) =>
      payees === undefined || payees.has(auth.payee.toLowerCase())
    );
    for (const auth of auths) {
      rows.push({
        kind: "authorization",
        ...base,
        payee: auth.payee.toLowerCase(),
        amount: units(auth.maxLockedAmount),
        locked: units(auth.currentLockedAmount),
        maxLockSeconds: Number(auth.maxLockSeconds),
        maxLockCounts: Number(auth.maxLockCounts),
        currentLocks: Number(auth.currentLocks),
      });
    }
    // 2.6.0's getLocks wants a payee and its locks do not name one: read them per payee
    // authorized, keeping only the payer's own locks in this token whatever the filter does.
    for (const auth of auths) {
      const locks = await read<
        readonly { jobId: bigint; payer: string; amount: bigint; expiry: bigint; token: string }[]
      >(escrow, "getLocks", [token, payer, auth.payee]);
      for (const lock of locks) {
        if (lock.payer.toLowerCase() !== payer.toLowerCase()) continue;
        if (lock.token.toLowerCase() !== token.toLowerCase()) continue;
        rows.push({
          kind: "lock",
          ...base,
          payee: auth.payee.toLowerCase(),
          amount: units(lock.amount),
          jobId: lock.jobId.toString(),
          expiry: new Date(Number(lock.expiry) * 1000),
        });
      }
    }
  }
  return buildTable(escrowSchema, rows);
}
