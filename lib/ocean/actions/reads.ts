/**
 * The Ocean node's catalogue reads as free functions of the client (viem's
 * actions): `searchAssets(node, filter, options)`. `OceanNode`'s methods of
 * the same names call these; each loads the code that does the work on its
 * first call, so importing tidepool stays quick.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { StrictOption } from "../../http/unknown_shape.ts";
import { checkCall } from "../_option_rules.ts";
import { checkForms } from "../_ddo_forms.ts";
import { checkQueryBody } from "../_check_query.ts";
import type { WaitForIndexedOptions } from "../_ddo.ts";
import type { AssetFilter, SearchAssetsOptions } from "../_search_body.ts";
import { checkAddress } from "../_validate.ts";
import { assetsTable as toAssetsTable } from "../assets_table.ts";
import type { Ddo } from "../ddo.ts";
import type {
  DdoState,
  DdoStateKey,
  EsStyleQuery,
  FileObject,
  NodeInfo,
  ServiceRef,
  TypesenseQuery,
  TypesenseResult,
} from "../types.ts";
import { ProtocolError } from "../../errors/errors.ts";
import { type NodeHandle, nodeTable, readNodeInfo } from "./_node.ts";

/**
 * The node's information, as {@linkcode OceanNode.info} reads it.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @returns Its version, chain ids and more.
 * @example The version
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * import { info } from "./reads.ts";
 * console.log((await info(node)).version);
 * ```
 */
export async function info(node: NodeHandle): Promise<NodeInfo> {
  return await readNodeInfo(node);
}

/**
 * The nonce the node holds for an address, as {@linkcode OceanNode.nonce} reads it.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param address The wallet address.
 * @returns The nonce, as digits.
 * @example A fresh address
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * import { nonce } from "./reads.ts";
 * console.log(await nonce(node, "0x" + "ab".repeat(20)));
 * ```
 */
export async function nonce(node: NodeHandle, address: string): Promise<string> {
  checkAddress(address);
  const response = await node.http.request({
    path: "/api/services/nonce",
    query: { userAddress: address },
  });
  const body = response.json<{ nonce?: unknown }>();
  const nonce = body?.nonce;
  if (nonce === null || nonce === undefined || !/^[0-9]+(\.0+)?$/.test(String(nonce))) {
    throw new ProtocolError("Unexpected nonce answer: no nonce of digits", {
      details: response.text(),
      hint: "Check that the URL is an Ocean node",
    });
  }
  // Some node versions send a number; large timestamps are exact below 2^53.
  return String(nonce).replace(/\.0+$/, "");
}

/**
 * One asset's DDO, as {@linkcode OceanNode.ddo} reads it.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param did The asset's DID.
 * @returns The DDO.
 * @example The first dataset
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * import { ddo, searchAssets } from "./reads.ts";
 * const [first] = (await searchAssets(node, { type: "dataset" })).objects() as { did: string }[];
 * console.log((await ddo(node, first.did)).metadata.name);
 * ```
 */
export async function ddo(node: NodeHandle, did: string): Promise<Ddo> {
  return await (await import("../_ddo.ts")).fetchDdo(node.http, did);
}

/**
 * Where the indexer is with a DDO, as {@linkcode OceanNode.ddoState} reads it.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param key A `txId`, a `did` or a `didPrefix`.
 * @returns The state.
 * @example By DID
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * import { ddoState, searchAssets } from "./reads.ts";
 * const [first] = (await searchAssets(node, { type: "dataset" })).objects() as { did: string }[];
 * console.log((await ddoState(node, { did: first.did })).valid);
 * ```
 */
export async function ddoState(node: NodeHandle, key: DdoStateKey): Promise<DdoState> {
  return await (await import("../_ddo.ts")).fetchDdoState(node.http, key);
}

/**
 * A raw query of the node's index, as {@linkcode OceanNode.query} sends it.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param body An Elasticsearch-style or Typesense query.
 * @returns The index's answers.
 * @example Ten datasets
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * import { query } from "./reads.ts";
 * const [result] = await query(node, {
 *   size: 10, query: { bool: { filter: [{ term: { "metadata.type": "dataset" } }] } },
 * });
 * console.log(result.found);
 * ```
 */
export async function query(
  node: NodeHandle,
  body: EsStyleQuery | TypesenseQuery,
): Promise<TypesenseResult[]> {
  checkQueryBody(body);
  return await (await import("../_run_query.ts")).runQuery(node.http, body);
}

/**
 * Every asset that matches, as a table, as {@linkcode OceanNode.searchAssets} reads them.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param filter Type, tags, owner, text and more.
 * @param options Paging caps and `strict`.
 * @returns One row per asset.
 * @example Datasets
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * import { searchAssets } from "./reads.ts";
 * console.log((await searchAssets(node, { type: "dataset" })).numRows());
 * ```
 */
export async function searchAssets(
  node: NodeHandle,
  filter: AssetFilter = {},
  options: SearchAssetsOptions = {},
): Promise<ColumnTable> {
  return await nodeTable(
    node,
    { operation: "searchAssets", params: { filter, ...options } },
    async () =>
      (await import("../_search_assets.ts")).searchAssetsTable(node.http, filter, options),
  );
}

/**
 * DDOs as the assets table, as {@linkcode OceanNode.assetsTable} builds it.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param ddos The DDOs.
 * @param options `strict`.
 * @returns One row per asset; nothing is sent.
 * @example Two DDOs
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * import { assetsTable, ddo, searchAssets } from "./reads.ts";
 * const [a, b] = (await searchAssets(node)).array("did") as string[];
 * console.log(assetsTable(node, [await ddo(node, a), await ddo(node, b)]).numRows());
 * ```
 */
export function assetsTable(
  node: NodeHandle,
  ddos: Iterable<Ddo>,
  options: StrictOption = {},
): ColumnTable {
  checkCall("OceanNode.assetsTable", options);
  const list = [...ddos];
  checkForms(list, node.http, options.strict);
  return toAssetsTable(list);
}

/**
 * The files of a service, as {@linkcode OceanNode.fileInfo} reads them.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param target A DID and service id, or a file object.
 * @returns One row per file.
 * @example The first dataset's files
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * import { ddo, fileInfo, searchAssets } from "./reads.ts";
 * const [first] = (await searchAssets(node, { type: "dataset" })).objects() as { did: string }[];
 * const { services } = await ddo(node, first.did);
 * console.log((await fileInfo(node, { did: first.did, serviceId: services[0].id })).numRows());
 * ```
 */
export async function fileInfo(
  node: NodeHandle,
  target: ServiceRef | FileObject,
): Promise<ColumnTable> {
  return await nodeTable(
    node,
    { operation: "fileInfo", params: { ...target } },
    async () => (await import("../_file_info.ts")).fileInfoTable(node.http, target),
  );
}

/**
 * Waits until the node has indexed a DDO, as {@linkcode OceanNode.waitForIndexed} does.
 *
 * @param node The client, from `new OceanNode(url, options)`.
 * @param target A DID, or the publishing `{ txId }`.
 * @param options Polling interval, timeout, `signal`.
 * @returns The DDO once indexed.
 * @example An indexed asset
 * ```ts
 * import { startOceanSandbox } from "../../sandbox/ocean/mod.ts";
 * import { OceanNode } from "../ocean_node.ts";
 * await using sandbox = startOceanSandbox({ count: 20 });
 * const node = new OceanNode(sandbox.url, { progress: false });
 * import { searchAssets, waitForIndexed } from "./reads.ts";
 * const [first] = (await searchAssets(node, { type: "dataset" })).objects() as { did: string }[];
 * console.log((await waitForIndexed(node, first.did)).id === first.did);
 * ```
 */
export async function waitForIndexed(
  node: NodeHandle,
  target: string | { txId: string },
  options: WaitForIndexedOptions = {},
): Promise<Ddo> {
  checkCall("OceanNode.waitForIndexed", options);
  return await (await import("../_ddo.ts")).waitIndexed(node.http, target, options);
}
