/**
 * Loads parquet-wasm on first use, so importing tidepool does not compile
 * its WebAssembly module.
 *
 * @module
 */

type ParquetWasm = typeof import("parquet-wasm");

let loading: Promise<ParquetWasm> | undefined;

/** The parquet-wasm module, imported once. */
export function parquetWasm(): Promise<ParquetWasm> {
  loading ??= import("parquet-wasm");
  return loading;
}
