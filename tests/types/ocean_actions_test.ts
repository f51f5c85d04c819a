/**
 * Type-level tests of `@tidepool/tidepool/ocean/actions`: each action
 * returns what the `OceanNode` method of the same name returns, and takes
 * the client first. Checked by `deno check`; nothing here sends a request.
 */

import type { OceanNode } from "../../lib/ocean/mod.ts";
import * as actions from "../../lib/ocean/actions/mod.ts";
import { type Equals, expectType } from "./_type_checks.ts";

declare const node: OceanNode;

/** The calls, never run: only type-checked. */
export function oceanActionCalls(): void {
  expectType<Equals<ReturnType<typeof actions.ddo>, ReturnType<OceanNode["ddo"]>>>(true);
  expectType<
    Equals<ReturnType<typeof actions.searchAssets>, ReturnType<OceanNode["searchAssets"]>>
  >(true);
  expectType<Equals<ReturnType<typeof actions.download>, ReturnType<OceanNode["download"]>>>(
    true,
  );
  void actions.searchAssets(node, { type: "dataset" }, { maxRows: 100 });

  // @ts-expect-error An action takes the client first.
  void actions.ddo("did:op:1");
  // @ts-expect-error Not an asset filter.
  void actions.searchAssets(node, { kind: "dataset" });
  // @ts-expect-error A download names the order's transaction, the signer and the folder.
  void actions.download(node, { did: "did:op:1", serviceId: "0" });
}
