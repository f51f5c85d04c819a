/**
 * `tidepool sandbox`: the local services with seeded data, until stopped,
 * so every other command can be tried (and its guide's examples run)
 * without a real service.
 *
 * @module
 */

import { type Sandbox, startSandbox } from "../sandbox/start_sandbox.ts";
import { SANDBOX_WALLET_ADDRESS, SANDBOX_WALLET_KEY } from "../sandbox/ocean/mod.ts";
import type { CommandSpec } from "./_command.ts";
import { EXIT } from "./exit_codes.ts";

/** The variables the sandbox prints, as the demo and the notebooks read them. */
export const SANDBOX_VARIABLES = {
  ocean: "TIDEPOOL_OCEAN_NODE",
  subgraph: "TIDEPOOL_SUBGRAPH",
  archive: "TIDEPOOL_ARCHIVE",
  expressions: "TIDEPOOL_EXPRESSIONS",
} as const;

/** Resolves on the first SIGINT or SIGTERM. */
function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const signals = ["SIGINT", "SIGTERM"] as const;
    const stop = () => {
      for (const signal of signals) Deno.removeSignalListener(signal, stop);
      resolve();
    };
    for (const signal of signals) Deno.addSignalListener(signal, stop);
  });
}

/**
 * What any Ocean client (ocean.js, ocean.py) needs to use the sandbox node
 * and its chain: the RPC, the chain id, the contract addresses and a funded
 * test key. The key is the sandbox wallet's, a well-known test key (it is
 * in this repository), funded only on this local chain and allowlisted for
 * free compute.
 */
async function chainLines(sandbox: Sandbox): Promise<string[]> {
  const chain = sandbox.chain!;
  await chain.fund(SANDBOX_WALLET_ADDRESS);
  const contracts = chain.contracts as unknown as Record<string, string>;
  return [
    `export TIDEPOOL_RPC=${chain.rpcUrl}`,
    `# chain id: ${chain.chainId}`,
    ...Object.entries(contracts).map(([name, address]) => `# ${name}: ${address}`),
    `# funded test key (100 ETH, 100 OCEAN, free compute): ${SANDBOX_WALLET_KEY}`,
    `# its address: ${SANDBOX_WALLET_ADDRESS}`,
  ];
}

/** Assets of the node with `--chain`, every one published on the chain. */
const CHAIN_ASSETS = 60;

/** The `sandbox` subcommand. */
export const SANDBOX_COMMAND: CommandSpec = {
  name: "sandbox",
  summary: "run the local services with seeded data until Ctrl-C, printing their addresses",
  usage: "sandbox [--chain]",
  arguments: [],
  arity: [0, 0],
  options: {
    chain: {
      type: "boolean",
      description:
        "also a local chain (anvil) with the Ocean contracts and the node's 60 assets on it; prints its RPC, contracts and a funded test key",
    },
  },
  examples: [
    'tidepool sandbox   # then, in another shell, the four "export" lines it printed',
    "tidepool sandbox --chain   # a node and chain for any Ocean client (ocean.js, ocean.py)",
  ],
  async run(context, input) {
    const withChain = input.values.chain === true;
    // Every asset of the node is published on the chain, a few transactions each: with the
    // chain the catalogue is kept small so it starts in seconds.
    const sandbox = await startSandbox(
      withChain ? { chain: true, ocean: { count: CHAIN_ASSETS } } : {},
    );
    try {
      const lines = Object.entries(SANDBOX_VARIABLES).map(([service, name]) =>
        `export ${name}=${sandbox.urls[service as keyof typeof SANDBOX_VARIABLES]}`
      );
      const archive = sandbox.urls.archive;
      lines.push(
        `# OAI-PMH: ${archive}/shinano/letters/api/oai`,
        `# SPARQL: ${archive}/api/shinano/dl/letters/sparql`,
        `# ResourceSync: ${archive} --site shinano/letters`,
      );
      if (withChain) lines.push(...await chainLines(sandbox));
      await context.io.stdout(new TextEncoder().encode(`${lines.join("\n")}\n`));
      context.say("sandbox: running; Ctrl-C stops it");
      await stopSignal();
    } finally {
      await sandbox.close();
    }
    return EXIT.ok;
  },
};
