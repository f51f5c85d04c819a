/**
 * A mirror run in its own process, for tests that kill it: `deno run
 * _mirror_child.ts <source URL> <state> <folder> [concurrency]`.
 */

import { ResourceSync } from "../../lib/archive/resourcesync/mod.ts";

const [url, state, dir, concurrency = "6"] = Deno.args;
const rs = new ResourceSync(url, {
  progress: false,
  warn: () => {},
  capabilityList: "/cap.xml",
  concurrency: Number(concurrency),
});
await rs.mirror({ state, dir });
