/**
 * The services a recording was made against, kept beside the recorded
 * answers (`services.json` in the cache folder). A sandbox binds a new port
 * on every start and cache keys name the host and port, so a replay must
 * ask the addresses the recording asked; this file is how it knows them.
 *
 * @module
 */

import { TidepoolError } from "../errors/errors.ts";
import { redact } from "../errors/redact.ts";
import { writeFileAtomic } from "../fs/write_file_atomic.ts";
import type { ServiceName } from "./_service_names.ts";

/** What a recording keeps of the services it was made against. */
export interface RecordedServices {
  format: "tidepool-services/1";
  /** The address of each service, as the recording asked it. */
  urls: Record<ServiceName, string>;
  /** The archive site that was read. */
  archiveSite: { account: string; db: string };
  /** Whether any address was a real service's. */
  live: boolean;
  /** When the recording began (ISO 8601). */
  recordedAt: string;
}

/** The manifest's file name inside the cache folder. */
export const RECORDED_SERVICES_FILE = "services.json";

/**
 * Writes the services a recording is made against into the cache folder.
 *
 * @param dir The cache folder.
 * @param services What to keep.
 */
export async function writeRecordedServices(
  dir: string,
  services: Omit<RecordedServices, "format" | "recordedAt">,
): Promise<void> {
  // A real service's address may hold its key (a gateway key in the path):
  // the file keeps it redacted, and a replay takes the address from the environment.
  const urls = Object.fromEntries(
    Object.entries(services.urls).map(([name, url]) => [name, redact(url)]),
  ) as Record<ServiceName, string>;
  const file: RecordedServices = {
    format: "tidepool-services/1",
    ...services,
    urls,
    recordedAt: new Date().toISOString(),
  };
  await Deno.mkdir(dir, { recursive: true });
  await writeFileAtomic(`${dir}/${RECORDED_SERVICES_FILE}`, JSON.stringify(file, null, 2));
}

/**
 * Reads the services a recording was made against.
 *
 * @param dir The cache folder.
 * @returns What the recording kept.
 * @throws {TidepoolError} When the folder holds no recording of its services.
 */
export async function readRecordedServices(dir: string): Promise<RecordedServices> {
  const path = `${dir}/${RECORDED_SERVICES_FILE}`;
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw new TidepoolError(`Cannot replay: no recording of the services in ${dir}`, {
      details: `${path} does not exist`,
      detailsLabel: "File",
      hint:
        "Run the notebook once with TIDEPOOL_CACHE_MODE=record and the same TIDEPOOL_CACHE_DIR, or name every service in TIDEPOOL_OCEAN_NODE, TIDEPOOL_SUBGRAPH, TIDEPOOL_EXPRESSIONS and TIDEPOOL_ARCHIVE",
    });
  }
  let file: RecordedServices;
  try {
    file = JSON.parse(text);
  } catch (error) {
    throw new TidepoolError(`Cannot replay: ${path} is not JSON`, {
      details: error instanceof Error ? error.message : String(error),
      detailsLabel: "Parser said",
      hint: "The file was cut short or edited: record again with TIDEPOOL_CACHE_MODE=refresh",
    });
  }
  if (file?.format !== "tidepool-services/1") {
    throw new TidepoolError(`Cannot replay: ${path} is not a tidepool services file`, {
      details: `format: ${String(file?.format)}`,
      detailsLabel: "File",
      hint: "Record again with TIDEPOOL_CACHE_MODE=refresh",
    });
  }
  return file;
}
