/**
 * The expression search sandbox: a local service following the spec, with
 * seeded data from thirty real public-domain Japanese works (made-up pids).
 *
 * @module
 */

export * from "./start_expression_sandbox.ts";
export type { StoredExpression } from "./_seed.ts";
export type { SandboxCharacter, SandboxWork } from "./_works.ts";
export type { LocalServer } from "../_serve.ts";
