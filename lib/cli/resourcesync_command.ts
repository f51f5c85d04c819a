/**
 * `tidepool resourcesync`: a ResourceSync source's resource list, its
 * changes since a time, or a mirror that lists only what changed since the
 * last run, into a table file or standard output.
 *
 * @module
 */

import { ResourceSync } from "../archive/resourcesync/resource_sync.ts";
import { UsageError } from "./exit_codes.ts";
import { CLIENT_FLAGS, type CommandSpec, count, counted, OUTPUT_OPTIONS } from "./_command.ts";
import { writeTable } from "./_output.ts";
import { MIRROR_FILES_FOLDER, mirrorThenCommit } from "./_mirror_commit.ts";

/** The `resourcesync` subcommand. */
export const RESOURCESYNC_COMMAND: CommandSpec = {
  name: "resourcesync",
  summary: "a ResourceSync source's resources, or what changed since the last run, as a table",
  usage: "resourcesync <source> [--site ACCOUNT/DB] [--mirror DIR | --from DATE] [--to FILE]",
  arguments: [{
    name: "source",
    description: "the platform's address (its /.well-known/resourcesync)",
  }],
  arity: [1, 1],
  options: {
    site: {
      type: "string",
      value: "ACCOUNT/DB",
      description: "the site whose capability list to read, when the source lists several",
    },
    from: { type: "string", value: "DATE", description: "only the changes at or after DATE" },
    mirror: {
      type: "string",
      value: "DIR",
      description:
        "mirror the resources into DIR/resources (checked, resumed) and keep the mirror's state in DIR: the first run lists every resource, each later run only the changes",
    },
    ...OUTPUT_OPTIONS,
    ...CLIENT_FLAGS,
  },
  examples: [
    "tidepool resourcesync https://archive.example --site acme/letters --to resources.csv",
    "tidepool resourcesync $ARCHIVE --site acme/letters --mirror mirror/ --to changes.ndjson",
  ],
  async run(context, { positionals: [source] }) {
    const [from, mirror] = [context.string("from"), context.string("mirror")];
    if (from !== undefined && mirror !== undefined) {
      throw new UsageError("Give --mirror or --from, not both", {
        hint: "A mirror keeps its own time of the last run",
      });
    }
    const target = await context.output();
    const sync = new ResourceSync(source, {
      ...context.clientOptions(),
      site: context.string("site"),
    });
    if (mirror !== undefined) {
      const files = `${mirror.replace(/\/+$/, "")}/${MIRROR_FILES_FOLDER}`;
      const step = await mirrorThenCommit(
        mirror,
        target,
        (state) => sync.mirror({ state, dir: files }),
        { deliver: (table) => writeTable(target, table, context.io.stdout) },
      );
      const where = step.where;
      const removed = step.removed.length ? `, ${count(step.removed.length)} removed` : "";
      const kept = [
        `${counted(step.written.length, "file")} fetched`,
        `${count(step.unchanged)} unchanged`,
        ...(step.deleted.length ? [`${count(step.deleted.length)} deleted`] : []),
      ];
      context.say(
        `resourcesync: ${step.kind}: ${
          counted(step.table.numRows(), "resource")
        }${removed} to ${where}; in ${files}/: ${kept.join(", ")}`,
      );
      return 0;
    }
    const table = from === undefined ? await sync.resourceList() : await sync.changeList({ from });
    const where = await writeTable(target, table, context.io.stdout);
    context.say(`resourcesync: ${counted(table.numRows(), "resource")} to ${where}`);
    return 0;
  },
};
