// The site's one client of its JSON API: every page sends its requests through `api`, and
// reads an event stream it must see refused (its status and Retry-After, which EventSource
// hides) through `apiStream`.
//
// Each request carries the page's language (`?lang=`), so that refusals come back in it; a
// body is sent as JSON; an answer that is not 2xx throws an ApiError with the server's
// one-line `error` (and its `status`, `code`, `params`, `retryAfter`); no connection throws
// one with the page's own "cannot be reached" sentence (base.html puts it on <body>).

/**
 * @typedef {object} ApiOptions
 * @property {string} [method]  HTTP method (default GET)
 * @property {unknown} [body]   sent as JSON
 */

/** An API refusal: `message` is the server's sentence in the page's language. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status  HTTP status (0: the server could not be reached)
   * @param {string | undefined} code  the rules core's refusal code, if any
   * @param {Record<string, string> | undefined} params  its parameters
   */
  constructor(message, status, code, params) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params;
    /** @type {number | null} seconds to wait before asking again (Retry-After), if said */
    this.retryAfter = null;
  }
}

function networkError() {
  return new ApiError(document.body.dataset.networkError || "network error", 0, undefined, undefined);
}

/** The ApiError of an answer that is not 2xx (its JSON `error`, status and Retry-After). */
async function refusal(res) {
  const body = await res.json().catch(() => ({}));
  const err = new ApiError(body.error || res.statusText, res.status, body.code, body.params);
  const wait = Number(res.headers.get("Retry-After"));
  if (Number.isFinite(wait) && wait > 0) err.retryAfter = wait;
  return err;
}

/** The page's language (the <html lang> the server wrote). */
export function pageLang() {
  return document.documentElement.lang || "en";
}

/**
 * `path` (a site path, with or without a query) with the page's language added.
 * @param {string} path
 * @returns {string}
 */
export function withLang(path) {
  const url = new URL(path, window.location.origin);
  url.searchParams.set("lang", pageLang());
  return url.pathname + url.search;
}

/**
 * Call the API and return its JSON answer (`{}` for an empty one, such as 204).
 * @param {string} path  e.g. "/api/games/abc/moves"
 * @param {ApiOptions} [options]
 * @returns {Promise<any>}
 */
export async function api(path, options = {}) {
  const hasBody = options.body !== undefined;
  let res;
  try {
    res = await fetch(withLang(path), {
      method: options.method || "GET",
      headers: hasBody ? { "Content-Type": "application/json", Accept: "application/json" }
        : { Accept: "application/json" },
      body: hasBody ? JSON.stringify(options.body) : undefined,
    });
  } catch (_) {
    throw networkError();
  }
  if (!res.ok) throw await refusal(res);
  return res.json().catch(() => ({}));
}

/**
 * Read the server-sent events of GET `path` until the server ends the stream (resolves) or
 * `signal` aborts it (rejects with the AbortError): `onEvent(type, data)` for each event
 * ("message" when it names none; `data` parsed as JSON), comments skipped. A refusal (not
 * 2xx: 429, 503, ...) throws an ApiError with its `status` and `retryAfter`; a connection
 * that cannot be made or breaks, one with status 0.
 * @param {string} path
 * @param {{signal: AbortSignal, onEvent: (type: string, data: any) => void}} options
 * @returns {Promise<void>}
 */
export async function apiStream(path, { signal, onEvent }) {
  let res;
  try {
    res = await fetch(withLang(path), { headers: { Accept: "text/event-stream" }, signal });
  } catch (err) {
    if (signal.aborted) throw err;
    throw networkError();
  }
  if (!res.ok) throw await refusal(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (err) {
      if (signal.aborted) throw err;
      throw networkError();
    }
    if (chunk.done) return;
    buffer = (buffer + chunk.value).replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let type = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) type = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) onEvent(type, JSON.parse(data.join("\n")));
    }
  }
}
