/**
 * A fetch that drops the connection on one OAI-PMH list request, for the
 * tests of interrupted harvests (resume, datasets, replay): shared so they
 * interrupt the same way.
 */

/**
 * A fetch that fails like a dropped connection (a `TypeError`) on the n-th
 * list request (ListRecords, or a resumptionToken page) and passes every
 * other request, Identify included, to the platform's fetch.
 */
export function failingOn(n: number): typeof fetch {
  let count = 0;
  return (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.includes("ListRecords") || url.includes("resumptionToken")) {
      count++;
      if (count === n) return Promise.reject(new TypeError("connection reset"));
    }
    return fetch(input, init);
  };
}
