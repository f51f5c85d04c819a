import type { HttpClient } from "../../http/client.ts";
import { TidepoolError } from "../../errors/errors.ts";
import { checksummedSigner } from "../_address.ts";
import { signedCall } from "../_signed_call.ts";
import type { Signer } from "../signer.ts";
import { saveStream } from "./_save_stream.ts";

/** Parameters of {@linkcode OceanNode.download}. */
export interface DownloadParameters {
  /** The asset's DID. */
  did: string;
  /** The access service id. */
  serviceId: string;
  /** The order transaction hash. */
  txId: string;
  /** The wallet that ordered. */
  signer: Signer;
  /** The folder to save into. */
  dir: string;
  /** Which file of the service; default 0. */
  fileIndex?: number;
  /** User parameters, when the asset defines them. */
  userdata?: Record<string, unknown>;
  /** Check size and SHA-256 against the node's fileInfo before the file gets its name. */
  verify?: boolean;
  /**
   * Most bytes of a file whose node declares no length; default 4 GiB
   * (`DEFAULT_MAX_DOWNLOAD_BYTES`). A declared length is the cap of its own file.
   */
  maxBytes?: number;
  /** Cancels the download, to the last byte. */
  signal?: AbortSignal;
}

/** A downloaded file. */
export interface DownloadReturnType {
  /** Where it was saved. */
  path: string;
  /** Bytes saved. */
  bytes: number;
  /** SHA-256 of the file. */
  sha256: string;
}

/** The body of {@linkcode OceanNode.download}, on the node's HTTP client; documented there. */
export async function download(
  http: HttpClient,
  parameters: DownloadParameters,
): Promise<DownloadReturnType> {
  const signer = checksummedSigner(parameters.signer);
  const fileIndex = parameters.fileIndex ?? 0;
  let expected: { bytes: number; sha256?: string } | undefined;
  if (parameters.verify) {
    const info = await http.request({
      method: "POST",
      path: "/api/services/fileInfo",
      json: { did: parameters.did, serviceId: parameters.serviceId },
      idempotent: true,
      signal: parameters.signal,
    });
    const files = info.json<{ contentLength?: string; checksum?: string }[]>();
    const entry = Array.isArray(files) ? files[fileIndex] : undefined;
    if (!entry) {
      throw new TidepoolError(
        `Cannot verify file ${fileIndex} of ${parameters.did}: fileInfo lists ${
          Array.isArray(files) ? files.length : 0
        } files`,
        {
          hint: "Check fileIndex, or download without verify",
        },
      );
    }
    expected = {
      bytes: Number(entry.contentLength),
      sha256: entry.checksum?.replace(/^0x/, "").toLowerCase(),
    };
  }
  const what = `file ${fileIndex} of ${parameters.did}`;
  // The lane is left once the node answered; the body is saved after.
  const stream = await signedCall(
    { http, signer, command: "download", action: `download ${what}`, signal: parameters.signal },
    (fields) =>
      http.stream({
        path: "/api/services/download",
        query: {
          documentId: parameters.did,
          serviceId: parameters.serviceId,
          transferTxId: parameters.txId,
          fileIndex,
          userdata: parameters.userdata ? JSON.stringify(parameters.userdata) : undefined,
          ...fields,
        },
        idempotent: false,
        sensitive: true,
        signal: parameters.signal,
        maxBytes: parameters.maxBytes,
      }),
  );
  const saved = await saveStream(stream.body, {
    dir: parameters.dir,
    filename: dispositionName(stream.headers.get("content-disposition")),
    fallback: `file-${fileIndex}`,
    expectedBytes: expected?.bytes,
    what,
    signal: parameters.signal,
    verify: expected
      ? ({ bytes, sha256 }) => {
        if (Number.isFinite(expected!.bytes) && bytes !== expected!.bytes) {
          throw new TidepoolError(
            `Download of ${what} has ${bytes} bytes, fileInfo says ${expected!.bytes}`,
            {
              hint: "Nothing was saved; try again, or ask the publisher whether the file changed",
            },
          );
        }
        if (expected!.sha256 && sha256 !== expected!.sha256) {
          throw new TidepoolError(
            `Download of ${what} does not match the SHA-256 of fileInfo`,
            {
              details: `got ${sha256}, expected ${expected!.sha256}`,
              hint: "Nothing was saved; try again, or ask the publisher whether the file changed",
            },
          );
        }
      }
      : undefined,
  });
  return { path: saved.path, bytes: saved.bytes, sha256: saved.sha256 };
}

/**
 * The file name a `Content-Disposition` header names: `filename*` (RFC 6266,
 * UTF-8 percent-encoded, for names outside ASCII) before `filename`.
 */
function dispositionName(header: string | null): string | undefined {
  const extended = /filename\*\s*=\s*([\w-]+)'[^']*'([^;]+)/i.exec(header ?? "");
  if (extended) {
    try {
      const text = decodeURIComponent(extended[2].trim());
      if (/^utf-8$/i.test(extended[1])) return text;
    } catch {
      // a malformed escape: the plain filename is used
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header ?? "")?.[1];
}
