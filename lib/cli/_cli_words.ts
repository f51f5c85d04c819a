/**
 * The library's advice in the command line's words. An adapter's error or
 * warning says what to do with library options (`pass an apiKey`, `set
 * minBlock`, the `sparql` template tag); on the command line the same
 * advice names flags. Every error line and warning passes through here, so
 * a library hint never reaches a shell user as it is.
 *
 * @module
 */

/** A library phrase, and the command line's for it. */
const WORDS: readonly (readonly [RegExp, string])[] = [
  [
    /values belong in the sparql`\.\.\.` template tag/g,
    'write text values as quoted SPARQL literals ("...") and addresses as <...>',
  ],
  [
    /pass an apiKey with (\w+) scope/g,
    "give --api-key-env NAME, naming the environment variable that holds a key with $1 scope",
  ],
  [
    /Call listMetadataFormats\(\) to see the formats this repository offers, and pass one as metadataPrefix/g,
    "Give --prefix one of the formats this repository offers",
  ],
  [
    /Check subgraphInfo\(table\)\.stale, or set minBlock to make this an error/g,
    "Read at a block the subgraph has indexed with --block N, or run again once it has caught up",
  ],
  [
    /pass allowOtherHosts: true to the client if you trust that host/g,
    "the command line mirrors only the source's own host",
  ],
];

/**
 * A library error's or warning's text with its advice in flags.
 *
 * @param text The text.
 * @returns The text the command line prints.
 */
export function inCliWords(text: string): string {
  return WORDS.reduce((out, [phrase, words]) => out.replace(phrase, words), text);
}
