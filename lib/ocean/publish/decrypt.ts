/**
 * Node-to-node decryption (`POST /api/services/decrypt`): a decrypter the
 * node authorises asks it to open a DDO it encrypted, as the indexer of
 * another node does.
 *
 * @module
 */

import type { HttpClient } from "../../http/client.ts";
import { AuthError, HttpError, httpErrorFields, TidepoolError } from "../../errors/errors.ts";
import { checksummedSigner } from "../_address.ts";
import { keccak256 } from "../_keccak.ts";
import { nextNonce } from "../_nonces.ts";
import { storedNonce } from "../_signed_call.ts";
import { signRequest } from "../sign_request.ts";
import { inSigningLane } from "../_signing_lane.ts";
import { checkAddress } from "../_validate.ts";
import type { Signer } from "../signer.ts";

/** Parameters of {@linkcode OceanNode.decrypt}. */
export interface DecryptParameters {
  /** The decrypter's signer: the node itself or an address on its list of authorised decrypters. */
  signer: Signer;
  /** The chain the asset is published on. */
  chainId: number;
  /** The encrypted DDO (`0x` hex), when not read from `transactionId`. */
  encryptedDocument?: string;
  /** The metadata flags of the publishing event (2: ECIES encrypted, 1: compressed). */
  flags?: number;
  /** The SHA-256 of the plain DDO, as the publishing event recorded it. */
  documentHash?: string;
  /** The data NFT of the asset. */
  dataNftAddress?: string;
  /** The transaction that published (or updated) the DDO; the node then reads the document from it. */
  transactionId?: string;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/**
 * The message a decrypter signed for ocean-node before 1.0, which a node of
 * that age checks instead of today's signed request (address + nonce +
 * `decryptDDO`): `(transactionId || dataNftAddress) + decrypterAddress +
 * chainId + nonce`, keccak-256 and EIP-191 over the 32 bytes (that node
 * read them with ethers' `getBytes`, which keeps leading zeros). The spec shows
 * neither; docs/ASSUMPTIONS.md records both.
 */
function pre1Message(
  fields: Pick<DecryptParameters, "transactionId" | "dataNftAddress" | "chainId"> & {
    decrypterAddress: string;
    nonce: string;
  },
): string {
  return `${
    fields.transactionId || fields.dataNftAddress || ""
  }${fields.decrypterAddress}${fields.chainId}${fields.nonce}`;
}

/** The answer of a node before 1.0 to a signature over another message. */
const PRE1_MISMATCH = /invalid signature or does not match/i;

/** The body of {@linkcode OceanNode.decrypt}, on the node's HTTP client; documented there. */
export async function decrypt(http: HttpClient, parameters: DecryptParameters): Promise<string> {
  const signer = checksummedSigner(parameters.signer);
  if (!Number.isInteger(parameters.chainId) || parameters.chainId <= 0) {
    throw new TidepoolError(`Cannot decrypt: chainId ${parameters.chainId} is not a chain id`, {
      hint: "Give the chain the asset is published on, such as 11155111",
    });
  }
  if (parameters.dataNftAddress !== undefined) {
    checkAddress(parameters.dataNftAddress, "data NFT address");
  }
  if (!parameters.transactionId && !parameters.encryptedDocument) {
    throw new TidepoolError("Cannot decrypt: give the encryptedDocument or its transactionId", {
      hint: "The node reads the document from the publishing transaction, or takes it as given",
    });
  }
  if (parameters.encryptedDocument && !/^0x([0-9a-fA-F]{2})+$/.test(parameters.encryptedDocument)) {
    throw new TidepoolError("Cannot decrypt: encryptedDocument is not 0x-prefixed hex", {
      hint: "Pass the document as the node's encrypt answered it",
    });
  }
  const address = signer.address;
  return await inSigningLane(http.baseUrl, address, async () => {
    const send = async (pre1: boolean) => {
      const stored = (await storedNonce(http, address, parameters.signal)) ?? "0";
      const nonce = nextNonce(address, stored);
      const signature = pre1
        ? await signer.signMessage({
          message: {
            raw: keccak256(new TextEncoder().encode(
              pre1Message({ ...parameters, decrypterAddress: address, nonce }),
            )),
          },
        })
        : (await signRequest(signer, "decryptDDO", { nonce })).signature;
      return await http.request({
        method: "POST",
        path: "/api/services/decrypt",
        json: {
          decrypterAddress: address,
          chainId: parameters.chainId,
          nonce,
          signature,
          transactionId: parameters.transactionId,
          dataNftAddress: parameters.dataNftAddress,
          encryptedDocument: parameters.encryptedDocument,
          flags: parameters.flags,
          documentHash: parameters.documentHash,
        },
        idempotent: false,
        sensitive: true,
        signal: parameters.signal,
      });
    };
    try {
      try {
        return await (await send(false)).text();
      } catch (error) {
        // A node before 1.0 checks its own message and says so with 400: sign that one, once.
        const said = error instanceof HttpError ? `${error.serverMessage ?? error.body}` : "";
        if (!(error instanceof HttpError && error.status === 400 && PRE1_MISMATCH.test(said))) {
          throw error;
        }
        return await (await send(true)).text();
      }
    } catch (error) {
      if (error instanceof HttpError && error.status === 403) {
        throw new AuthError(
          `Cannot decrypt: the node does not accept ${address} as a decrypter: ${
            error.serverMessage ?? error.body
          }`,
          {
            ...httpErrorFields(error),
            hint:
              "Only the node itself and the addresses on its list of authorised decrypters may decrypt; " +
              `ask the node operator to add ${address}`,
          },
        );
      }
      const signatureRefused = error instanceof HttpError &&
        (error.status === 401 ||
          (error.status === 400 && PRE1_MISMATCH.test(`${error.serverMessage ?? error.body}`)));
      if (error instanceof HttpError && signatureRefused) {
        throw new AuthError(
          `Cannot decrypt: the node did not accept the signature of ${address}: ${
            error.serverMessage ?? error.body
          }`,
          {
            ...httpErrorFields(error),
            hint: "Check that the signer's key is the decrypter's; another client raising the " +
              "stored nonce at the same time also causes this: try again",
          },
        );
      }
      throw error;
    }
  }, parameters.signal);
}
