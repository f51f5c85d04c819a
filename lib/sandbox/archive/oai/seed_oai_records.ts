/**
 * Seeded records for the OAI-PMH and ResourceSync sandboxes: Japanese and
 * English titles, creators, dates and subjects, sets by resource type, a
 * few deleted records, generated from a fixed seed.
 *
 * @module
 */

import { SeededRandom } from "../../_random.ts";
import type { OaiSandboxRecord } from "./types.ts";

/** Options of {@linkcode seedOaiRecords}. */
export interface SeedOaiRecordsOptions {
  /** How many records; default 250. */
  count?: number;
  /** The seed; default 7. */
  seed?: number;
  /** The site path in identifiers, `account/db`; default `acme/letters`. */
  site?: string;
  /** Share of deleted records; default 0.02. */
  deletedShare?: number;
}

const SUBJECTS: readonly [string, string][] = [
  ["東京湾", "Tokyo Bay"],
  ["富士山", "Mount Fuji"],
  ["京都の寺院", "Temples of Kyoto"],
  ["江戸の町並み", "Streets of Edo"],
  ["北海道の開拓", "Settlement of Hokkaido"],
  ["瀬戸内海の島々", "Islands of the Seto Inland Sea"],
  ["長崎の港", "Port of Nagasaki"],
  ["大阪の商家", "Merchant houses of Osaka"],
  ["奈良の鹿", "Deer of Nara"],
  ["日光東照宮", "Nikko Toshogu"],
];

const KINDS: Record<string, [string, string]> = {
  item: ["資料", "Document"],
  map: ["地図", "Map"],
  letter: ["書簡", "Letter"],
  photograph: ["写真", "Photograph"],
  collection: ["コレクション", "Collection"],
};

const CREATORS = [
  "葛飾北斎",
  "歌川広重",
  "伊能忠敬",
  "Philipp Franz von Siebold",
  "Felice Beato",
  "小川一眞",
  "Isabella Bird",
  "南方熊楠",
];

const TYPES = ["item", "map", "letter", "photograph", "collection"];
const TYPE_WEIGHTS = [50, 20, 15, 12, 3];
const START = Date.UTC(2020, 0, 1);
const SPAN_SECONDS = 6 * 365 * 24 * 3600;

/**
 * Generates seeded sandbox records.
 *
 * @param options Count, seed, site path and share of deletions.
 * @returns Records in identifier order, with distinct datestamps per record.
 *
 * @example Ten records
 * ```ts
 * const records = seedOaiRecords({ count: 10 });
 * console.log(records.length, records[0].dc.title);
 * ```
 */
export function seedOaiRecords(options: SeedOaiRecordsOptions = {}): OaiSandboxRecord[] {
  const count = options.count ?? 250;
  const site = options.site ?? "acme/letters";
  const random = new SeededRandom(options.seed ?? 7);
  const deletedShare = options.deletedShare ?? 0.02;
  const records: OaiSandboxRecord[] = [];
  for (let i = 1; i <= count; i++) {
    const slug = `r-${String(i).padStart(6, "0")}`;
    const type = random.weighted(TYPES, TYPE_WEIGHTS);
    const [subjectJa, subjectEn] = random.pick(SUBJECTS);
    const [kindJa, kindEn] = KINDS[type];
    const year = random.int(1700, 1945);
    const createdAt = START + random.int(0, SPAN_SECONDS) * 1000;
    const updatedAt = createdAt + random.int(0, 90 * 24 * 3600) * 1000;
    const deleted = random.chance(deletedShare);
    const creators = random.sample(CREATORS, random.int(1, 2));
    const titleJa = `${subjectJa}の${kindJa}（${year}年）`;
    const titleEn = `${kindEn} of ${subjectEn}, ${year}`;
    const dc: Record<string, string[]> = {
      title: [titleJa, titleEn],
      creator: creators,
      date: [String(year)],
      type: [type],
      subject: [subjectJa, subjectEn],
      identifier: [`https://archive.example/${site}/data/${slug}`],
      language: [random.chance(0.7) ? "jpn" : "eng"],
      rights: ["CC BY 4.0"],
    };
    if (random.chance(0.4)) {
      dc.description = [`${subjectEn}: ${kindEn.toLowerCase()} from ${year} & later copies`];
    }
    records.push({
      identifier: `oai:archive.example:${site}/${slug}`,
      slug,
      datestamp: isoSeconds(updatedAt),
      created: isoSeconds(createdAt),
      setSpec: [type],
      deleted: deleted || undefined,
      dc,
      jps: {
        "schema:name": [titleJa, titleEn],
        "schema:creator": creators,
        "schema:temporal": [String(year)],
        "schema:about": [subjectJa],
        "jps:accessInfo": [`https://archive.example/${site}/resource/${slug}`],
        "jps:sourceInfo.schema:provider": ["Acme Archive"],
      },
    });
  }
  return records;
}

/** ISO 8601 UTC without milliseconds. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
