// Installed in every document before its own scripts run
// (Page.addScriptToEvaluateOnNewDocument).  Reports activity to the crawler
// through the CDP binding __tcActivity: pending JS timers (tags injected late:
// up to HORIZON ms; consent banners drawn late: up to LATE ms; recurring timers
// are left out), DOM mutations (late consent banners) and window.dataLayer pushes.
// It also remembers closed shadow roots for the consent scanner.
(() => {
  // ChromeDriver's own document-start script caches built-ins on the window
  // (cdc_<key>_Array, ..._Promise, ...); pages and bot detectors (BotD) look for
  // them.  Remove them whether that script ran before this one or runs after.
  const CDC = /^([a-z]){3}_.*_(Array|Object|Promise|Proxy|Symbol|JSON|Window)$/;
  for (const name of Object.getOwnPropertyNames(window)) if (CDC.test(name)) delete window[name];
  for (const kind of ["Array", "Object", "Promise", "Proxy", "Symbol", "JSON", "Window"]) {
    const name = "cdc_adoQpoasnfa76pfcZLmcfl_" + kind;
    if (Object.getOwnPropertyDescriptor(window, name)) continue;
    try {
      Object.defineProperty(window, name, { configurable: true, get() { return undefined; },
                                            set(v) { delete window[name]; } });
    } catch (e) {}
  }
  if (window.__tcHooked) return;
  Object.defineProperty(window, "__tcHooked", { value: true });
  const send = (msg) => { try { window.__tcActivity(JSON.stringify(msg)); } catch (e) {} };
  const HORIZON = __HORIZON__, LATE = __LATE__;
  const win = Math.random().toString(36).slice(2);
  const pending = new Map();
  const report = () => {
    let late = 0;
    for (const d of pending.values()) if (d > HORIZON) late++;
    send({ w: win, timers: pending.size - late, late });
  };
  const st = window.setTimeout, ct = window.clearTimeout;
  // A timer set again from a call site whose timer already fired is recurring
  // (polling, heartbeats, batch flushes): not pending work, not reported.
  const fired = new Set();
  const site = () => { const s = new Error().stack || ""; return s.split("\n")[3] || ""; };
  window.setTimeout = function (fn, ms, ...rest) {
    const delay = Number(ms) || 0;
    if (typeof fn !== "function" || delay < 20 || delay > LATE) return st.call(this, fn, ms, ...rest);
    const where = site();  // delays vary (jitter, backoff): the call site alone
    if (fired.has(where)) return st.call(this, fn, ms, ...rest);
    const id = st.call(this, function () {
      fired.add(where);
      pending.delete(id); report();
      return fn.apply(this, arguments);
    }, ms, ...rest);
    pending.set(id, delay); report();
    return id;
  };
  window.clearTimeout = function (id) {
    if (pending.delete(id)) report();
    return ct.call(this, id);
  };
  // A document that goes away takes its timers along: none is pending any more.
  window.addEventListener("pagehide", () => { if (pending.size) { pending.clear(); report(); } });
  // Closed shadow roots (Transcend, some CMPs and CAPTCHAs): remembered so that
  // the consent scanner can look inside them (window.__tcShadowRoot(host)).
  const closedRoots = new WeakMap(), attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    if (init && init.mode === "closed") closedRoots.set(this, root);
    return root;
  };
  Object.defineProperty(window, "__tcShadowRoot", { value: (host) => closedRoots.get(host) || null });
  const safe = (v) => { try { return JSON.parse(JSON.stringify(v)); } catch (e) { return null; } };
  const wrap = (arr) => {
    if (!Array.isArray(arr) || arr.__tcWrapped) return arr;
    Object.defineProperty(arr, "__tcWrapped", { value: true });
    for (const item of arr) send({ dl: safe(item) });
    const push = arr.push;
    arr.push = function (...items) { for (const item of items) send({ dl: safe(item) }); return push.apply(this, items); };
    return arr;
  };
  let dataLayer = wrap(window.dataLayer);
  try {
    Object.defineProperty(window, "dataLayer", {
      configurable: true, enumerable: true,
      get() { return dataLayer; },
      set(value) { dataLayer = wrap(value); },
    });
  } catch (e) {}
  let last = 0, queued = false;
  const onMutation = () => {
    const now = Date.now();
    if (now - last > 100) { last = now; send({ w: win, dom: 1 }); }
    else if (!queued) { queued = true; st.call(window, () => { queued = false; last = Date.now(); send({ w: win, dom: 1 }); }, 110); }
  };
  const start = () => new MutationObserver(onMutation).observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ["class", "style", "hidden"] });
  if (document.documentElement) start(); else document.addEventListener("DOMContentLoaded", start);
})();
