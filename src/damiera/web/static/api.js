// The site's one client of its JSON API: every page sends its requests through `api`.
//
// Each request carries the page's language (`?lang=`), so that refusals come back in it; a
// body is sent as JSON; an answer that is not 2xx throws an ApiError with the server's
// one-line `error` (and its `status`, `code`, `params`); no connection throws one with the
// page's own "cannot be reached" sentence (base.html puts it on <body>).

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
  }
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
    throw new ApiError(document.body.dataset.networkError || "network error", 0, undefined, undefined);
  }
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(body.error || res.statusText, res.status, body.code, body.params);
  return body;
}
