// The part of n3 the sandbox uses to write Turtle and N-Quads. Declared here because
// @types/n3 pulls in @types/node, whose reference paths make `deno doc` print one
// warning per Node module for every reader of the sandbox's documentation.

/** An RDF term as n3's data factory makes it. */
export interface Term {
  readonly termType: string;
  readonly value: string;
}

/** A quad as n3's data factory makes it. */
export interface Quad {
  readonly subject: Term;
  readonly predicate: Term;
  readonly object: Term;
  readonly graph: Term;
}

/** n3's data factory (RDF/JS). */
export declare const DataFactory: {
  namedNode(value: string): Term;
  literal(value: string, languageOrDatatype?: string | Term): Term;
  defaultGraph(): Term;
  quad(subject: Term, predicate: Term, object: Term, graph?: Term): Quad;
};

/** n3's streaming writer, used synchronously here. */
export declare class Writer {
  constructor(options?: { prefixes?: Record<string, string>; format?: string });
  addQuads(quads: Quad[]): void;
  end(done: (error: unknown, result: string) => void): void;
}
