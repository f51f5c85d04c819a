/**
 * What went wrong when a request got no answer at all: nothing listening,
 * a name that does not resolve, a reset connection, a failed TLS handshake,
 * no route, or a script not allowed to use the network. Told from the error
 * fetch threw (Deno's and Node's wording), so the message says what happened
 * on this machine, and never that a server said something.
 *
 * @module
 */

/** One cause: what to say happened, and what to check. */
export interface NetworkCause {
  /** What happened, for the message (`connection refused: nothing listens at host:port`). */
  what: string;
  /** What to check next. */
  hint: string;
}

/** The innermost message along an error's cause chain: the system's own words ("fetch failed" wraps them). */
export function systemMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (let item = error, depth = 0; item instanceof Error && depth < 5; depth++) {
    if (item.message) message = item.message;
    item = item.cause;
  }
  return message;
}

/** The text of an error and of every error along its cause chain. */
function causeText(error: unknown): string {
  const parts: string[] = [];
  for (let item = error, depth = 0; item && depth < 5; depth++) {
    if (item instanceof Error) {
      parts.push(`${item.name} ${item.message} ${(item as { code?: unknown }).code ?? ""}`);
      item = item.cause;
    } else {
      parts.push(String(item));
      break;
    }
  }
  return parts.join(" | ");
}

/**
 * The cause of a failed fetch, by the words of the error it threw.
 *
 * @param error What fetch threw.
 * @param url The address the request was for.
 * @returns What happened and what to check.
 */
export function networkCause(error: unknown, url: URL): NetworkCause {
  const text = causeText(error);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const at = `${url.hostname}:${port}`;
  if (
    (typeof Deno !== "undefined" && error instanceof Deno.errors.NotCapable) ||
    /NotCapable|Requires net access/i.test(text)
  ) {
    return {
      what: `this script may not use the network (${at} is not allowed)`,
      hint:
        "Run it with --allow-net (or -A), or name the host in --allow-net; in replay mode a request that reaches for the network is missing from the recording",
    };
  }
  if (
    /dns error|failed to lookup address|Name or service not known|ENOTFOUND|EAI_AGAIN|nodename nor servname|No address associated|Temporary failure in name resolution/i
      .test(text)
  ) {
    return {
      what: `the name ${url.hostname} does not resolve`,
      hint:
        `Check the spelling of ${url.hostname}, and that this machine can resolve names (a network, a VPN or a proxy it needs)`,
    };
  }
  if (/Connection refused|ECONNREFUSED|os error 111\b|os error 61\b/i.test(text)) {
    return {
      what: `connection refused: nothing listens at ${at}`,
      hint: `Check the port in the address, and that the service is running at ${at}`,
    };
  }
  if (
    /Connection reset|ECONNRESET|os error 104\b|os error 54\b|broken pipe|EPIPE|connection closed before message completed|unexpected end of file|IncompleteMessage/i
      .test(text)
  ) {
    return {
      what: `the connection to ${at} was closed before an answer came`,
      hint:
        "The service or something between (a proxy, a firewall, a load balancer) dropped it; try again, and check that the address speaks HTTP on that port",
    };
  }
  if (
    /certificate|tls|ssl|handshake|corrupt message|InvalidContentType|UnknownIssuer|CERT_/i.test(
      text,
    )
  ) {
    return {
      what: `the TLS handshake with ${at} failed`,
      hint: url.protocol === "https:"
        ? `Check that ${at} serves https (not plain http), that its certificate is valid for ${url.hostname}, and this machine's clock`
        : `Check whether ${at} wants https`,
    };
  }
  if (
    /Network is unreachable|No route to host|EHOSTUNREACH|ENETUNREACH|os error 113\b|os error 101\b/i
      .test(text)
  ) {
    return {
      what: `no route to ${at}`,
      hint: "Check this machine's network, a VPN, or a firewall between it and the service",
    };
  }
  return {
    what: `the request to ${at} failed before any answer came`,
    hint: "Check that the address is right and the service reachable from this machine",
  };
}
