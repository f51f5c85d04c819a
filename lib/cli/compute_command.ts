/**
 * `tidepool compute logs|stop`: follow a running job's output line by line
 * on standard output, or stop it, signed with the wallet whose private key
 * is in the environment variable `--key-env` names (never on the command
 * line).
 *
 * @module
 */

import { OceanNode } from "../ocean/ocean_node.ts";
import { signerFromPrivateKey } from "../ocean/signer.ts";
import { UsageError } from "./exit_codes.ts";
import type { CommandSpec } from "./_command.ts";
import { keyFromEnvironment } from "./_secrets.ts";

const encoder = new TextEncoder();

/** The `compute` subcommand. */
export const COMPUTE_COMMAND: CommandSpec = {
  name: "compute",
  summary: "follow a compute job's logs as they come, or stop it (signed by its owner)",
  usage: "compute logs|stop <node-url> <job-id> --key-env NAME [--quiet]",
  arguments: [
    { name: "logs|stop", description: "logs: print the job's output as it runs; stop: stop it" },
    { name: "node-url", description: "the Ocean node that runs the job" },
    { name: "job-id", description: "the job id, short or <cluster hash>-<job id>" },
  ],
  arity: [3, 3],
  options: {
    "key-env": {
      type: "string",
      value: "NAME",
      description:
        "read the job owner's private key from the environment variable NAME (never from a flag)",
    },
    quiet: { type: "boolean", short: "q", description: "no summary line" },
  },
  examples: [
    "tidepool compute logs https://node.example 1a2b3c --key-env WALLET_KEY  # after export WALLET_KEY=...",
    "tidepool compute stop https://node.example 1a2b3c --key-env WALLET_KEY",
  ],
  async run(context, { positionals: [action, url, jobId] }) {
    if (action !== "logs" && action !== "stop") {
      throw new UsageError(`Unknown action ${action} for tidepool compute`, {
        hint: "Give logs or stop: tidepool compute logs <node-url> <job-id> --key-env NAME",
      });
    }
    const name = context.string("key-env");
    if (name === undefined) {
      throw new UsageError(`tidepool compute ${action} needs the job owner's key`, {
        hint: "export WALLET_KEY=<private key>; then --key-env WALLET_KEY",
      });
    }
    const key = keyFromEnvironment("--key-env", name, context.io.env);
    const signer = signerFromPrivateKey(key, `the variable --key-env names`);
    const node = new OceanNode(url, context.clientOptions());
    if (action === "stop") {
      const job = await node.stopCompute(jobId, { signer });
      context.say(
        `compute stop: job ${job.jobId} asked to stop (status ${job.status} ${job.statusText})`,
      );
      return 0;
    }
    let lines = 0;
    for await (const line of node.computeLogs(jobId, { signer })) {
      await context.io.stdout(encoder.encode(`${line}\n`));
      lines++;
    }
    context.say(`compute logs: ${lines} line${lines === 1 ? "" : "s"} of job ${jobId}`);
    return 0;
  },
};
