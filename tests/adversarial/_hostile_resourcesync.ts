/**
 * A hostile ResourceSync source for the mirror's adversarial tests: a
 * capability list, a resource list the test rewrites between runs, and
 * resources answered by the test, on 127.0.0.1 with an ephemeral port and a
 * bound on the requests it answers. It counts what it is asked.
 */

import { serveLocal } from "../../lib/sandbox/_serve.ts";

/** One listed resource. */
export interface ListedResource {
  /** The loc: absolute, or below the source (`/x`). */
  loc: string;
  length?: number | string;
  hash?: string;
  lastmod?: string;
}

const esc = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

const xml = (body: string) =>
  new Response(
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">${body}</urlset>`,
    { headers: { "content-type": "application/xml" } },
  );

/**
 * Starts the source. `listed` is asked at every read of the resource list;
 * `answer` answers every other path (404 when it gives nothing).
 */
export function hostileResourceSync(
  listed: (origin: string) => ListedResource[],
  answer: (
    path: string,
    request: Request,
  ) => Response | undefined | Promise<Response | undefined>,
  maxRequests = 2_000,
) {
  const asked: string[] = [];
  const server = serveLocal((request) => {
    const url = new URL(request.url);
    if (url.pathname === "/cap.xml") {
      return xml(
        `<rs:md capability="capabilitylist"/><url><loc>${url.origin}/list.xml</loc><rs:md capability="resourcelist"/></url>` +
          `<url><loc>${url.origin}/changes.xml</loc><rs:md capability="changelist"/></url>`,
      );
    }
    if (url.pathname === "/changes.xml") return xml(`<rs:md capability="changelist"/>`);
    if (url.pathname === "/list.xml") {
      return xml(
        `<rs:md capability="resourcelist" at="2026-01-01T00:00:00Z"/>` +
          listed(url.origin).map((e) => {
            const loc = e.loc.startsWith("/") ? url.origin + e.loc : e.loc;
            const md = [
              e.length === undefined ? "" : `length="${e.length}"`,
              e.hash === undefined ? "" : `hash="${esc(e.hash)}"`,
            ].join(" ");
            const lastmod = e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : "";
            return `<url><loc>${esc(loc)}</loc>${lastmod}<rs:md ${md}/></url>`;
          }).join(""),
      );
    }
    asked.push(url.pathname + url.search);
    return Promise.resolve(answer(url.pathname, request)).then((response) =>
      response ?? new Response("not here", { status: 404 })
    );
  }, { maxRequests });
  return { server, asked };
}

/** Every file below a folder (links listed, never followed), by relative path. */
export async function treeOf(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string, prefix: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(`${folder}/${entry.name}`, relative);
      else out.push(relative);
    }
  };
  await walk(root, "");
  return out.sort();
}

/** Quiet client options. */
export const quiet = { progress: false as const, warn: () => {} };
