/**
 * `POST /api/services/fileInfo` and the sandbox's own files. Every seeded
 * asset has one or two files generated from its DID, so sizes and SHA-256
 * checksums are real and stable, and they are the very bytes the download
 * endpoint sends and compute jobs read; the URL is never returned.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { SeededRandom } from "../_random.ts";
import type { Ddo } from "../../ocean/ddo.ts";
import { json, type OceanState, text } from "./_state.ts";

/** A file the sandbox holds. */
export interface SandboxFile {
  /** File name as the node reports it. */
  name: string;
  /** MIME type sent with the file. */
  contentType: string;
  /** The file's content. */
  bytes: Uint8Array;
}

const encoder = new TextEncoder();

/** Files served under `/files/<name>`, for fileInfo of file objects. */
export const PUBLIC_FILES: SandboxFile[] = [
  {
    name: "tides.csv",
    contentType: "text/csv",
    bytes: encoder.encode(
      "station,time,height_m\n" +
        Array.from(
          { length: 48 },
          (_, h) =>
            `Cascais,2025-03-01T${String(h % 24).padStart(2, "0")}:00:00Z,${
              (1.9 + 1.4 * Math.sin(h / 2)).toFixed(2)
            }`,
        ).join("\n") + "\n",
    ),
  },
  {
    name: "readme.txt",
    contentType: "text/plain",
    bytes: encoder.encode("Sandbox files of the tidepool Ocean node.\n"),
  },
];

/**
 * The files of one service of a DDO, generated from the DID: the one notion
 * of an asset's bytes, used alike by fileInfo, download and compute jobs.
 * Every service of an asset serves the same files, as published assets
 * usually do. A dataset has one CSV, or two parts with the same header
 * (`timestamp,station,value,temperature`); an algorithm has its script.
 *
 * @param ddo The asset.
 * @param serviceId One of its services (not checked here).
 * @returns The files, in fileIndex order.
 */
export function serviceFiles(ddo: Ddo, _serviceId: string): SandboxFile[] {
  const seed = parseInt(createHash("sha256").update(ddo.id).digest("hex").slice(0, 8), 16);
  const random = new SeededRandom(seed);
  const slug = ddo.metadata.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  if (ddo.metadata.type === "algorithm") {
    const language = ddo.metadata.algorithm?.language ?? "python";
    const extension = language === "javascript" ? "js" : language === "r" ? "R" : "py";
    const body = `# ${ddo.metadata.name}\n# reads /data/inputs, writes /data/outputs\n` +
      `print("rows", ${random.int(1, 1000)})\n`;
    return [{
      name: `${slug}.${extension}`,
      contentType: "text/plain",
      bytes: encoder.encode(body),
    }];
  }
  const stations = ["north", "east", "south", "west"];
  const start = Date.UTC(2026, 0, 1);
  const files: SandboxFile[] = [];
  const count = random.chance(0.3) ? 2 : 1;
  let hour = 0;
  for (let part = 0; part < count; part++) {
    const lines = ["timestamp,station,value,temperature"];
    const rows = random.int(24, 120);
    for (let r = 0; r < rows; r++, hour++) {
      const value = Math.round(random.next() * 10_000) / 100;
      const temperature = Math.round((random.next() * 30 - 5) * 10) / 10;
      lines.push(
        `${new Date(start + hour * 3_600_000).toISOString()},${
          random.pick(stations)
        },${value},${temperature}`,
      );
    }
    files.push({
      name: `${slug}${part ? `-part${part + 1}` : ""}.csv`,
      contentType: "text/csv",
      bytes: encoder.encode(lines.join("\n") + "\n"),
    });
  }
  return files;
}

/** The FileInfo record of a file: real size and SHA-256, never the URL. */
export function describeFile(file: SandboxFile): Record<string, unknown> {
  return {
    valid: true,
    contentLength: String(file.bytes.byteLength),
    contentType: file.contentType,
    checksum: createHash("sha256").update(file.bytes).digest("hex"),
    name: file.name,
    type: "url",
  };
}

/** `POST /api/services/fileInfo`. */
export async function handleFileInfo(
  request: Request,
  state: OceanState,
  files: (did: string, serviceId: string) => SandboxFile[],
): Promise<Response> {
  let body: Record<string, unknown>;
  try {
    body = await request.json();
  } catch {
    return text("Invalid request parameters", 400);
  }
  if (!body || typeof body !== "object" || (!body.did && !body.type)) {
    return text("Invalid request parameters", 400);
  }
  if (body.did) {
    const entry = state.entries.get(String(body.did));
    if (!entry || !entry.valid) return text("DDO not found", 404);
    const service = entry.ddo.services.find((s) => s.id === body.serviceId);
    if (!service) return text(`Service with id ${String(body.serviceId)} not found`, 400);
    return json(files(entry.ddo.id, service.id).map(describeFile));
  }
  const prefix = `${state.url}/files/`;
  const url = typeof body.url === "string" ? body.url : "";
  const file = body.type === "url" && url.startsWith(prefix)
    ? PUBLIC_FILES.find((f) => f.name === url.slice(prefix.length))
    : undefined;
  if (!file) {
    return json([{
      valid: false,
      contentLength: "0",
      contentType: "",
      name: "",
      type: String(body.type),
    }]);
  }
  return json([describeFile(file)]);
}

/** `GET /files/<name>`: the sandbox's public files. */
export function handleFile(name: string): Response {
  const file = PUBLIC_FILES.find((f) => f.name === name);
  if (!file) return text("Not found", 404);
  return new Response(file.bytes.slice(), { headers: { "content-type": file.contentType } });
}
