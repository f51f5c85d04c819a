/**
 * The Ocean node's file access and publishing calls as free functions of
 * the client (viem's actions): `download(node, parameters)`. `OceanNode`'s
 * methods of the same names call these; each loads the code that does the
 * work on its first call.
 *
 * @module
 */

import { checkCall } from "../_option_rules.ts";
import type { AuthToken, CreateAuthTokenParameters } from "../auth_token.ts";
import type { Ddo } from "../ddo.ts";
import type {
  DownloadParameters,
  DownloadReturnType,
  InitializeParameters,
  InitializeReturnType,
} from "../download/mod.ts";
import type {
  DecryptParameters,
  EncryptInput,
  EncryptOptions,
  ValidateDdoOptions,
  ValidateDdoResult,
} from "../publish/mod.ts";
import { checkServedHere, type NodeHandle } from "./_node.ts";

/**
 * The provider fee and datatoken of a download, as {@linkcode OceanNode.initialize} asks them.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param parameters `did`, `serviceId`, `consumer`.
 * @returns The node's terms.
 * @example Before ordering
 * ```ts ignore (needs a datatoken and provider fee from a chain: tests/chain runs it on anvil)
 * const { providerFee, datatoken } = await initialize(node, { did, serviceId, consumer: signer.address });
 * ```
 */
export async function initialize(
  node: NodeHandle,
  parameters: InitializeParameters,
): Promise<InitializeReturnType> {
  checkCall("OceanNode.initialize", parameters);
  const { did, serviceId } = parameters;
  await checkServedHere(node, { did, serviceId, action: "initialize a download" });
  return await (await import("../download/mod.ts")).initialize(node.http, parameters);
}

/**
 * Downloads one file of an ordered service, as {@linkcode OceanNode.download} does.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param parameters `did`, `serviceId`, the order's `txId`, `signer`, `dir`.
 * @returns The saved file.
 * @example After an order
 * ```ts ignore (needs the transaction of an order paid on a chain: tests/chain runs it on anvil)
 * const file = await download(node, { did, serviceId, txId, signer, dir: "data", verify: true });
 * ```
 */
export async function download(
  node: NodeHandle,
  parameters: DownloadParameters,
): Promise<DownloadReturnType> {
  checkCall("OceanNode.download", parameters);
  const { did, serviceId } = parameters;
  await checkServedHere(node, { did, serviceId, action: "download" });
  return await (await import("../download/mod.ts")).download(node.http, parameters);
}

/**
 * Encrypts files or a DDO with the node's key, as {@linkcode OceanNode.encrypt} does.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param data The files, or the DDO.
 * @param options `signer`.
 * @returns The encrypted text.
 * @example A file list
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { SANDBOX_WALLET_KEY } from "../../sandbox/ocean/compute/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { signerFromPrivateKey } from "../signer.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
 * import { encrypt } from "./files.ts";
 * const files = await encrypt(node, [{ type: "url", url: "https://data.example/a.csv", method: "GET" }], { signer });
 * console.log(files.length > 0);
 * ```
 */
export async function encrypt(
  node: NodeHandle,
  data: EncryptInput,
  options: EncryptOptions,
): Promise<string> {
  checkCall("OceanNode.encrypt", options);
  return await (await import("../publish/mod.ts")).encrypt(node.http, data, options);
}

/**
 * Decrypts a DDO the node encrypted, as {@linkcode OceanNode.decrypt} does.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param parameters `signer`, `chainId`, and the document or its transaction.
 * @returns The DDO's text.
 * @example A sealed DDO
 * ```ts ignore (needs a decrypter key the node trusts)
 * const text = await decrypt(node, { signer: decrypter, chainId: 11155111, encryptedDocument: sealed });
 * ```
 */
export async function decrypt(node: NodeHandle, parameters: DecryptParameters): Promise<string> {
  checkCall("OceanNode.decrypt", parameters);
  return await (await import("../publish/mod.ts")).decrypt(node.http, parameters);
}

/**
 * Validates a DDO against the node's schemas, as {@linkcode OceanNode.validateDdo} does.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param ddo The DDO.
 * @param options `signer`, for the node's signature.
 * @returns Whether it is valid, and the errors.
 * @example A DDO of the catalogue
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * import { ddo, searchAssets } from "./reads.ts";
 * import { validateDdo } from "./files.ts";
 * const [first] = (await searchAssets(node, { type: "dataset" })).objects() as { did: string }[];
 * const result = await validateDdo(node, await ddo(node, first.did));
 * console.log(result.valid);
 * ```
 */
export async function validateDdo(
  node: NodeHandle,
  ddo: Ddo | Record<string, unknown>,
  options: ValidateDdoOptions = {},
): Promise<ValidateDdoResult> {
  checkCall("OceanNode.validateDdo", options);
  return await (await import("../publish/mod.ts")).validateDdo(node.http, ddo, options);
}

/**
 * A token for the node's signed calls, as {@linkcode OceanNode.createAuthToken} makes it.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param parameters `signer` and how long it holds.
 * @returns The token.
 * @example A token for a wallet
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { SANDBOX_WALLET_KEY } from "../../sandbox/ocean/compute/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * import { signerFromPrivateKey } from "../signer.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * const signer = signerFromPrivateKey(SANDBOX_WALLET_KEY);
 * import { createAuthToken } from "./files.ts";
 * const token = await createAuthToken(node, { signer });
 * console.log(String(token));
 * ```
 */
export async function createAuthToken(
  node: NodeHandle,
  parameters: CreateAuthTokenParameters,
): Promise<AuthToken> {
  checkCall("OceanNode.createAuthToken", parameters);
  return await (await import("../auth_token.ts")).createAuthToken(node.http, parameters);
}
