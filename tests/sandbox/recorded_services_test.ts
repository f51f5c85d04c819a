/**
 * services.json, the addresses a recording was made against: a file cut
 * short or of another kind is an error that names it and says to record again.
 */

import assert from "node:assert/strict";
import { TidepoolError } from "../../lib/errors/errors.ts";
import {
  readRecordedServices,
  writeRecordedServices,
} from "../../lib/sandbox/_recorded_services.ts";

const SERVICES = {
  urls: {
    ocean: "http://127.0.0.1:8001",
    subgraph: "http://127.0.0.1:8002/subgraphs/name/oceanprotocol/ocean-subgraph",
    expressions: "http://127.0.0.1:8003",
    archive: "http://127.0.0.1:8004",
  },
  archiveSite: { account: "shinano", db: "letters" },
  live: false,
};

Deno.test("a services.json cut short or of another kind names the file and says to record again", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await writeRecordedServices(dir, SERVICES);
    const read = await readRecordedServices(dir);
    assert.deepEqual(read.urls, SERVICES.urls);

    const path = `${dir}/services.json`;
    const text = await Deno.readTextFile(path);
    for (
      const [broken, said] of [[text.slice(0, 40), /is not JSON/], [
        "null",
        /is not a tidepool services file/,
      ]] as const
    ) {
      await Deno.writeTextFile(path, broken);
      await assert.rejects(
        () => readRecordedServices(dir),
        (error: unknown) =>
          error instanceof TidepoolError && said.test(error.message) &&
          error.message.includes(path) && /TIDEPOOL_CACHE_MODE=refresh/.test(error.message),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
