/**
 * Order and download in one call: every file of a service, streamed to
 * disk, with the order reused when it is still valid.
 *
 * @module
 */

import { checkCall } from "../_option_rules.ts";
import type { DownloadReturnType } from "../download/download.ts";
import type { OceanNode } from "../ocean_node.ts";
import { orderAsset, type OrderAssetOptions, type OrderAssetParameters } from "./order_asset.ts";
import type { DatatokenOrder } from "./order_datatoken.ts";

/** Options of {@linkcode downloadAsset}. */
export interface DownloadAssetOptions extends OrderAssetOptions {
  /** The folder to save into. */
  dir: string;
  /** Check size and SHA-256 against the node's fileInfo before a file gets its name. */
  verify?: boolean;
}

/** Parameters of {@linkcode downloadAsset}: the order's target, its options and the folder. */
export interface DownloadAssetParameters extends OrderAssetParameters, DownloadAssetOptions {}

/** What {@linkcode downloadAsset} did. */
export interface DownloadAssetReturnType {
  /** The order used (new or reused). */
  order: DatatokenOrder;
  /** The saved files, in file-index order. */
  files: DownloadReturnType[];
}

/**
 * Orders a service (or reuses a still-valid order) and downloads every one
 * of its files, each streamed to disk under its final name only once complete.
 *
 * @param node The Ocean node that serves the asset.
 * @param parameters `did`, `serviceId`, `signer` (the buyer), chain, `maxPrice`, folder.
 * @returns The order and the saved files.
 * @example Buy and fetch a dataset on the sandbox chain
 * ```ts ignore (needs a chain with Ocean contracts: tests/chain runs this on anvil, which takes minutes)
 * const { order, files } = await downloadAsset(node, {
 *   did, serviceId, signer, rpcUrl: sandbox.chain!.rpcUrl, dir: "data", maxPrice: "2",
 * });
 * ```
 */
export async function downloadAsset(
  node: OceanNode,
  parameters: DownloadAssetParameters,
): Promise<DownloadAssetReturnType> {
  const { dir, verify, ...orderParameters } = checkCall("downloadAsset", parameters);
  const { did, serviceId, signer } = orderParameters;
  const order = await orderAsset(node, orderParameters);
  const info = await node.fileInfo({ did, serviceId });
  const files: DownloadReturnType[] = [];
  for (let fileIndex = 0; fileIndex < info.numRows(); fileIndex++) {
    files.push(
      await node.download({
        did,
        serviceId,
        txId: order.txHash,
        signer,
        dir,
        fileIndex,
        verify,
      }),
    );
  }
  return { order, files };
}
