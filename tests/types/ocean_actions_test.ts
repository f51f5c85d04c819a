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

declare const job: actions.ComputeJob;
declare const signer: actions.Signer;

/** The compute actions, never run: each returns what its method returns. */
export function computeActionCalls(): void {
  expectType<Equals<ReturnType<typeof actions.jobs>, ReturnType<OceanNode["jobs"]>>>(true);
  expectType<Equals<ReturnType<typeof actions.waitForJob>, ReturnType<OceanNode["waitForJob"]>>>(
    true,
  );
  expectType<
    Equals<ReturnType<typeof actions.computeLogs>, ReturnType<OceanNode["computeLogs"]>>
  >(true);
  expectType<
    Equals<ReturnType<typeof actions.startCompute>, ReturnType<OceanNode["startCompute"]>>
  >(true);
  expectType<
    Equals<ReturnType<typeof actions.quoteCompute>, ReturnType<OceanNode["quoteCompute"]>>
  >(true);
  void actions.waitForJob(node, { consumer: signer, jobId: "j", pollMs: 100 });
  void actions.resultText(node, { job, index: 0, signer });

  // @ts-expect-error Two positional arguments then the parameters: the job id is a parameter.
  void actions.waitForJob(node, signer, "j");
  // @ts-expect-error Which result to read is required.
  void actions.resultText(node, { job, signer });
  // @ts-expect-error Stopping a job is signed by its owner.
  void actions.stopCompute(node, "j", {});
}
