/**
 * `tidepool sandbox`: the local services with seeded data, until stopped,
 * so every other command can be tried (and its guide's examples run)
 * without a real service.
 *
 * @module
 */

import { type Sandbox, startSandbox } from "../sandbox/start_sandbox.ts";
import { SANDBOX_WALLET_ADDRESS, SANDBOX_WALLET_KEY } from "../sandbox/ocean/mod.ts";
import type { CommandContext, CommandSpec, OptionSpec } from "./_command.ts";
import { EXIT, UsageError } from "./exit_codes.ts";

/** The variables the sandbox prints, as the demo and the notebooks read them. */
export const SANDBOX_VARIABLES = {
  ocean: "TIDEPOOL_OCEAN_NODE",
  subgraph: "TIDEPOOL_SUBGRAPH",
  archive: "TIDEPOOL_ARCHIVE",
  expressions: "TIDEPOOL_EXPRESSIONS",
} as const;

type Service = keyof typeof SANDBOX_VARIABLES;

/** The per-service port flags (`--archive-port`), in the order `--port N` numbers them from N. */
const SERVICES = Object.keys(SANDBOX_VARIABLES) as Service[];

const PORT_FLAGS: Record<string, OptionSpec> = {
  port: {
    type: "string",
    value: "N",
    description: `the services on known ports, so their URLs survive a restart: ${
      SERVICES.map((service, i) => `${service} on N${i ? `+${i}` : ""}`).join(", ")
    } (default: free ports chosen at start)`,
  },
  ...Object.fromEntries(SERVICES.map((service) => [
    `${service}-port`,
    {
      type: "string",
      value: "N",
      description: `the ${service} service on port N (wins over --port; 0: any free port)`,
    } satisfies OptionSpec,
  ])),
};

/** The port of each service the flags name (0: any free port). */
function ports(context: CommandContext): Record<Service, number> {
  const base = context.integer("port", 1, 65535 - SERVICES.length + 1);
  const chosen = {} as Record<Service, number>;
  SERVICES.forEach((service, i) => {
    chosen[service] = context.integer(`${service}-port`, 0, 65535) ??
      (base === undefined ? 0 : base + i);
  });
  const taken = new Map<number, Service>();
  for (const service of SERVICES) {
    const port = chosen[service];
    const other = taken.get(port);
    if (port !== 0 && other !== undefined) {
      throw new UsageError(`The ${other} and ${service} services cannot share port ${port}`, {
        hint: "Give each service a port of its own (--port N numbers them N, N+1, ...)",
      });
    }
    taken.set(port, service);
  }
  return chosen;
}

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
  usage: "sandbox [--port N] [--chain]",
  arguments: [],
  arity: [0, 0],
  options: {
    ...PORT_FLAGS,
    chain: {
      type: "boolean",
      description:
        "also a local chain (anvil) with the Ocean contracts and the node's 60 assets on it; prints its RPC, contracts and a funded test key",
    },
  },
  examples: [
    'tidepool sandbox   # then, in another shell, the four "export" lines it printed',
    "tidepool sandbox --port 8700   # the same URLs after every restart: a nightly job survives it",
    "tidepool sandbox --chain   # a node and chain for any Ocean client (ocean.js, ocean.py)",
  ],
  async run(context, input) {
    const port = ports(context);
    const withChain = input.values.chain === true;
    let sandbox;
    try {
      sandbox = await startSandbox({
        // Every asset of the node is published on the chain, a few transactions each: with the
        // chain the catalogue is kept small so it starts in seconds.
        ...(withChain ? { chain: true } : {}),
        ocean: { port: port.ocean, ...(withChain ? { count: CHAIN_ASSETS } : {}) },
        subgraph: { port: port.subgraph },
        archive: { port: port.archive },
        expressions: { port: port.expressions },
      });
    } catch (error) {
      if (!(error instanceof Deno.errors.AddrInUse)) throw error;
      throw new UsageError(`Cannot start the sandbox: a port it was given is in use`, {
        hint: `Stop what listens there, or give other ports (--port N, or ${
          SERVICES.map((service) => `--${service}-port`).join(", ")
        })`,
      });
    }
    // Listened for before the addresses are printed: a script that reads them and stops the sandbox at once stops it cleanly.
    const stopped = stopSignal();
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
      await stopped;
    } finally {
      await sandbox.close();
    }
    return EXIT.ok;
  },
};
