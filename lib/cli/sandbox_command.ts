/**
 * `tidepool sandbox`: the local services with seeded data, until stopped,
 * so every other command can be tried (and its guide's examples run)
 * without a real service.
 *
 * @module
 */

import { startSandbox } from "../sandbox/start_sandbox.ts";
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

/** The `sandbox` subcommand. */
export const SANDBOX_COMMAND: CommandSpec = {
  name: "sandbox",
  summary: "run the local services with seeded data until Ctrl-C, printing their addresses",
  usage: "sandbox",
  arguments: [],
  arity: [0, 0],
  options: {},
  examples: ['tidepool sandbox   # then, in another shell, the four "export" lines it printed'],
  async run(context) {
    const sandbox = await startSandbox();
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
      await context.io.stdout(new TextEncoder().encode(`${lines.join("\n")}\n`));
      context.say("sandbox: running; Ctrl-C stops it");
      await stopSignal();
    } finally {
      await sandbox.close();
    }
    return EXIT.ok;
  },
};
