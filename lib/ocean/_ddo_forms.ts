/**
 * The forms a DDO comes in, read the same way. 4.0.0 has `nft`, `event` and
 * `datatokens` at the top level; 4.1.0 to 4.7.0 keep the indexer's fields
 * under `indexedMetadata`; 5.0.0 (ddo.js) is a verifiable credential whose
 * asset sits under `credentialSubject`, with `description` a JSON-LD value
 * object (`{"@value", "@language"}`) and `license` an object (`{name}`).
 *
 * @module
 */

import { reportUnknownShape } from "../http/unknown_shape.ts";
import type { Ddo, DdoEvent, DdoNft } from "./ddo.ts";

/** The part of a DDO that describes the asset: `credentialSubject` in 5.0, the DDO before. */
export function ddoBody(ddo: Ddo): Ddo {
  const subject = ddo.credentialSubject;
  return subject && typeof subject === "object" && !Array.isArray(subject)
    ? subject as unknown as Ddo
    : ddo;
}

/**
 * A DDO with its asset at the top level, where orders, downloads and compute
 * read it (`services`, `chainId`, `nftAddress`, `metadata`, `datatokens`,
 * `indexedMetadata`). A 5.0.0 DDO gains each field of its credentialSubject
 * that its top level lacks, as the same object (a service is one object
 * whichever way it is reached); `metadata` is a copy with its description
 * and license as text, as the `Ddo` type has them. The credential's own
 * fields and the whole credentialSubject stay as sent, so nothing is lost.
 * Any other form comes back as it is.
 */
export function assetAtTopLevel(ddo: Ddo): Ddo {
  const subject = ddoBody(ddo);
  if (subject === ddo) return ddo;
  const lifted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(subject)) {
    if (!(key in ddo)) lifted[key] = value;
  }
  const metadata: unknown = subject.metadata;
  if ("metadata" in lifted && metadata && typeof metadata === "object") {
    const { description, license } = metadata as Record<string, unknown>;
    lifted.metadata = {
      ...metadata,
      ...(description === undefined ? {} : { description: textValue(description) ?? description }),
      ...(license === undefined ? {} : { license: licenseName(license) ?? license }),
    };
  }
  return { ...ddo, ...lifted } as Ddo;
}

/** The data NFT as the indexer saw it, wherever the form keeps it. */
export function nftOf(ddo: Ddo): DdoNft | undefined {
  const body = ddoBody(ddo);
  return body.indexedMetadata?.nft ?? body.nft;
}

/** The chain event the indexer stored the DDO from, wherever the form keeps it. */
export function eventOf(ddo: Ddo): DdoEvent | undefined {
  const body = ddoBody(ddo);
  const event = body.indexedMetadata?.event;
  return event && Object.keys(event).length > 0 ? event : body.event ?? event;
}

/**
 * Whether the asset is in purgatory (flagged by the market), its reason, or
 * undefined when the DDO has no purgatory entry. The entry's fields are not
 * in the spec: `state` is read as a boolean or its text, `reason` as text.
 */
export function purgatoryOf(
  ddo: Ddo,
): { state: boolean | undefined; reason: string | undefined } | undefined {
  const body = ddoBody(ddo);
  const entry = body.indexedMetadata?.purgatory ?? (body as Record<string, unknown>).purgatory;
  if (!entry || typeof entry !== "object") return undefined;
  const { state, reason } = entry as Record<string, unknown>;
  return {
    state: typeof state === "boolean"
      ? state
      : state === "true"
      ? true
      : state === "false"
      ? false
      : undefined,
    reason: typeof reason === "string" && reason !== "" ? reason : undefined,
  };
}

/**
 * The indexer's statistics entries, as a list: the spec says an array of
 * objects, older nodes and the DDO examples send one object.
 */
export function statsOf(ddo: Ddo): Record<string, unknown>[] | undefined {
  const body = ddoBody(ddo);
  const stats: unknown = body.indexedMetadata?.stats ?? (body as Record<string, unknown>).stats;
  if (Array.isArray(stats)) {
    return stats.filter((entry): entry is Record<string, unknown> =>
      entry !== null && typeof entry === "object"
    );
  }
  return stats && typeof stats === "object" ? [stats as Record<string, unknown>] : undefined;
}

/**
 * A text field as a string: a string as it is, a JSON-LD value object
 * (`{"@value": "...", "@language": "en"}`) by its value, a list of value
 * objects (one per language) by its first; anything else is null.
 */
export function textValue(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.length > 0 ? textValue(value[0]) : null;
  if (value && typeof value === "object") {
    const inner = (value as Record<string, unknown>)["@value"];
    return typeof inner === "string" ? inner : null;
  }
  return null;
}

/** A license as a string: a name or URL as it is, 5.0's `{name}` by its name. */
export function licenseName(value: unknown): string | null {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return textValue((value as Record<string, unknown>).name);
  }
  return textValue(value);
}

/**
 * A date-time string the indexers write loosely, made one `Date.parse`
 * reads as meant: without a zone (`2022-06-07T23:18:26`, microseconds
 * included) it is UTC, not the machine's zone; an offset followed by a
 * stray `Z` (`2000-10-31T01:30:00.000-05:00Z`, Aquarius) keeps the offset.
 */
export function utc(value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value)) return `${value}Z`;
  const stray = /^(\d{4}-\d\d-\d\dT[\d:.]+[+-]\d\d:\d\d)Z$/.exec(value);
  return stray ? stray[1] : value;
}

/** Why tidepool does not know a DDO's form, or undefined when it does. */
export function unknownForm(ddo: Ddo): string | undefined {
  const version = typeof ddo.version === "string" ? ddo.version : undefined;
  // ddo.js writes "deprecated" for a revoked asset: id, chain, NFT and state only.
  if (version === "deprecated") return undefined;
  if (!version || !/^[45]\.\d+\.\d+$/.test(version)) return `version ${version ?? "missing"}`;
  const metadata = ddoBody(ddo).metadata;
  if (!metadata || typeof metadata !== "object") return `version ${version} without metadata`;
  return undefined;
}

/**
 * Reports the DDOs whose form tidepool does not know (read as far as the
 * columns find their fields): one warning for them all, or with `strict`
 * an error at the first.
 */
export function checkForms(
  ddos: readonly Ddo[],
  reporter: { warn(message: string): void },
  strict: boolean | undefined,
): void {
  const unknown = new Map<string, string[]>();
  for (const ddo of ddos) {
    const why = unknownForm(ddo);
    if (!why) continue;
    const did = typeof ddo.id === "string" && ddo.id !== "" ? ddo.id : "(no id)";
    if (strict) {
      reportUnknownShape(reporter, {
        strict: true,
        message: `A DDO of a form tidepool does not know: ${did} (${why})`,
        details: JSON.stringify(ddo).slice(0, 300),
      });
    }
    unknown.set(why, [...unknown.get(why) ?? [], did]);
  }
  if (unknown.size === 0) return;
  const count = [...unknown.values()].reduce((n, dids) => n + dids.length, 0);
  const kinds = [...unknown].map(([why, dids]) => `${why}: ${dids.slice(0, 3).join(", ")}`);
  reportUnknownShape(reporter, {
    strict: false,
    message: `${count} DDOs of a form tidepool does not know (${
      kinds.join("; ")
    }); their rows hold only the fields found. Pass strict: true to make this an error`,
  });
}
