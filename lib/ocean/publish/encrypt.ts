import type { HttpClient } from "../../http/client.ts";
import { ProtocolError, TidepoolError } from "../../errors/errors.ts";
import { checksummedSigner } from "../_address.ts";
import { signedCall } from "../_signed_call.ts";
import type { Signer } from "../signer.ts";

/** What {@linkcode OceanNode.encrypt} accepts: bytes, text, or any JSON value (sent as its JSON text). */
export type EncryptInput = Uint8Array | string | unknown;

/** Options of {@linkcode OceanNode.encrypt}. */
export interface EncryptOptions {
  /** The publisher's signer (the request is signed with `encrypt`). */
  signer: Signer;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** The body of {@linkcode OceanNode.encrypt}, on the node's HTTP client; documented there. */
export async function encrypt(
  http: HttpClient,
  data: EncryptInput,
  options: EncryptOptions,
): Promise<string> {
  const bytes = data instanceof Uint8Array
    ? data
    : new TextEncoder().encode(typeof data === "string" ? data : JSON.stringify(data) ?? "");
  if (bytes.byteLength === 0) {
    throw new TidepoolError("Cannot encrypt: the data is empty", {
      hint: "Give the bytes, text or JSON value to encrypt",
    });
  }
  const signer = checksummedSigner(options.signer);
  return await signedCall(
    { http, signer, command: "encrypt", action: "encrypt data", signal: options.signal },
    async (fields) => {
      const response = await http.request({
        method: "POST",
        path: "/api/services/encrypt",
        query: { ...fields },
        headers: { "content-type": "application/octet-stream" },
        body: bytes,
        idempotent: false,
        sensitive: true,
        signal: options.signal,
      });
      const text = response.text().trim().replace(/^"|"$/g, "");
      if (!/^0x[0-9a-f]+$/.test(text)) {
        throw new ProtocolError("Unexpected answer to encrypt: expected a 0x-prefixed hex string", {
          details: text,
          hint: "Check that the URL is an Ocean node",
        });
      }
      return text;
    },
  );
}
