// Installed in every document before its own scripts run
// (Page.addScriptToEvaluateOnNewDocument), after native_mask.js in the same
// closure.  Reports activity to the crawler through a CDP binding (its name
// random per crawl; taken and deleted from the window before any page script
// runs): JS timers pending (tags injected late: up to HORIZON ms;
// consent banners drawn late: up to LATE ms; a setInterval until its first
// tick, if due within HORIZON ms; recurring timers are left out),
// DOM mutations (late consent banners) and the items of window.dataLayer.
// Leaves nothing on the page: no global, no marker, no accessor; setTimeout,
// clearTimeout, setInterval, clearInterval, attachShadow and the visibility
// getters are native-masked Proxies.  What the crawler needs of it (closed
// shadow roots, consent state, the flush) it reads with Function.prototype.toString[KEY] (``api``).
const global = window, doc = document, perf = performance, random = Math.random, ceil = Math.ceil;
const clock = ((now) => () => apply(now, perf, []))(Performance.prototype.now);
const addListener = EventTarget.prototype.addEventListener, microtask = queueMicrotask;
const ownNames = Object.getOwnPropertyNames, nativeSetTimeout = setTimeout, bind = Function.prototype.bind;
const dispatch = EventTarget.prototype.dispatchEvent, NativeEvent = Event, NativePageTransition = PageTransitionEvent;
const rootMode = ownDesc(ShadowRoot.prototype, "mode").get;
const postTask = typeof scheduler === "object" && scheduler && scheduler.postTask, sched = postTask ? scheduler : null;
const listen = (target, type, fn) => apply(addListener, target, [type, fn, true]);

// ChromeDriver's document-start script caches built-ins on the window
// (cdc_<key>_Array, ..._Promise, ...); pages and bot detectors (BotD) look for
// them.  Removed whether that script runs before this one (now), after it (the
// setters below), or not at all (the accessors go at the first DOM mutation,
// which comes before the first page script).
const CDC = /^([a-z]){3}_.*_(Array|Object|Promise|Proxy|Symbol|JSON|Window)$/, test = RegExp.prototype.test;
const automationNames = () => {
  const names = ownNames(global);
  for (let i = 0; i < names.length; i++) if (apply(test, CDC, [names[i]])) delete global[names[i]];
};
automationNames();
for (const kind of ["Array", "Object", "Promise", "Proxy", "Symbol", "JSON", "Window"]) {
  const name = "cdc_adoQpoasnfa76pfcZLmcfl_" + kind;
  if (ownDesc(global, name)) continue;
  try {
    define(global, name, record({ configurable: true, get() { return undefined; }, set(v) { delete global[name]; } }));
  } catch (e) {}
}

const BINDING = "__BINDING__", HORIZON = __HORIZON__, LATE = __LATE__;
const bindingDesc = ownDesc(global, BINDING);
const binding = bindingDesc && bindingDesc.value;
if (bindingDesc) delete global[BINDING];
const send = (text) => { if (typeof binding === "function") try { apply(binding, global, [text]); } catch (e) {} };
const win = apply(Number.prototype.toString, random(), [36]).slice(2);

// -- window.dataLayer: its items, read (never wrapped) at every hook call, DOM
// change and lifecycle event; at most MAX_DL items per document are sent, a
// string in an item longer than DL_STRING_MAX is cut with the report's mark
// ("…[truncated K chars]", as the report marks cut values) and the message says so
// ("c": 1); an item still longer than MAX_DL_CHARS once serialised is counted
// in "dlCut".
const MAX_DL = 1000, MAX_DL_CHARS = 1 << 20, DL_STRING_MAX = 4096;
let dlCutStrings = false;
const dlReplacer = (key, value) => {
  if (typeof value !== "string" || value.length <= DL_STRING_MAX) return value;
  dlCutStrings = true;
  return apply(strSlice, value, [0, DL_STRING_MAX]) + "\u2026[truncated " + (value.length - DL_STRING_MAX) + " chars]";
};
const dlSeen = new NativeWeakMap();  // a dataLayer array -> how many of its items were sent
let dlSent = 0;
const checkDataLayer = () => {
  let d;
  try { d = ownDesc(global, "dataLayer"); } catch (e) { return; }
  if (!d || !hasOwn(d, "value") || !isArray(d.value)) return;
  const list = d.value, length = list.length;
  let from = weakGet(dlSeen, list) || 0;
  if (from > length) from = length;  // the page emptied it
  if (from === length) return;
  const end = length - from > MAX_DL - dlSent ? from + MAX_DL - dlSent : length;
  let cut = length - end;
  weakSet(dlSeen, list, length);
  for (let i = from; i < end; i++) {
    let text = null;
    dlCutStrings = false;
    try { text = stringify(list[i], dlReplacer); } catch (e) {}
    if (typeof text !== "string") text = "null";
    if (text.length > MAX_DL_CHARS) { cut++; continue; }
    dlSent++;
    send('{"dl":' + text + (dlCutStrings ? ',"c":1}' : "}"));
  }
  if (cut) send('{"dlCut":' + cut + "}");
};

// -- timers: the last moment a pending timer is due is reported, not each
// firing (the callback is never wrapped: its stack stays the page's own).  A
// timer set again from a call site whose timer already fired is recurring
// (polling, heartbeats, batch flushes): not pending work, not reported.
const MAX_PENDING = 1000, MAX_SITES = 10000;
const pending = new NativeMap();  // timer id -> [due (clock ms), late?, call site]
const lastOf = new NativeMap();   // call site -> id of its latest timer
const fired = new NativeSet();    // call sites whose timer fired
let due = 0, lateDue = 0;
const report = () => {
  const t = clock();
  send('{"w":"' + win + '","t":' + (due > t ? ceil(due - t) : 0) + ',"l":' + (lateDue > t ? ceil(lateDue - t) : 0) + "}");
};
const fire = (where) => { if (setSizeOf(fired) < MAX_SITES) setAdd(fired, where); };
// Drop timers already due (they fired) and recompute when the last one is due.
const settle = () => {
  const t = clock();
  due = 0; lateDue = 0;
  mapForEach(pending, (entry, id) => {
    if (entry[0] <= t) { mapDelete(pending, id); fire(entry[2]); }
    else if (entry[1]) { if (entry[0] > lateDue) lateDue = entry[0]; }
    else if (entry[0] > due) due = entry[0];
  });
};
// The caller's stack frame (its text), or the callback itself when the page
// changed how stacks are made (Error.prepareStackTrace would be called).
const site = (fn) => {
  const limit = ownDesc(NativeError, "stackTraceLimit");
  if (ownDesc(NativeError, "prepareStackTrace") || !limit || !(limit.value >= 8)) return fn;
  const text = new NativeError().stack;
  let start = indexOf(text, "\n", 0) + 1;
  while (start > 0) {
    const end = indexOf(text, "\n", start), line = slice(text, start, end < 0 ? text.length : end);
    if (!ours(line)) return line;
    start = end + 1;
  }
  return fn;
};
const timerTarget = (self) => self === undefined || self === null || self === global;
// A timer up to ``longest`` ms (setTimeout: LATE; setInterval: HORIZON, until its
// first tick: SDKs flush their queue on it, Kameleoon, Datadog; its later ticks
// are recurring and never pending).
const track = (native, self, args, longest) => {
  checkDataLayer();
  const fn = args[0], ms = args[1];
  const delay = typeof ms === "number" ? ms : typeof ms === "string" ? +ms : ms === undefined ? 0 : -1;
  if (typeof fn !== "function" || !(delay >= 20 && delay <= longest) || !timerTarget(self)) return apply(native, self, args);
  const where = site(fn), prev = mapGet(lastOf, where), t = clock();
  const before = prev === undefined ? undefined : mapGet(pending, prev);
  if (before && before[0] <= t) { mapDelete(pending, prev); fire(where); }
  if (setHas(fired, where)) return apply(native, self, args);
  const id = apply(native, self, args);
  if (mapSizeOf(pending) >= MAX_PENDING) settle();
  if (mapSizeOf(pending) >= MAX_PENDING) return id;
  const late = delay > HORIZON, at = t + delay;
  mapSet(pending, id, [at, late, where]);
  if (mapSizeOf(lastOf) < MAX_SITES || prev !== undefined) mapSet(lastOf, where, id);
  if (late ? at > lateDue : at > due) { if (late) lateDue = at; else due = at; report(); }
  return id;
};
replace(global, "setTimeout", (native, self, args) => track(native, self, args, LATE));
replace(global, "setInterval", (native, self, args) => track(native, self, args, HORIZON));
// clearTimeout and clearInterval share the ids (either clears either).
const clear = (native, self, args) => {
  checkDataLayer();
  const id = args[0], entry = timerTarget(self) ? mapGet(pending, id) : undefined;
  if (entry) {
    mapDelete(pending, id);
    if (mapGet(lastOf, entry[2]) === id) mapDelete(lastOf, entry[2]);
    if (entry[0] === due || entry[0] === lateDue) { settle(); report(); }
  }
  return apply(native, self, args);
};
replace(global, "clearTimeout", clear);
replace(global, "clearInterval", clear);

// -- closed shadow roots (Transcend, some CMPs and CAPTCHAs): remembered so
// that the consent scanner can look inside them (api.root(host)).
const closedRoots = new NativeWeakMap();
replace(Element.prototype, "attachShadow", (native, self, args) => {
  const root = apply(native, self, args);
  if (apply(rootMode, root, []) === "closed") weakSet(closedRoots, self, root);
  return root;
});

// -- the flush (engine/capture/flush.py): the document reads hidden from then on,
// and "visibilitychange" and "pagehide" are dispatched by scheduler tasks
// that call dispatchEvent itself (bound): no script frame under the page's
// listeners.  Returns the promise of the last task (null without a scheduler).
let hidden = false;
const leave = () => {
  hidden = true;
  const bubbles = create(null), gone = create(null);
  bubbles.bubbles = true; gone.persisted = false;
  const first = apply(bind, dispatch, [doc, new NativeEvent("visibilitychange", bubbles)]);
  const second = apply(bind, dispatch, [global, new NativePageTransition("pagehide", gone)]);
  if (!sched) { first(); second(); return null; }
  apply(postTask, sched, [first]);
  return apply(postTask, sched, [second]);
};
replace(Document.prototype, "visibilityState", (native, self, args) => (hidden && self === doc ? "hidden" : apply(native, self, args)), "get");
replace(Document.prototype, "hidden", (native, self, args) => (hidden && self === doc ? true : apply(native, self, args)), "get");

// -- what the crawler reads with Function.prototype.toString[KEY].
const tried = new NativeWeakSet();
api.root = (host) => weakGet(closedRoots, host) || null;
api.tried = (el) => weakSetHas(tried, el);
api.markTried = (el) => { try { weakSetAdd(tried, el); } catch (e) {} return true; };
api.consent = record({ ping: null, status: null, listening: false });
api.leave = leave;

// -- DOM mutations (late banners), throttled to one report per 100 ms; the
// trailing one is a scheduler task (no timer id the page could notice).
const delayed = create(null);
delayed.delay = 110;
const later = (fn) => (sched ? apply(postTask, sched, [fn, delayed]) : apply(nativeSetTimeout, global, [fn, 110]));
let last = 0, queued = false, firstMutation = true;
const onMutation = () => {
  if (firstMutation) { firstMutation = false; automationNames(); }
  checkDataLayer();
  const t = clock();
  if (t - last > 100) { last = t; send('{"dom":1}'); }
  else if (!queued) { queued = true; later(() => { queued = false; last = clock(); send('{"dom":1}'); }); }
};
apply(MutationObserver.prototype.observe, new MutationObserver(onMutation),
      [doc, record({ childList: true, subtree: true, attributes: true, attributeFilter: ["class", "style", "hidden"] })]);
const lifecycle = () => { checkDataLayer(); microtask(checkDataLayer); };
listen(doc, "DOMContentLoaded", lifecycle);
listen(global, "load", lifecycle);
listen(doc, "visibilitychange", lifecycle);
// A document that goes away takes its timers along: none is pending any more.
listen(global, "pagehide", () => {
  lifecycle();
  if (mapSizeOf(pending)) { mapClear(pending); due = 0; lateDue = 0; report(); }
});
