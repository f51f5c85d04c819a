import type { HttpClient } from "../../http/client.ts";
import { HttpError } from "../../errors/errors.ts";
import { checksummedSigner } from "../_address.ts";
import { signedCall } from "../_signed_call.ts";
import type { Ddo } from "../ddo.ts";
import type { Signer } from "../signer.ts";

/** What {@linkcode OceanNode.validateDdo} returns. */
export type ValidateDdoResult =
  | {
    /** The node accepted the DDO. */
    valid: true;
    /** The node's signature over the DDO, as received (only when a signer was given; its shape is not specified). */
    signature?: unknown;
  }
  | {
    /** The node refused the DDO. */
    valid: false;
    /** The node's validation messages (`Validation error: ...`). */
    errors: string[];
  };

/** Options of {@linkcode OceanNode.validateDdo}. */
export interface ValidateDdoOptions {
  /** With a signer the node also signs the DDO (`validateDDO`); without one it only checks. */
  signer?: Signer;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** The body of {@linkcode OceanNode.validateDdo}, on the node's HTTP client; documented there. */
export async function validateDdo(
  http: HttpClient,
  ddo: Ddo | Record<string, unknown>,
  options: ValidateDdoOptions = {},
): Promise<ValidateDdoResult> {
  const send = async (fields?: Record<string, string>) => {
    try {
      const response = await http.request({
        method: "POST",
        path: "/api/aquarius/assets/ddo/validate",
        json: fields ? { ddo, ...fields } : { ddo },
        // Checking alone changes nothing on the node; a signed check spends a nonce.
        idempotent: !fields,
        sensitive: !!fields,
        signal: options.signal,
      });
      const text = response.text().trim();
      return fields && text
        ? { valid: true as const, signature: parseMaybeJson(text) }
        : { valid: true as const };
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) {
        const said = error.serverMessage ?? error.body;
        return { valid: false as const, errors: said.split(/\n|;\s*/).filter(Boolean) };
      }
      throw error;
    }
  };
  if (!options.signer) return await send();
  const signer = checksummedSigner(options.signer);
  return await signedCall(
    { http, signer, command: "validateDDO", action: "validate a DDO", signal: options.signal },
    (fields) =>
      send({
        publisherAddress: fields.consumerAddress,
        nonce: fields.nonce,
        signature: fields.signature,
      }),
  );
}

function parseMaybeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
