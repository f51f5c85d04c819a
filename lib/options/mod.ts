/**
 * Options checked at the door: unknown keys refused with a "did you mean",
 * values checked against their rules, whole numbers made bigints where a
 * bigint goes, before any request.
 *
 * @module
 */

export {
  callChecker,
  type CallRules,
  checkOption,
  checkOptions,
  type OptionRule,
  type OptionRules,
} from "./check_options.ts";
export { closestNames, didYouMean, editDistance } from "./did_you_mean.ts";
