/**
 * The DDO 5.0.0 form in the sandbox node: a seeded 4.1.0 DDO written as
 * ddo.js writes a 5.0.0 one (a verifiable credential, the asset under
 * `credentialSubject`), and the form the node sends of a DDO it holds with
 * its asset also at the top level (as tidepool's `ddo()` reads it, so the
 * node's own handlers read every version alike).
 *
 * @module
 */

import type { Ddo, DdoService } from "../../ocean/ddo.ts";

/** A JSON-LD value object in English, as ddo.js writes descriptions. */
function english(text: string) {
  return { "@value": text, "@language": "en", "@direction": "ltr" };
}

/**
 * A 4.1.0 DDO in the 5.0.0 form of ddo.js's example (DDOExampleV5), its DID
 * as given (ddo.js names 5.0.0 DIDs `did:ope`): the asset under `credentialSubject` with a JSON-LD
 * description and `license: {name}`, services with a name, a description,
 * a state and credentials, and the credential's `issuer` and `type`.
 */
export function asCredential(ddo: Ddo): Ddo {
  const id = ddo.id;
  const { description, license } = ddo.metadata;
  return {
    "@context": ["https://www.w3.org/ns/credentials/v2"],
    version: "5.0.0",
    id,
    credentialSubject: {
      id,
      metadata: { ...ddo.metadata, description: english(description), license: { name: license } },
      services: ddo.services.map((service: DdoService) => ({
        ...service,
        name: service.type === "compute" ? "Compute service" : "Access service",
        description: english(`${service.type} service of ${ddo.metadata.name}`),
        state: 0,
        credentials: [],
      })),
      credentials: { allow: [], deny: [] },
      chainId: ddo.chainId,
      nftAddress: ddo.nftAddress,
      datatokens: ddo.datatokens,
      indexedMetadata: ddo.indexedMetadata,
    },
    // The publisher's address as a DID (ddo.js takes any issuer DID).
    issuer: `did:ethr:${ddo.indexedMetadata?.nft?.owner ?? ddo.nftAddress}`,
    type: ["VerifiableCredential"],
  } as unknown as Ddo;
}

/**
 * The asset of a 5.0.0 DDO as this sandbox writes it (under
 * `credentialSubject`), or undefined for any other version. The sandbox
 * reads its own form here, not through the client's reader, so that a
 * client bug in reading 5.0.0 cannot hide behind the same bug in the node.
 */
function subjectOf(ddo: Ddo): Record<string, unknown> | undefined {
  const subject: unknown = (ddo as { credentialSubject?: unknown }).credentialSubject;
  return subject && typeof subject === "object" && !Array.isArray(subject)
    ? subject as Record<string, unknown>
    : undefined;
}

/** The text of a JSON-LD value object as {@linkcode english} writes it, or the value itself. */
function plainText(value: unknown): unknown {
  return value && typeof value === "object" && "@value" in value
    ? (value as { "@value": unknown })["@value"]
    : value;
}

/**
 * A DDO as the sandbox node holds it: a 5.0.0 DDO gains each field of its
 * credentialSubject that its top level lacks (services as the same objects,
 * metadata with description and license as text), so the node's handlers
 * read every version alike; the credential stays whole. Other DDOs as given.
 */
export function heldForm(ddo: Ddo): Ddo {
  const subject = subjectOf(ddo);
  if (subject === undefined) return ddo;
  const lifted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(subject)) {
    if (!(key in ddo)) lifted[key] = value;
  }
  const metadata = lifted.metadata as Record<string, unknown> | undefined;
  if (metadata && typeof metadata === "object") {
    const license = metadata.license as { name?: unknown } | undefined;
    lifted.metadata = {
      ...metadata,
      description: plainText(metadata.description),
      ...(license && typeof license === "object" ? { license: license.name } : {}),
    };
  }
  return { ...ddo, ...lifted } as Ddo;
}

/**
 * What the node sends of a DDO it holds: a 5.0.0 DDO without the copies of
 * its credentialSubject's fields at the top level (its `id` stays), any
 * other DDO as it is.
 */
export function sentForm(ddo: Ddo): Ddo {
  const subject = subjectOf(ddo);
  if (subject === undefined) return ddo;
  return Object.fromEntries(
    Object.entries(ddo).filter(([key]) => key === "id" || !(key in subject)),
  ) as Ddo;
}
