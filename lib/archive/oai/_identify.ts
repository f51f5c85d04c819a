/**
 * Identify's answer read into {@linkcode OaiIdentify}, with what in it
 * OAI-PMH 2.0 (section 4.2) does not allow, for the caller to report.
 *
 * @module
 */

import { child, children, textOf } from "../../xml/xml.ts";
import { DAY, parseUtc } from "./_dates.ts";
import type { OaiIdentify } from "./types.ts";

/** The elements section 4.2 requires (adminEmail is checked apart: one or more). */
const REQUIRED = [
  "repositoryName",
  "baseURL",
  "protocolVersion",
  "earliestDatestamp",
  "deletedRecord",
  "granularity",
] as const;

const DELETED_RECORD = ["no", "transient", "persistent"];
const GRANULARITIES = [DAY, "YYYY-MM-DDThh:mm:ssZ"];

/** Identify's description and the departures from section 4.2 found in it (empty when none). */
export interface IdentifyReading {
  identify: OaiIdentify;
  problems: string[];
}

/** Reads the Identify element of an answer; what cannot be read is kept as text or defaulted. */
export function readIdentify(node: unknown): IdentifyReading {
  const text = (name: string) => (textOf(child(node, name)) ?? "").trim();
  const oaiIdentifier = children(node, "description")
    .map((d) => child(d, "oai-identifier"))
    .find((d) => d !== undefined);
  const problems: string[] = [];
  const missing: string[] = REQUIRED.filter((name) => text(name) === "");
  if (children(node, "adminEmail").length === 0) missing.push("adminEmail");
  if (missing.length > 0) problems.push(`no ${missing.join(", ")}`);
  const version = text("protocolVersion");
  if (version !== "" && version !== "2.0") {
    problems.push(`protocolVersion ${version} (read as 2.0)`);
  }
  const earliest = text("earliestDatestamp");
  // Section 4.2 requires a UTC datestamp; say so rather than guess a date.
  if (earliest && !parseUtc(earliest)) {
    problems.push(
      `earliestDatestamp is not a date: ${earliest} (kept as text; from and until are not checked against it)`,
    );
  }
  const deleted = text("deletedRecord");
  if (deleted !== "" && !DELETED_RECORD.includes(deleted)) {
    problems.push(`deletedRecord ${deleted} (not one of ${DELETED_RECORD.join(", ")})`);
  }
  const granularity = text("granularity");
  if (granularity !== "" && !GRANULARITIES.includes(granularity)) {
    problems.push(`granularity ${granularity} (from and until are sent as days)`);
  }
  return {
    identify: {
      repositoryName: text("repositoryName"),
      baseURL: text("baseURL"),
      protocolVersion: version,
      adminEmail: children(node, "adminEmail").map((e) => (textOf(e) ?? "").trim()),
      earliestDatestamp: earliest,
      deletedRecord: deleted,
      granularity: GRANULARITIES.includes(granularity) ? granularity : DAY,
      compression: children(node, "compression").map((e) => (textOf(e) ?? "").trim()),
      repositoryIdentifier: textOf(child(oaiIdentifier, "repositoryIdentifier"))?.trim(),
    },
    problems,
  };
}
