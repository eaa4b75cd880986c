// The analysis board's engine: GET /api/analysis/stream read as server-sent events (through
// api.js), and tried again by itself when the server refuses it (429: this address has too
// many analyses at once; 503: the site is busy) after the Retry-After it gives, or when the
// connection drops (after 2 s, then 4, 8, ... up to 30), saying why and counting down.

import { apiStream } from "/static/api.js";

/**
 * @typedef {object} EngineHandlers
 * @property {(data: any) => void} lines      an iteration's lines
 * @property {() => void} done                the search has ended
 * @property {(error: string) => void} failed the search failed, or the request is refused for good
 * @property {(status: number, seconds: number) => void} waiting  refused (429, 503) or cut
 *   (0): asking again in `seconds` (called again each second)
 */

/**
 * Follow the analysis stream at `path` until it is done or fails, or until the returned
 * function is called.
 * @param {string} path
 * @param {EngineHandlers} on
 * @returns {() => void} stops the stream and any wait
 */
export function followAnalysis(path, on) {
  let stopped = false;
  let controller = null;
  let timer = null;
  let drops = 0;

  function wait(status, seconds) {
    let left = Math.max(1, Math.ceil(seconds));
    on.waiting(status, left);
    timer = setInterval(() => {
      left -= 1;
      if (left > 0) { on.waiting(status, left); return; }
      clearInterval(timer);
      timer = null;
      if (!stopped) open();
    }, 1000);
  }

  function open() {
    controller = new AbortController();
    let ended = false;
    apiStream(path, {
      signal: controller.signal,
      onEvent: (type, data) => {
        if (stopped) return;
        drops = 0;
        if (type === "message") on.lines(data);
        else if (type === "done") { ended = true; on.done(); }
        else if (type === "failed") { ended = true; on.failed(data.error); }
      },
    }).then(() => {
      if (!stopped && !ended) { drops += 1; wait(0, Math.min(30, 2 ** drops)); }
    }).catch((err) => {
      if (stopped) return;
      if (err.status === 429 || err.status === 503) wait(err.status, err.retryAfter || 5);
      else if (err.status === 0) { drops += 1; wait(0, Math.min(30, 2 ** drops)); }
      else on.failed(err.message);
    });
  }

  open();
  return () => {
    stopped = true;
    if (controller) controller.abort();
    if (timer) clearInterval(timer);
  };
}
