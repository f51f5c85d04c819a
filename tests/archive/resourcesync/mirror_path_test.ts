/**
 * The mapping from a location to its path in the mirror's folder is one to
 * one: pairs of different locations that decoding, the sanitiser, a query,
 * a literal tag-like name or another host could make alike, each get a path
 * of its own; one URL written two ways is one location.
 */

import assert from "node:assert/strict";
import { mirrorPath } from "../../../lib/archive/resourcesync/_mirror_layout.ts";

const HOST = "src.example:8080";
const at = (path: string) => `http://${HOST}${path}`;

Deno.test("locations that decoding or the sanitiser would make alike get paths of their own", () => {
  const locs = [
    at("/aA"),
    at("/a%41"),
    at("/a%2541"),
    at("/d/%C3%A9"),
    at("/d/%c3%a9"),
    at("/d/x%2Fy"),
    at("/d/x/y"),
    at("/d/x:y"),
    at("/d/x_y"),
    at("/a/"),
    at("/a/index"),
    at("/a/b?x=1"),
    at("/a/b%3Fx=1"),
    at("/a/b"),
    at("/a/b~0123abcd"),
    at("/a/~b"),
    at("/a/b.txt~0123abcd.txt"),
    at("/other.example/x"),
    at("/~other.example/x"),
    "http://other.example/x",
    at("/%7Eother.example/x"),
    at("/a/%ZZ"),
    at("/a/%25ZZ"),
  ];
  const paths = locs.map((loc) => mirrorPath(loc, HOST));
  const byPath = new Map<string, string[]>();
  locs.forEach((loc, i) => byPath.set(paths[i], [...byPath.get(paths[i]) ?? [], loc]));
  const shared = [...byPath].filter(([, of]) => of.length > 1);
  assert.deepEqual(shared, [], "locations sharing a path");
});

Deno.test("a name as the source writes it stays as it is, and one URL written two ways is one path", () => {
  assert.equal(mirrorPath(at("/data/book-00007"), HOST), "data/book-00007");
  assert.equal(mirrorPath(at("/data/a%20b.txt"), HOST), "data/a b.txt");
  assert.equal(mirrorPath(at("/data/a b.txt"), HOST), "data/a b.txt");
  assert.equal(mirrorPath(at("/d/%C3%A9t%C3%A9.txt"), HOST), "d/été.txt");
  // Decoded, a tag-like literal or another host: tagged, so no untagged name is theirs.
  assert.match(mirrorPath(at("/a%41"), HOST), /^aA~[0-9a-f]{8}$/);
  assert.match(mirrorPath(at("/b~0123abcd"), HOST), /^b~0123abcd~[0-9a-f]{8}$/);
  assert.match(mirrorPath("http://other.example/x", HOST), /^~other\.example~[0-9a-f]{8}\/x$/);
});

Deno.test("a resource named like a temporary file is tagged: no mirrored file has a half file's name", () => {
  const path = mirrorPath(at("/data/.big.bin.0123abcd.part"), HOST);
  assert.match(path, /^data\/_big\.bin\.0123abcd~[0-9a-f]{8}\.part$/);
  assert.doesNotMatch(path.split("/")[1], /^\..+\.[0-9a-f]{8}\.part$/);
});
