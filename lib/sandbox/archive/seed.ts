/**
 * The seeded data of the archive sandbox: two accounts, public and private
 * databases of each service, several thousand resources (letters, maps,
 * photographs, books, collections with children) in Japanese and English,
 * authority entities, image assets and API keys. Same seed, same data.
 *
 * @module
 */

import { SeededRandom } from "../_random.ts";

/** A metadata value as stored. */
export type SeedValue = string | number | (string | number)[];

/** One resource as the sandbox stores it. */
export interface SeedResource {
  /** Numeric id, as a string. */
  id: string;
  /** URL slug, unique in the database. */
  slug: string;
  /** Item or collection. */
  type: "item" | "collection";
  /** Title. */
  title: string;
  /** Metadata, by property name (`dcterms:creator`, ...). */
  metadata: Record<string, SeedValue>;
  /** Whether anonymous readers see it. */
  is_public: boolean;
  /** The parent's slug, or null. */
  parent: string | null;
  /** Creation time, ISO 8601. */
  created: string;
  /** Last modification time, ISO 8601. */
  updated: string;
}

/** A resource removed from a site, which OAI-PMH still lists as a deleted record. */
export interface WithdrawnResource {
  /** Its slug. */
  slug: string;
  /** Its resource type (the record's set). */
  type: string;
  /** When it was removed (ISO 8601). */
  removed: string;
}

/** One database (site). */
export interface SeedDatabase {
  /** Slug of the owning account. */
  account: string;
  /**
   * Resources removed from the site: OAI-PMH lists each as a deleted record
   * (its Identify says deletedRecord persistent).
   */
  withdrawn?: WithdrawnResource[];
  /** URL slug of the database. */
  slug: string;
  /** Title of the site. */
  title: string;
  /** Whether anonymous readers see it. */
  is_public: boolean;
  /** Site settings, as `PATCH /api/{account}/{db}/settings` changes them. */
  settings: {
    service: "dl" | "text" | "records";
    provider: string;
    card?: string;
    rdf?: boolean;
    ogImage?: string;
    /**
     * Set when the site is backed by an external search engine or a
     * federated search: it then has no modification timestamps, and
     * ResourceSync answers 404 for it.
     */
    search?: "external" | "federated";
  };
  /** Resources of the database. */
  resources: SeedResource[];
}

/** One authority record. */
export interface SeedEntity {
  /** URL slug of the entity. */
  slug: string;
  /** Place or person. */
  entityType: "place" | "person";
  /** Preferred label, by language. */
  prefLabel: Record<string, string>;
  /** Other labels. */
  altLabels: string[];
  /** Equivalent IRIs in other authorities. */
  sameAs: string[];
  /** WGS 84 coordinates, for places. */
  coordinates?: { lat: number; lon: number };
}

/** One account. */
export interface SeedAccount {
  /** URL slug of the account. */
  slug: string;
  /** Display name. */
  title: string;
  /** Authority records of the account. */
  entities: SeedEntity[];
}

/** One uploaded image. */
export interface SeedAsset {
  /** Slug of the owning account. */
  account: string;
  /** Asset id. */
  id: string;
  /** Whether anonymous readers see it. */
  is_public: boolean;
  /** `uploading` (URL issued), `queued` (finalized, converting), `ready` or `failed`. */
  /** `stored`: an upload without a derivative whose file is in (nothing to convert). */
  status: "uploading" | "queued" | "ready" | "failed" | "stored";
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** Serve the info document in Image API 2 form (`@id`). */
  legacyV2?: boolean;
  /** The database the upload was issued for. */
  db?: string;
  /** The derivative asked for (`ptif`). */
  derivative?: string;
  /** The stored file name under the sandbox's upload folder. */
  file?: string;
  /** Bytes stored. */
  size?: number;
  /** Why the conversion failed. */
  error?: string;
}

/** One API key as the sandbox stores it: the secret only as a SHA-256 hash. */
export interface SeedKey {
  publicId: string;
  secretSha256: string;
  account: string;
  scopes: ("read" | "write")[];
  admin: boolean;
}

/** A custom domain of a site. */
export interface SeedDomain {
  /** Host name. */
  host: string;
  /** Slug of the owning account. */
  account: string;
  /** Slug of the database it serves. */
  database: string;
  /** `subdomain` of the platform (active at once) or `external` (needs DNS records). */
  kind: "subdomain" | "external";
  /** Active, or pending verification. */
  status: "active" | "pending";
  /** The DNS records an external domain must carry. */
  records: { type: "CNAME" | "TXT"; name: string; value: string }[];
}

/** Everything the sandbox serves. */
export interface ArchiveSeed {
  /** Accounts, with their API keys stored as hashes. */
  accounts: SeedAccount[];
  /** Databases of every account, public and private. */
  databases: SeedDatabase[];
  /** Uploaded and seeded image assets. */
  assets: SeedAsset[];
  /** Custom domains (none at first). */
  domains?: SeedDomain[];
}

/**
 * Identity-provider ID tokens the sandbox accepts for POST /api/me/keys and
 * /api/me/domains (its stand-in for a dashboard login), by account.
 */
export const SANDBOX_ID_TOKENS: Record<string, string> = {
  shinano: "idt.shinano.sandbox-login",
  harbor: "idt.harbor.sandbox-login",
};

/**
 * Test keys of the sandbox, in full. Only their hashes enter the key
 * table; these plain values exist so tests can authenticate.
 */
export const SANDBOX_KEYS = {
  /** Read scope on account `shinano`. */
  shinanoRead: "tpk_shinano_r.sk-7Q2mX9vLr4Tb8NwEe3Ju",
  /** Read and write scope on account `shinano`. */
  shinanoWrite: "tpk_shinano_w.sk-Hh5Pq1Zc8Ykd2RsVt6Ga",
  /** Read scope on account `harbor`. */
  harborRead: "tpk_harbor_r.sk-Ls3Nf7Wq0Bx5Cm9Kd2Pe",
  /** Admin key (scope=all). */
  admin: "tpk_admin.sk-Ad9Mn2Bv7Cx4Zl1Kj8Hg",
} as const;

const KEY_GRANTS: Record<keyof typeof SANDBOX_KEYS, Omit<SeedKey, "publicId" | "secretSha256">> = {
  shinanoRead: { account: "shinano", scopes: ["read"], admin: false },
  shinanoWrite: { account: "shinano", scopes: ["read", "write"], admin: false },
  harborRead: { account: "harbor", scopes: ["read"], admin: false },
  admin: { account: "shinano", scopes: ["read", "write"], admin: true },
};

/** The key table: public id, SHA-256 of the secret, grants. */
export async function seedKeys(): Promise<SeedKey[]> {
  const keys: SeedKey[] = [];
  for (const [name, key] of Object.entries(SANDBOX_KEYS)) {
    const [publicId, secret] = key.split(".");
    keys.push({
      publicId,
      secretSha256: await sha256Hex(secret),
      ...KEY_GRANTS[name as keyof typeof SANDBOX_KEYS],
    });
  }
  return keys;
}

/** SHA-256 of text, as lowercase hex. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const PLACES: SeedEntity[] = [
  place(
    "tokyo",
    "Tokyo",
    "東京",
    "Tōkyō",
    ["Edo", "江戸", "Tokio", "Toukyou"],
    "Q1490",
    1850147,
    35.6895,
    139.6917,
  ),
  place(
    "kyoto",
    "Kyoto",
    "京都",
    "Kyōto",
    ["Miyako", "Heian-kyō", "Kioto", "Kyouto"],
    "Q34600",
    1857910,
    35.0116,
    135.7681,
  ),
  place(
    "osaka",
    "Osaka",
    "大阪",
    "Ōsaka",
    ["Naniwa", "浪速", "Oosaka"],
    "Q35765",
    1853909,
    34.6937,
    135.5023,
  ),
  place(
    "nagasaki",
    "Nagasaki",
    "長崎",
    "Nagasaki",
    ["Nangasaqui", "Nagasaqui"],
    "Q38234",
    1856177,
    32.7503,
    129.8779,
  ),
  place(
    "yokohama",
    "Yokohama",
    "横浜",
    "Yokohama",
    ["Yokuhama", "Kanagawa"],
    "Q38283",
    1848354,
    35.4437,
    139.638,
  ),
  place(
    "hakodate",
    "Hakodate",
    "函館",
    "Hakodate",
    ["箱館", "Hakodadi"],
    "Q200054",
    2130188,
    41.7687,
    140.7288,
  ),
];

const PEOPLE: SeedEntity[] = [
  person("soseki", "Natsume Sōseki", "夏目漱石", [
    "Natsume Soseki",
    "Natsume Kinnosuke",
    "夏目金之助",
  ], "Q193935"),
  person(
    "hearn",
    "Lafcadio Hearn",
    "小泉八雲",
    ["Koizumi Yakumo", "Patrick Lafcadio Hearn"],
    "Q272163",
  ),
  person(
    "bird",
    "Isabella Bird",
    "イザベラ・バード",
    ["Isabella Lucy Bird", "Mrs. Bishop"],
    "Q266508",
  ),
  person("siebold", "Philipp Franz von Siebold", "シーボルト", [
    "Siebold",
    "Philipp Franz Balthasar von Siebold",
  ], "Q77043"),
  person("ichiyo", "Higuchi Ichiyō", "樋口一葉", ["Higuchi Ichiyo", "樋口奈津"], "Q1033934"),
];

function place(
  slug: string,
  en: string,
  ja: string,
  latn: string,
  altLabels: string[],
  wikidata: string,
  geonames: number,
  lat: number,
  lon: number,
): SeedEntity {
  return {
    slug,
    entityType: "place",
    prefLabel: { en, ja, "ja-Latn": latn },
    altLabels,
    sameAs: [`http://www.wikidata.org/entity/${wikidata}`, `https://sws.geonames.org/${geonames}/`],
    coordinates: { lat, lon },
  };
}

function person(
  slug: string,
  en: string,
  ja: string,
  altLabels: string[],
  wikidata: string,
): SeedEntity {
  return {
    slug,
    entityType: "person",
    prefLabel: { en, ja },
    altLabels,
    sameAs: [`http://www.wikidata.org/entity/${wikidata}`],
  };
}

const OTHER_CREATORS = [
  "Okada Tarō",
  "岡田太郎",
  "Mary Crawford Fraser",
  "Ernest Satow",
  "Kawase Hasui",
  "Unknown photographer",
];
const RECIPIENTS = [
  "his brother",
  "Basil Hall Chamberlain",
  "the editor",
  "Masaoka Shiki",
  "a friend in London",
];
const SUBJECTS = [
  "trade",
  "harbour",
  "family",
  "travel",
  "architecture",
  "religion",
  "education",
  "外交",
  "商業",
  "祭礼",
];
const LICENSES = [
  "https://creativecommons.org/publicdomain/mark/1.0/",
  "https://creativecommons.org/licenses/by/4.0/",
  "http://rightsstatements.org/vocab/NoC-US/1.0/",
];
const CONDITIONS = ["good", "fair", "poor"];
const NOTES_JA = ["虫損あり", "裏打ちあり", "墨書", "朱印あり"];
const KINDS = ["letter", "map", "photograph", "book"] as const;

interface DatabasePlan {
  account: string;
  slug: string;
  title: string;
  is_public: boolean;
  settings: SeedDatabase["settings"];
  count: number;
  kinds: number[];
}

const PLANS: DatabasePlan[] = [
  {
    account: "shinano",
    slug: "letters",
    title: "Letters and Maps of Meiji Japan",
    is_public: true,
    settings: {
      service: "dl",
      provider: "Shinano Historical Society",
      card: "letters.jpg",
      rdf: true,
    },
    count: 2000,
    kinds: [5, 2, 1, 2],
  },
  {
    account: "shinano",
    slug: "notes",
    title: "Field Notes (staff only)",
    is_public: false,
    settings: { service: "text", provider: "Shinano Historical Society" },
    count: 80,
    kinds: [1, 0, 0, 3],
  },
  {
    account: "shinano",
    slug: "drafts",
    title: "Cataloguing Drafts",
    is_public: false,
    settings: { service: "records", provider: "Shinano Historical Society" },
    count: 60,
    kinds: [1, 1, 1, 1],
  },
  {
    account: "harbor",
    slug: "photos",
    title: "Harbour Photographs 1860-1912",
    is_public: true,
    settings: { service: "records", provider: "Harbor Museum", rdf: true },
    count: 900,
    kinds: [1, 1, 6, 1],
  },
  {
    account: "harbor",
    slug: "ledgers",
    title: "Trading House Ledgers",
    is_public: true,
    settings: { service: "text", provider: "Harbor Museum", search: "external" },
    count: 500,
    kinds: [1, 0, 0, 4],
  },
  {
    account: "harbor",
    slug: "internal",
    title: "Conservation Records",
    is_public: false,
    settings: { service: "dl", provider: "Harbor Museum" },
    count: 80,
    kinds: [1, 1, 1, 1],
  },
];

/** Options of {@linkcode seedArchive}. */
export interface SeedOptions {
  /** Multiplies the number of resources of every database (benchmarks). Default 1. */
  scale?: number;
  /** The seed. Default 20260101. */
  seed?: number;
}

/**
 * Generates the sandbox's data.
 *
 * @param options The scale and the seed.
 * @returns Accounts with entities, databases with resources, assets.
 */
export function seedArchive(options: SeedOptions = {}): ArchiveSeed {
  const rng = new SeededRandom(options.seed ?? 20260101);
  const scale = options.scale ?? 1;
  const entities = [...PLACES, ...PEOPLE];
  const accounts: SeedAccount[] = [
    { slug: "shinano", title: "Shinano Historical Society", entities },
    { slug: "harbor", title: "Harbor Museum", entities: [...PLACES] },
  ];
  const databases = PLANS.map((plan) => ({
    account: plan.account,
    slug: plan.slug,
    title: plan.title,
    is_public: plan.is_public,
    settings: { ...plan.settings },
    resources: seedResources(rng, plan, Math.round(plan.count * scale)),
    withdrawn: plan.is_public ? withdrawn(plan.slug) : undefined,
  }));
  const assets: SeedAsset[] = [
    {
      account: "shinano",
      id: "img-0001",
      is_public: true,
      status: "ready",
      width: 6000,
      height: 4000,
    },
    {
      account: "shinano",
      id: "img-0002",
      is_public: false,
      status: "ready",
      width: 3000,
      height: 4500,
    },
    {
      account: "harbor",
      id: "img-0100",
      is_public: true,
      status: "ready",
      width: 2048,
      height: 1536,
      legacyV2: true,
    },
  ];
  return { accounts, databases, assets };
}

function uuid(rng: SeededRandom): string {
  const hex = rng.hex(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${
    hex.slice(20, 32)
  }`;
}

function label(rng: SeededRandom, entity: SeedEntity): string {
  const roll = rng.next();
  if (roll < 0.5) return entity.prefLabel.en;
  if (roll < 0.75) return entity.prefLabel.ja;
  return rng.pick(entity.altLabels);
}

function timestamp(rng: SeededRandom, fromYear: number): string {
  const ms = Date.UTC(fromYear, 0, 1) + Math.floor(rng.next() * 365 * 86_400_000);
  return new Date(Math.floor(ms / 1000) * 1000).toISOString();
}

function seedResources(rng: SeededRandom, plan: DatabasePlan, count: number): SeedResource[] {
  const resources: SeedResource[] = [];
  const collections: SeedResource[] = [];
  const collectionCount = Math.max(2, Math.round(count * 0.03));
  for (let c = 0; c < collectionCount; c++) {
    const creator = rng.pick(PEOPLE);
    const ja = rng.chance(0.4);
    const created = timestamp(rng, 2024);
    const collection: SeedResource = {
      id: uuid(rng),
      slug: `${plan.slug}-collection-${String(c + 1).padStart(3, "0")}`,
      type: "collection",
      title: ja
        ? `${creator.prefLabel.ja}関係資料 第${c + 1}集`
        : `Papers of ${creator.prefLabel.en}, series ${c + 1}`,
      metadata: {
        "dcterms:type": "collection",
        "dcterms:creator": ja ? creator.prefLabel.ja : creator.prefLabel.en,
        extent: `${rng.int(5, 80)} items`,
      },
      is_public: !plan.is_public || c % 10 !== 7,
      parent: null,
      created,
      updated: created,
    };
    collections.push(collection);
    resources.push(collection);
  }
  for (let i = 0; i < count - collectionCount; i++) {
    const kind = rng.weighted(KINDS, plan.kinds);
    const ja = rng.chance(0.35);
    const where = rng.pick(PLACES);
    const placeLabel = label(rng, where);
    const creatorEntity = rng.chance(0.6) ? rng.pick(PEOPLE) : undefined;
    const creator = creatorEntity ? label(rng, creatorEntity) : rng.pick(OTHER_CREATORS);
    const year = rng.int(1855, 1912);
    const date = rng.chance(0.6)
      ? `${year}-${String(rng.int(1, 12)).padStart(2, "0")}-${
        String(rng.int(1, 28)).padStart(2, "0")
      }`
      : String(year);
    const placeJa = where.prefLabel.ja;
    const title = kind === "letter"
      ? (ja
        ? `${creator}書簡 ${rng.pick(RECIPIENTS)}宛`
        : `Letter from ${creator} to ${rng.pick(RECIPIENTS)}`)
      : kind === "map"
      ? (ja ? `${placeJa}絵図` : `Map of ${placeLabel}, ${year}`)
      : kind === "photograph"
      ? (ja ? `${placeJa}港写真` : `View of ${placeLabel} harbour`)
      : (ja
        ? `${placeJa}案内記 巻${rng.int(1, 5)}`
        : `Travels in ${placeLabel}, vol. ${rng.int(1, 5)}`);
    const metadata: Record<string, SeedValue> = {
      "dcterms:type": kind,
      "dcterms:creator": rng.chance(0.1) ? [creator, rng.pick(OTHER_CREATORS)] : creator,
      "dcterms:date": date,
      "dcterms:spatial": placeLabel,
      "dcterms:language": ja ? "ja" : "en",
      "dcterms:subject": rng.sample(SUBJECTS, rng.int(1, 3)),
    };
    if (rng.chance(0.8)) metadata["schema:license"] = rng.pick(LICENSES);
    else metadata.license = rng.pick(LICENSES);
    if (kind === "book") metadata.pages = rng.int(24, 480);
    if (kind === "map") metadata["寸法"] = `${rng.int(20, 90)} x ${rng.int(20, 120)} cm`;
    if (rng.chance(0.5)) metadata.condition = rng.pick(CONDITIONS);
    if (rng.chance(0.3)) metadata["備考"] = rng.pick(NOTES_JA);
    if (rng.chance(0.4)) metadata.box = `Box ${rng.int(1, 40)}`;
    const created = timestamp(rng, 2024);
    resources.push({
      id: uuid(rng),
      slug: `${kind}-${String(i + 1).padStart(5, "0")}`,
      type: "item",
      title,
      metadata,
      is_public: !plan.is_public || !rng.chance(0.04),
      parent: rng.chance(0.6) ? rng.pick(collections).slug : null,
      created,
      updated: rng.chance(0.3) ? timestamp(rng, 2025) : created,
    });
  }
  return resources;
}

/**
 * Three resources each public site removed in 2025, so that a harvest meets
 * deleted records as a real repository's does; fixed, so they draw nothing
 * from the seeded generator and every other seeded value stays as it was.
 */
function withdrawn(db: string): WithdrawnResource[] {
  return [1, 2, 3].map((n) => ({
    slug: `${db}-withdrawn-${n}`,
    type: "item",
    removed: `2025-0${n + 2}-1${n}T0${n}:00:00.000Z`,
  }));
}
