/**
 * The Ocean node client: catalogue search into Arquero tables, DDOs,
 * indexing state, file information and compute environments.
 *
 * @module
 */

export * from "./ocean_node.ts";
export * from "./assets_table.ts";
export * from "./ddo.ts";
export * from "./types.ts";
export * from "./signer.ts";
export * from "./sign_request.ts";
// The compute, download and publish functions take the node's HttpClient;
// users reach them as OceanNode methods, documented there. Their errors,
// status table, columns and types:
export * from "./compute/types.ts";
export * from "./compute/job_statuses.ts";
export * from "./compute/job_failed_error.ts";
export {
  JOB_COLUMNS,
  JOB_RESULT_COLUMNS,
  SAVED_RESULT_COLUMNS,
  type SavedResult,
} from "./compute/job_columns.ts";
export type { JobsOptions } from "./compute/jobs.ts";
export type { AuthToken, CreateAuthTokenParameters } from "./auth_token.ts";
export type { StartFreeComputeParameters } from "./compute/start_free_compute.ts";
export type {
  ComputeAssetTerms,
  ComputePayment,
  ComputePaymentTerms,
  InitializeComputeParameters,
  InitializeComputeReturnType,
  PaidComputeAssetRef,
} from "./compute/initialize_compute.ts";
export type {
  ComputeEscrowQuote,
  ComputeQuote,
  EscrowAuthorization,
  EscrowSent,
  EscrowTerms,
  QuoteComputeParameters,
  StartComputeParameters,
  StartComputeReturnType,
} from "./compute/start_compute.ts";
export type { WaitForJobOptions } from "./compute/wait_for_job.ts";
export type { DownloadResultsOptions } from "./compute/download_results.ts";
export type { ResultTextOptions } from "./compute/result_text.ts";
export type { ComputeLogsOptions, JobControlOptions } from "./compute/job_control.ts";
export type { EncryptInput, EncryptOptions } from "./publish/encrypt.ts";
export type { DecryptParameters } from "./publish/decrypt.ts";
export type { ValidateDdoOptions, ValidateDdoResult } from "./publish/validate_ddo.ts";
export type { DownloadParameters, DownloadReturnType } from "./download/download.ts";
export type {
  InitializeParameters,
  InitializeReturnType,
  ProviderFee,
} from "./download/initialize.ts";
export type { PagedReadOptions } from "../paging/types.ts";
export type { AssetRow, JobResultRow, JobRow, SavedResultRow } from "./rows.ts";
export { TAG_COUNT_COLUMNS, type TagCountRow, tags } from "./asset_tags.ts";
export { ordersWithAssets, type OrdersWithAssetsOptions } from "./orders_with_assets.ts";
export {
  type AssetOrderNode,
  type AssetOrderTarget,
  orderAsset,
  type OrderAssetOptions,
  type OrderAssetParameters,
  type QuoteOrderOptions,
  type QuoteOrderParameters,
  SANDBOX_CHAIN_ID,
} from "./order/order_asset.ts";
export { quoteOrder } from "./order/quote_order.ts";
export { QUOTE_TOTAL_COLUMNS, QUOTE_TRANSACTION_COLUMNS } from "./order/quote_table.ts";
export {
  type ChainHex,
  type DatatokenOrder,
  type MaxPrice,
  type OrderAccount,
  orderDatatoken,
  type OrderDatatokenParameters,
  type OrderProviderFee,
  type OrderQuote,
  type PaidPart,
  type PaymentPart,
  type PlannedPayment,
  type PlannedTransaction,
  type PreparedOrder,
  prepareOrder,
  type QuotedOrder,
  type QuotedToken,
} from "./order/order_datatoken.ts";
export {
  chainOrders,
  chainOrderSchema,
  type ChainOrdersOptions,
  compareOrders,
} from "./order/chain_orders.ts";
export { escrowSchema, escrowTable, type EscrowTableOptions } from "./order/escrow_table.ts";
export {
  type EscrowWithdrawOptions,
  type EscrowWithdrawQuote,
  type EscrowWithdrawResult,
  quoteEscrowWithdraw,
  withdrawEscrow,
} from "./order/escrow_withdraw.ts";
export {
  downloadAsset,
  type DownloadAssetOptions,
  type DownloadAssetParameters,
  type DownloadAssetReturnType,
} from "./order/download_asset.ts";
