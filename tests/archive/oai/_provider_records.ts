/**
 * Records files for the real Catmandu OAI-PMH provider (the format of
 * `../shared/realservers/README.md`), and restarting it on the same folder
 * and port so that changed records are served under the same base URL.
 */

import { type RealServer, startOaiProvider } from "../../_real_servers.ts";

/** One record of the provider's records file. */
export interface ProviderRecord {
  _id: string;
  datestamp: string;
  sets?: string[];
  deleted?: boolean;
  [field: string]: unknown;
}

/** A provider that can be restarted with other records under the same URL. */
export interface RestartableProvider {
  /** The base URL (the same after every restart). */
  url: string;
  /** Stops the running provider and starts it again serving `records`. */
  restart(records: readonly ProviderRecord[]): Promise<void>;
  /** Stops it and removes its folder. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts the provider on `records`, in a folder of the test's own, pages of `pageSize`. */
export async function startProvider(
  records: readonly ProviderRecord[],
  pageSize = 100,
): Promise<RestartableProvider> {
  const dir = await Deno.makeTempDir({ prefix: "tidepool-oai-provider-" });
  let generation = 0;
  const write = async (list: readonly ProviderRecord[]) => {
    const file = `${dir}/records-${generation++}.json`;
    await Deno.writeTextFile(file, JSON.stringify(list));
    return file;
  };
  let server: RealServer | undefined;
  try {
    server = await startOaiProvider(await write(records), { pageSize, dir: `${dir}/server` });
  } catch (error) {
    await Deno.remove(dir, { recursive: true });
    throw error;
  }
  const url = server.url;
  const port = Number(new URL(url).port);
  return {
    url,
    async restart(list) {
      await server?.stop();
      server = undefined;
      server = await startOaiProvider(await write(list), {
        pageSize,
        dir: `${dir}/server`,
        port,
      });
      if (server.url !== url) throw new Error(`restarted at ${server.url}, not ${url}`);
    },
    async [Symbol.asyncDispose]() {
      await server?.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** The provider's OAI identifier of a record. */
export function oaiId(id: string): string {
  return `oai:repo.example:${id}`;
}

/**
 * Each `<record>` (or `<header>` for ListIdentifiers) of a list as the
 * provider sent it, by identifier: its pages fetched apart, the element cut
 * out of each page's text, with the envelope's namespace declarations on
 * its start tag (as tidepool's `raw` keeps it).
 */
export async function recordsAsSent(
  url: string,
  verb: "ListRecords" | "ListIdentifiers",
  args = "metadataPrefix=oai_dc",
): Promise<Map<string, string>> {
  const element = verb === "ListRecords" ? "record" : "header";
  const expected = new Map<string, string>();
  let query = `verb=${verb}&${args}`;
  for (let page = 0; page < 100; page++) {
    const text = await (await fetch(`${url}?${query}`)).text();
    const root = /<OAI-PMH\b[^>]*>/.exec(text)![0];
    const declarations = (root.match(/\sxmlns(?::\w+)?="[^"]*"/g) ?? []).join("");
    const pattern = new RegExp(`<${element}\\b[\\s\\S]*?</${element}>`, "g");
    for (const [xml] of text.matchAll(pattern)) {
      const id = /<identifier>([^<]*)<\/identifier>/.exec(xml)![1];
      expected.set(id, xml.replace(`<${element}`, `<${element}${declarations}`));
    }
    const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(text)?.[1];
    if (!token) break;
    query = `verb=${verb}&resumptionToken=${encodeURIComponent(token)}`;
  }
  return expected;
}
