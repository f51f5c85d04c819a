/**
 * Publishing helpers of the Ocean node: encrypting data with the node's key
 * and validating a DDO.
 *
 * @module
 */

export * from "./encrypt.ts";
export * from "./validate_ddo.ts";
export * from "./decrypt.ts";
