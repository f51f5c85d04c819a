/**
 * `POST /api/services/fileInfo` into a table: one row per file of a
 * published service, or of a file object that is not published yet.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { HttpClient } from "../http/client.ts";
import { ProtocolError, TidepoolError } from "../errors/errors.ts";
import { buildTable, defineSchema } from "../table/mod.ts";
import type { FileInfo, FileObject, ServiceRef } from "./types.ts";
import { checkDid } from "./_validate.ts";

/** The columns of the file information table. */
export const FILE_INFO_COLUMNS = defineSchema<FileInfo & { index: number }>([
  {
    name: "index",
    type: "integer",
    description: "Position of the file in the service (fileIndex)",
  },
  { name: "valid", type: "boolean", description: "Whether the node could reach the file" },
  { name: "name", type: "string", description: "File name" },
  { name: "type", type: "string", description: "Storage type (url, ipfs, ...)" },
  { name: "contentType", type: "string", description: "MIME type" },
  { name: "contentLength", type: "number", description: "Size in bytes" },
  { name: "checksum", type: "string", description: "SHA-256 of the file, when the node sends it" },
]);

/** Asks the node about the files of a service or a file object. */
export async function fileInfoTable(
  http: HttpClient,
  target: ServiceRef | FileObject,
): Promise<ColumnTable> {
  let body: Record<string, unknown>;
  if ("did" in target && target.did !== undefined) {
    const ref = target as ServiceRef;
    checkDid(ref.did);
    if (typeof ref.serviceId !== "string" || ref.serviceId === "") {
      throw new TidepoolError("Cannot ask for file information: serviceId is missing", {
        hint:
          "Give { did, serviceId }; the service ids are in the serviceIds column of searchAssets",
      });
    }
    body = { did: ref.did, serviceId: ref.serviceId };
  } else if (typeof (target as FileObject).type === "string" && (target as FileObject).type) {
    body = { ...target };
  } else {
    throw new TidepoolError(
      "Cannot ask for file information: give { did, serviceId } or a file object with type",
      {
        hint: 'For a URL: { type: "url", url: "https://...", method: "GET" }',
      },
    );
  }
  const response = await http.request({
    method: "POST",
    path: "/api/services/fileInfo",
    json: body,
    idempotent: true,
  });
  const files = response.json<unknown>();
  if (!Array.isArray(files)) {
    throw new ProtocolError("Unexpected fileInfo answer: expected an array of file information", {
      details: response.text(),
      hint: "Check that the URL is an Ocean node",
    });
  }
  return buildTable(
    FILE_INFO_COLUMNS,
    files.map((file: FileInfo, index) => ({ ...file, index })),
  );
}
