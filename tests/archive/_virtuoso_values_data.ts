/**
 * The data of the Virtuoso value tests (and of the answers recorded from it
 * in tests/fixtures/virtuoso/): one resource `ex:a` holding one value of
 * each kind that a reader can lose (decimals past 2^53, booleans, a blank
 * node, a language tag, a string with a tab, a line break, quotes and a
 * backslash, doubles written `INF`, `NaN`, `1.0E3`, times past the
 * millisecond), and `rows` resources `ex:r<i>` with a text, a decimal and a
 * blank node each, for reads of many rows.
 */

/** The example namespace. */
export const EX = "http://example.org/";
/** The XML Schema namespace. */
export const XSD = "http://www.w3.org/2001/XMLSchema#";

/** The text of row `i`: a tab, a line break, quotes and a backslash inside. */
export function rowText(i: number): string {
  return `row ${i}\tafter a tab\nafter a line break, "quoted" and back\\slash`;
}

/** The decimal of row `i`, past 2^53 so that a double cannot hold it. */
export function rowDecimal(i: number): string {
  return String(9007199254740993n + 2n * BigInt(i));
}

function escape(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(
    /\t/g,
    "\\t",
  );
}

/** The Turtle of the data, with `rows` rows. */
export function valuesTurtle(rows: number): string {
  const lines = [
    `@prefix ex: <${EX}> .`,
    `@prefix xsd: <${XSD}> .`,
    `ex:a ex:dec "9007199254741993"^^xsd:decimal, "0.1"^^xsd:decimal, "123456789012345.678"^^xsd:decimal .`,
    `ex:a ex:small "1.25"^^xsd:decimal, "-0.5"^^xsd:decimal .`,
    `ex:a ex:bool true, false .`,
    `ex:a ex:dbl "INF"^^xsd:double, "NaN"^^xsd:double, "1.0E3"^^xsd:double, "-INF"^^xsd:float .`,
    `ex:a ex:when "2024-05-01T10:00:00.123456+02:00"^^xsd:dateTime, "2024-05-01T10:00:00Z"^^xsd:dateTime .`,
    `ex:a ex:whenMs "2024-05-01T10:00:00.125+02:00"^^xsd:dateTime, "2024-05-01T10:00:00Z"^^xsd:dateTime .`,
    `ex:a ex:int "+007"^^xsd:integer, "-0012"^^xsd:integer .`,
    `ex:a ex:blank [ ex:name "inside a blank node" ] .`,
    `ex:a ex:label "chat"@fr, "cat"@en-GB .`,
    `ex:a ex:text "${escape(rowText(-1))}" .`,
  ];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `ex:r${i} ex:text "${escape(rowText(i))}" ; ex:dec "${
        rowDecimal(i)
      }"^^xsd:decimal ; ex:part [ ex:n ${i} ] .`,
    );
  }
  return lines.join("\n") + "\n";
}
