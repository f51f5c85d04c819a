/**
 * Seeded, deterministic Ocean asset descriptions (DDO v4.1.0, or 5.0.0 on
 * request) for the sandbox node and the sandbox subgraph.
 *
 * Each asset has its own random stream drawn from the seed and its index; the
 * creation dates are spread over two years whatever the count, so the same
 * options (count and seed) always give the same DDOs, and the subgraph sandbox
 * rebuilds the same datatokens by calling this with the same options.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { getAddress } from "viem";
import { SeededRandom } from "../_random.ts";
import { BLOCK_SECONDS, blockMs } from "../sandbox_now.ts";
import type { Ddo, DdoDatatoken, DdoService } from "../../ocean/ddo.ts";
import { asCredential } from "./_credential_form.ts";

export type { Ddo } from "../../ocean/ddo.ts";

/** Options of {@linkcode seedAssets}. */
export interface SeedAssetsOptions {
  /** Number of assets. Default 2,000. */
  count?: number;
  /** Seed of the generator. Default 20260926. */
  seed?: number;
  /**
   * The DDO form: `4.1.0` (default), or `5.0.0`, ddo.js's verifiable
   * credential with the asset under `credentialSubject` and `did:ope` DIDs
   * (the same assets otherwise).
   */
  ddoVersion?: "4.1.0" | "5.0.0";
}

/** Chain id of every seeded asset (the test network of the spec). */
export const SEED_CHAIN_ID = 11155111;

/** The service endpoint most seeded assets name (the sandbox node itself). */
export const SEED_SERVICE_ENDPOINT = "https://node1.sandbox.tidepool.invalid";

const START_BLOCK = 6_760_000; // the first block of the catalogue
// Creation dates span two years from that block on the sandbox's chain clock
// (about 2023-09 to 2025-09), so every DDO date lies before SANDBOX_NOW.
const START_MS = blockMs(START_BLOCK);
const SPAN_MS = 2 * 365 * 24 * 3600 * 1000;
const BLOCK_MS = BLOCK_SECONDS * 1000;

const TOPICS: [string, string[]][] = [
  ["air quality", ["air-quality", "pollution", "environment", "sensors"]],
  ["weather station", ["weather", "climate", "time-series", "sensors"]],
  ["ocean temperature", ["ocean", "climate", "temperature", "satellite"]],
  ["electricity load", ["energy", "grid", "time-series", "forecasting"]],
  ["solar irradiance", ["energy", "solar", "weather", "satellite"]],
  ["traffic counts", ["mobility", "traffic", "smart-city", "iot"]],
  ["bike sharing trips", ["mobility", "smart-city", "transport"]],
  ["retail transactions", ["retail", "finance", "tabular"]],
  ["crypto prices", ["defi", "crypto", "finance", "time-series"]],
  ["DEX swaps", ["defi", "crypto", "on-chain"]],
  ["clinical trial outcomes", ["health", "medical", "tabular"]],
  ["chest X-ray images", ["health", "medical", "images", "computer-vision"]],
  ["crop yields", ["agriculture", "climate", "tabular"]],
  ["soil moisture", ["agriculture", "iot", "sensors"]],
  ["news headlines", ["nlp", "text", "media"]],
  ["product reviews", ["nlp", "text", "sentiment", "retail"]],
  ["satellite land cover", ["satellite", "geospatial", "images"]],
  ["flood gauges", ["hydrology", "climate", "geospatial", "time-series"]],
  ["shipping positions", ["ais", "maritime", "geospatial", "mobility"]],
  ["wave heights", ["ocean", "waves", "surfing", "time-series"]],
];

const FREQUENCIES = ["Hourly", "Daily", "Weekly", "Monthly", "Real-time", "Historical"];
const PLACES = [
  "Berlin",
  "Lisbon",
  "Singapore",
  "Nairobi",
  "São Paulo",
  "Toronto",
  "Tokyo",
  "North Sea",
  "Bavaria",
  "California",
  "Kenya",
  "Global",
];
const ALGO_KINDS: [string, "python" | "javascript" | "r"][] = [
  ["Random forest classifier", "python"],
  ["Gradient boosting regressor", "python"],
  ["ARIMA forecaster", "python"],
  ["Summary statistics", "python"],
  ["Anomaly detector", "python"],
  ["Sentiment scorer", "python"],
  ["Image segmenter", "python"],
  ["Feature extractor", "javascript"],
  ["CSV profiler", "javascript"],
  ["Geo aggregator", "r"],
];
const IMAGES: Record<string, [string, string, string][]> = {
  python: [
    ["oceanprotocol/algo_dockers", "python-branin", "python $ALGO"],
    ["oceanprotocol/algo_dockers", "python-sql", "python $ALGO"],
    ["python", "3.11-slim", "python $ALGO"],
    ["jupyter/scipy-notebook", "2024-05-27", "python $ALGO"],
  ],
  javascript: [["node", "20-alpine", "node $ALGO"], ["node", "latest", "node $ALGO"]],
  r: [["rocker/r-ver", "4.4.1", "Rscript $ALGO"]],
};
const AUTHORS = [
  "Ocean Protocol Foundation",
  "OPF",
  "DataUnion Labs",
  "Tidal Analytics",
  "Copernicus Relay",
  "Marta Ferreira",
  "Kwame Mensah",
  "Aiko Tanaka",
  "Lukas Becker",
  "Priya Raman",
  "Open Energy Collective",
  "City Mobility Lab",
  "AgriSense GmbH",
  "MedData Trust",
  "Chainlens",
];
const LICENSES = [
  "https://market.oceanprotocol.com/terms",
  "CC-BY-4.0",
  "CC0-1.0",
  "ODbL-1.0",
  "MIT",
  "Apache-2.0",
  "Proprietary",
];
const ANIMALS = ["Clam", "Orca", "Seal", "Krill", "Squid", "Eel", "Otter", "Tuna", "Coral", "Ray"];
const MOODS = ["Motivated", "Jolly", "Brave", "Calm", "Eager", "Gentle", "Lucky", "Witty", "Bold"];

/** Derives a per-asset random stream from the seed and the index. */
function streamFor(seed: number, index: number): SeededRandom {
  return new SeededRandom(
    (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index, 0xc2b2ae35)) | 0,
  );
}

function address(random: SeededRandom): string {
  return getAddress(`0x${random.hex(20)}`);
}

function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

const OWNERS: string[] = (() => {
  const random = new SeededRandom(0x0ce4);
  return Array.from({ length: 40 }, () => address(random));
})();

/** One algorithm already generated, so later datasets can trust it. */
interface SeededAlgorithm {
  did: string;
  filesChecksum: string;
  containerSectionChecksum: string;
}

/**
 * Generates the sandbox's assets: datasets and algorithms with access and
 * compute services, several authors and owners, tags from a realistic
 * vocabulary, creation dates spread over two years, every NFT state (about 8 %
 * unlisted, state 5), compute-only datasets that trust earlier algorithms, and
 * algorithms with containers. The same options always give the same DDOs.
 *
 * @param options Number of assets, seed and DDO form.
 * @returns The DDOs, in publication order.
 *
 * @example Ten assets, always the same
 * ```ts
 * import { seedAssets } from "./assets_seed.ts";
 * const ddos = seedAssets({ count: 10 });
 * console.assert(ddos.length === 10);
 * console.assert(ddos[3].id === seedAssets({ count: 10 })[3].id);
 * ```
 */
export function seedAssets(options: SeedAssetsOptions = {}): Ddo[] {
  const count = options.count ?? 2000;
  const seed = options.seed ?? 20260926;
  const credential = options.ddoVersion === "5.0.0";
  const ddos: Ddo[] = [];
  const algorithms: SeededAlgorithm[] = [];
  for (let i = 0; i < count; i++) {
    const ddo = seedOne(streamFor(seed, i), i, count, algorithms, credential ? "ope" : "op");
    ddos.push(credential ? asCredential(ddo) : ddo);
    if (ddo.metadata.type === "algorithm") {
      const container = ddo.metadata.algorithm!.container;
      algorithms.push({
        did: ddo.id,
        filesChecksum: sha256Hex(`${ddo.id}/files`),
        containerSectionChecksum: sha256Hex(
          container.entrypoint + container.image + container.tag + container.checksum,
        ),
      });
    }
  }
  return ddos;
}

function seedOne(
  random: SeededRandom,
  index: number,
  count: number,
  algorithms: SeededAlgorithm[],
  didMethod: "op" | "ope",
): Ddo {
  const isAlgorithm = random.chance(0.22);
  // Spread creation over two years, roughly in publication order.
  const createdMs = START_MS + Math.floor(((index + random.next()) / count) * SPAN_MS);
  const updatedMs = random.chance(0.3)
    ? Math.min(createdMs + random.int(1, 200) * 86_400_000, START_MS + SPAN_MS)
    : createdMs;
  const nftAddress = address(random);
  const did = `did:${didMethod}:${sha256Hex(nftAddress + String(SEED_CHAIN_ID))}`;
  const owner = random.pick(OWNERS);
  const [topic, topicTags] = random.pick(TOPICS);
  const place = random.pick(PLACES);
  const author = random.pick(AUTHORS);
  const tags = random.sample(topicTags, random.int(1, topicTags.length));
  if (random.chance(0.15)) tags.push(random.pick(["open-data", "research", "sample", "test"]));
  const state = random.weighted([0, 1, 2, 3, 4, 5], [80, 3, 3, 2, 4, 8]);
  // Every seeded asset is served by the sandbox node itself (startOceanSandbox
  // puts its own address in place of SEED_SERVICE_ENDPOINT); the draw stays,
  // so the rest of the catalogue is the same for a seed. An asset served by
  // another node is published on purpose (see the serviceEndpoint tests).
  random.chance(0.9);
  const endpoint = SEED_SERVICE_ENDPOINT;

  let name: string;
  let description: string;
  let algorithm: Ddo["metadata"]["algorithm"];
  const serviceKinds: ("access" | "compute")[] = [];
  if (isAlgorithm) {
    const [kind, language] = random.pick(ALGO_KINDS);
    const [image, tag, entrypoint] = random.pick(IMAGES[language]);
    name = `${kind} for ${topic}`;
    description = `${kind} written in ${language} for ${topic} data. ` +
      `Reads /data/inputs and writes its results to /data/outputs.`;
    algorithm = {
      language,
      version: `0.${random.int(1, 9)}`,
      container: { entrypoint, image, tag, checksum: `sha256:${random.hex(32)}` },
    };
    serviceKinds.push(random.chance(0.6) ? "compute" : "access");
  } else {
    name = `${random.pick(FREQUENCIES)} ${topic} ${place} ${2019 + random.int(0, 6)}`;
    description = `${name}. Collected by ${author}; ${random.int(2, 900)} thousand rows ` +
      `in CSV, updated ${random.pick(["daily", "weekly", "monthly", "once"])}.`;
    const layout = random.weighted(["access", "both", "compute"], [55, 25, 20]);
    if (layout !== "compute") serviceKinds.push("access");
    if (layout !== "access") serviceKinds.push("compute");
  }

  const services: DdoService[] = [];
  const datatokens: DdoDatatoken[] = [];
  const mood = random.pick(MOODS);
  const animal = random.pick(ANIMALS);
  for (const [n, kind] of serviceKinds.entries()) {
    const id = sha256Hex(`${did}/${kind}/${n}`);
    const datatokenAddress = address(random);
    const service: DdoService = {
      id,
      type: kind,
      files: `0x04${random.hex(96)}`,
      datatokenAddress,
      serviceEndpoint: endpoint,
      timeout: random.pick([0, 0, 3600, 86400, 604800]),
    };
    if (kind === "compute") {
      const trusted = !isAlgorithm && algorithms.length > 0
        ? random.sample(algorithms, random.int(1, Math.min(3, algorithms.length)))
        : [];
      service.compute = {
        allowRawAlgorithm: random.chance(0.1),
        allowNetworkAccess: random.chance(0.3),
        publisherTrustedAlgorithmPublishers: random.chance(0.2) ? [owner] : [],
        publisherTrustedAlgorithms: trusted.map((a) => ({ ...a })),
      };
    }
    services.push(service);
    const symbol = `${mood.slice(0, 3).toUpperCase()}${animal.slice(0, 3).toUpperCase()}-${
      random.int(1, 99)
    }`;
    datatokens.push({
      address: datatokenAddress,
      name: `${mood} ${animal} Token`,
      symbol,
      serviceId: id,
    });
  }

  const eventMs = createdMs + random.int(20, 600) * 1000;
  const block = START_BLOCK + Math.floor((eventMs - START_MS) / BLOCK_MS);
  return {
    "@context": ["https://w3id.org/did/v1"],
    id: did,
    version: "4.1.0",
    chainId: SEED_CHAIN_ID,
    nftAddress,
    metadata: {
      created: iso(createdMs),
      updated: iso(updatedMs),
      type: isAlgorithm ? "algorithm" : "dataset",
      name,
      description,
      tags,
      author,
      license: random.pick(LICENSES),
      additionalInformation: { termsAndConditions: true },
      ...(algorithm ? { algorithm } : {}),
    },
    services,
    datatokens,
    indexedMetadata: {
      event: {
        // ocean-node's indexer writes `txid` (MetadataEventProcessor.ts); the spec says `tx`.
        txid: `0x${random.hex(32)}`,
        block,
        from: owner,
        contract: nftAddress,
        datetime: iso(eventMs).replace("Z", ""),
      },
      nft: {
        address: nftAddress,
        name: "Ocean Data NFT",
        symbol: "OCEAN-NFT",
        state,
        tokenURI: `data:application/json;base64,${btoa(`{"name":"${did}"}`)}`,
        owner,
        created: iso(eventMs).replace("Z", ""),
      },
      purgatory: { state: random.chance(0.01), reason: "" },
      stats: [{
        datatokenAddress: datatokens[0].address,
        name: datatokens[0].name,
        symbol: datatokens[0].symbol,
        serviceId: datatokens[0].serviceId,
        orders: random.weighted([0, random.int(1, 5), random.int(6, 200)], [50, 35, 15]),
        prices: [{ type: "dispenser", price: "0", contract: address(random) }],
      }],
    },
  };
}
