// What a hostile page can check to tell a crawler's browser from a person's
// (tests/browser/test_stealth_traces.py).  tracesProbe.phase(name, pixel) runs
// every check, posts the findings to /__report/traces-<name> and, when there
// are none (and BotD said "no bot"), fires the Meta pixel ``pixel``.
// Each detector is first tried on a trace made on purpose (``selfTest``): a
// detector that cannot see it would prove nothing, and counts as a finding.
(function () {
  "use strict";
  const PAGE_GLOBALS = new Set(["tracesProbe", "dataLayer"]);
  const SUSPECT = /^__|^\$?cdc_|^\$?wdc_|^([a-z]){3}_.*_(Array|Object|Promise|Proxy|Symbol|JSON|Window)$|tc[A-Z_]|[Ww]ebdriver|[Ss]elenium|[Pp]uppeteer|[Pp]laywright/;
  const nativeText = (name) => `function ${name}() { [native code] }`;
  const baseline = document.createElement("iframe");  // a fresh realm of the same origin
  baseline.style.display = "none";
  document.documentElement.appendChild(baseline);
  const clean = baseline.contentWindow;
  // A frame where scripts may not run (sandbox without allow-scripts): a crawler's
  // document-start script may not run there either, leaving its built-ins untouched.
  const sandboxed = document.createElement("iframe");
  sandboxed.setAttribute("sandbox", "allow-same-origin");
  sandboxed.style.display = "none";
  document.documentElement.appendChild(sandboxed);
  const bare = sandboxed.contentWindow;
  let botdResult = null, botdReady;
  const botdDone = new Promise((resolve) => { botdReady = resolve; });

  // [label, owner in this window, owner in the clean frame, property, "value"/"get"]
  const own = (w) => [
    ["setTimeout", w, "setTimeout"], ["setInterval", w, "setInterval"], ["clearTimeout", w, "clearTimeout"],
    ["clearInterval", w, "clearInterval"], ["fetch", w, "fetch"], ["queueMicrotask", w, "queueMicrotask"],
    ["attachShadow", w.Element.prototype, "attachShadow"], ["XMLHttpRequest.open", w.XMLHttpRequest.prototype, "open"],
    ["XMLHttpRequest.send", w.XMLHttpRequest.prototype, "send"], ["sendBeacon", w.Navigator.prototype, "sendBeacon"],
    ["pushState", w.History.prototype, "pushState"], ["replaceState", w.History.prototype, "replaceState"],
    ["addEventListener", w.EventTarget.prototype, "addEventListener"], ["dispatchEvent", w.EventTarget.prototype, "dispatchEvent"],
    ["toString", w.Function.prototype, "toString"], ["push", w.Array.prototype, "push"],
    ["defineProperty", w.Object, "defineProperty"], ["getOwnPropertyDescriptor", w.Object, "getOwnPropertyDescriptor"],
    ["stringify", w.JSON, "stringify"], ["now", w.Performance.prototype, "now"], ["random", w.Math, "random"],
    ["observe", w.MutationObserver.prototype, "observe"], ["createElement", w.Document.prototype, "createElement"],
    ["appendChild", w.Node.prototype, "appendChild"], ["postTask", w.Scheduler && w.Scheduler.prototype, "postTask"],
    ["visibilityState", w.Document.prototype, "visibilityState", "get"], ["hidden", w.Document.prototype, "hidden", "get"],
    ["webdriver", w.Navigator.prototype, "webdriver", "get"], ["userAgent", w.Navigator.prototype, "userAgent", "get"],
  ];
  const described = (d) => d && { kind: "value" in d ? "value" : "accessor", writable: d.writable,
                                   enumerable: d.enumerable, configurable: d.configurable };
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const keys = (fn) => Reflect.ownKeys(fn).map(String);

  // -- detectors: each returns a list of findings (strings)
  function looksNative(fn, name, where) {
    const out = [], text = nativeText(name);
    const tries = {
      "Function.prototype.toString.call": () => Function.prototype.toString.call(fn),
      "toString()": () => fn.toString(), "String()": () => String(fn), "+''": () => fn + "",
      "other frame's toString": () => clean.Function.prototype.toString.call(fn),
      "sandboxed frame's toString": () => bare.Function.prototype.toString.call(fn),
    };
    for (const [how, get] of Object.entries(tries)) {
      let got;
      try { got = get(); } catch (e) { got = "throws " + e; }
      if (got !== text) out.push(`${where}: ${how} gives ${JSON.stringify(String(got).slice(0, 60))}`);
    }
    return out;
  }
  function builtin(label, mine, theirs, prop, part) {
    const out = [];
    if (!mine || !theirs) return out;
    const d = Object.getOwnPropertyDescriptor(mine, prop), c = Object.getOwnPropertyDescriptor(theirs, prop);
    if (!same(described(d), described(c))) out.push(`${label}: descriptor ${JSON.stringify(described(d))}`);
    const fn = d && d[part || "value"], ref = c && c[part || "value"];
    if (typeof fn !== "function") return out;
    out.push(...looksNative(fn, part === "get" ? "get " + prop : prop, label));
    if (fn.name !== ref.name || fn.length !== ref.length) out.push(`${label}: name/length ${fn.name}/${fn.length}`);
    if (("prototype" in fn) !== ("prototype" in ref)) out.push(`${label}: prototype property`);
    if (!same(keys(fn), keys(ref))) out.push(`${label}: own keys ${keys(fn)}`);
    if (Object.getPrototypeOf(fn) !== Function.prototype) out.push(`${label}: prototype chain`);
    return out;
  }
  // An error thrown by a built-in shows only the caller's frames (this
  // script's) and built-in ones ("at Object.toString (<anonymous>)"): no other script's.
  function stackOnlyMine(label, call) {
    try { call(); } catch (e) {
      const frames = String(e.stack).split("\n").slice(1).filter((l) => /^\s+at /.test(l));
      const foreign = frames.filter((l) => !l.includes(location.host) && !/\(<anonymous>\)$/.test(l));
      return foreign.length ? [`${label}: foreign stack frames ${JSON.stringify(foreign)}`] : [];
    }
    return [`${label}: did not throw`];
  }
  function globals() {
    const out = [];
    const mine = Object.getOwnPropertyNames(window), theirs = new Set(Object.getOwnPropertyNames(clean));
    for (const name of mine) {
      if (PAGE_GLOBALS.has(name) || /^\d+$/.test(name)) continue;  // and frames by index
      if (!theirs.has(name)) out.push(`global only here: ${name}`);
      else if (SUSPECT.test(name)) out.push(`suspect global: ${name}`);
      const d = Object.getOwnPropertyDescriptor(window, name), c = Object.getOwnPropertyDescriptor(clean, name);
      if (c && d && ("get" in d) !== ("get" in c)) out.push(`global ${name} is ${"get" in d ? "an accessor" : "data"}`);
    }
    for (const name of theirs) if (!mine.includes(name)) out.push(`global missing here: ${name}`);
    const bareNames = new Set(Object.getOwnPropertyNames(bare));
    for (const name of mine) if (!bareNames.has(name) && !PAGE_GLOBALS.has(name) && !/^\d+$/.test(name)) out.push(`global not in a sandboxed frame: ${name}`);
    if (Object.getOwnPropertySymbols(window).length) out.push("symbols on window");
    for (const [label, a, b] of [["document", document, clean.document], ["Document.prototype", Document.prototype,
                                 clean.Document.prototype], ["Element.prototype", Element.prototype, clean.Element.prototype],
                                ["Function.prototype", Function.prototype, clean.Function.prototype]]) {
      if (!same(keys(a), keys(b))) out.push(`${label} own keys differ: ${keys(a).filter((k) => !keys(b).includes(k))}`);
    }
    for (const el of document.querySelectorAll("*")) {
      const extra = Reflect.ownKeys(el);
      if (extra.length) out.push(`element <${el.tagName}> has own properties ${extra.map(String)}`);
    }
    return out;
  }
  function dataLayer_() {
    const out = [], d = Object.getOwnPropertyDescriptor(window, "dataLayer");
    if (!d || !("value" in d)) return ["dataLayer is not a data property"];
    const list = d.value;
    if (list.push !== Array.prototype.push) out.push("dataLayer.push is not Array.prototype.push");
    if (Object.getPrototypeOf(list) !== Array.prototype) out.push("dataLayer's prototype");
    const extra = Reflect.ownKeys(list).filter((k) => k !== "length" && !/^\d+$/.test(String(k)));
    if (extra.length) out.push(`dataLayer own keys ${extra.map(String)}`);
    return out;
  }
  // Built-ins the page can spy on: property reads off Object.prototype (options
  // and descriptors built by a hook), the array iterator, Error.prepareStackTrace.
  async function spies() {
    const reads = [], names = ["value", "get", "set", "writable", "enumerable", "configurable", "delay", "priority",
                               "signal", "childList", "subtree", "mode", "then", "constructor"];
    const saved = names.map((n) => [n, Object.getOwnPropertyDescriptor(Object.prototype, n)]);
    const spy = (n) => Object.assign(Object.create(null), { configurable: true, get() { reads.push(n); } });
    for (const n of names) if (n !== "constructor") Object.defineProperty(Object.prototype, n, spy(n));
    const iterator = Array.prototype[Symbol.iterator];
    let iterated = 0;
    Array.prototype[Symbol.iterator] = function () { iterated++; return iterator.call(this); };
    let formatted = 0;
    Error.prepareStackTrace = (e, frames) => { formatted++; return String(e); };
    try {
      const id = setTimeout(() => {}, 300);
      clearTimeout(id);
      setTimeout(() => {}, 50);
      document.createElement("div").attachShadow({ mode: "closed" });
      window.dataLayer.push({ event: "spy" });
      document.documentElement.appendChild(document.createElement("span")).className = "x";
      await new Promise((r) => queueMicrotask(r));
    } finally {
      delete Error.prepareStackTrace;
      Array.prototype[Symbol.iterator] = iterator;
      for (const n of names) if (n !== "constructor") delete Object.prototype[n];
      for (const [n, d] of saved) if (d) Object.defineProperty(Object.prototype, n, Object.assign(Object.create(null), d));
    }
    const out = [];
    const extraReads = reads.filter((n) => n !== "mode");  // attachShadow reads its own init.mode (natively too)
    if (extraReads.length) out.push(`Object.prototype read: ${extraReads}`);
    if (iterated) out.push(`array iterator used ${iterated} times`);
    if (formatted) out.push(`Error.prepareStackTrace called ${formatted} times`);
    return out;
  }
  async function timers() {
    const out = [];
    const a = setTimeout(() => {}, 100), b = setTimeout(() => {}, 100);
    if (b !== a + 1) out.push(`timer ids ${a}, ${b}`);
    const depth = await new Promise((r) => setTimeout(function probeCallback() {
      r(String(new Error().stack).split("\n").filter((l) => /^\s+at /.test(l)).length); }, 30));
    if (depth !== 1) out.push(`a timer callback runs ${depth} frames deep`);
    return out;
  }
  function browser() {
    const out = [];
    if (navigator.webdriver !== false) out.push(`navigator.webdriver is ${navigator.webdriver}`);
    if (/Headless/.test(navigator.userAgent)) out.push("HeadlessChrome in the user agent");
    const brands = (navigator.userAgentData && navigator.userAgentData.brands) || [];
    if (brands.some((b) => /Headless/.test(b.brand))) out.push("HeadlessChrome brand");
    const div = document.createElement("div");
    div.attachShadow({ mode: "closed" });
    if (div.shadowRoot !== null || Reflect.ownKeys(div).length) out.push("a closed shadow root shows");
    return out;
  }
  // The detectors, tried on traces made on purpose (in the clean frame).
  function selfTest() {
    const out = [];
    const fake = function setInterval(f, ms) { return 0; };
    if (!looksNative(fake, "setInterval", "x").length) out.push("toString detector blind");
    if (!looksNative(new Proxy(clean.setInterval, {}), "setInterval", "x").length) out.push("proxy detector blind");
    const probeWin = clean;
    probeWin.__tcMark = 1;
    const blindGlobals = !Object.getOwnPropertyNames(probeWin).some((n) => SUSPECT.test(n));
    delete probeWin.__tcMark;
    if (blindGlobals) out.push("global detector blind");
    if (!stackOnlyMine("x", () => clean.eval("[1].forEach(() => { throw new Error(); })\n//# sourceURL=hooks.js")).length) {
      out.push("stack detector blind");
    }
    return out;
  }

  async function run(name) {
    const findings = [...selfTest(), ...globals(), ...dataLayer_(), ...browser()];
    for (const [label, mine, prop, part] of own(window)) {
      const theirs = own(clean).find((e) => e[0] === label)[1];
      findings.push(...builtin(label, mine, theirs, prop, part));
    }
    findings.push(...stackOnlyMine("setTimeout illegal this", () => setTimeout.call({}, () => {}, 10)));
    findings.push(...stackOnlyMine("attachShadow bad init", () => document.createElement("div").attachShadow({})));
    findings.push(...stackOnlyMine("toString of a non-function", () => Function.prototype.toString.call({})));
    if (name !== "pagehide") findings.push(...await timers(), ...await spies());
    if (devtools()) findings.push("console.debug read an error's stack (DevTools' Runtime domain)");
    return findings;
  }
  // A known side effect of DevTools' Runtime domain in older Chrome: logging an
  // error made the inspector read its stack.
  function devtools() {
    let seen = false;
    const e = new Error();
    Object.defineProperty(e, "stack", { configurable: true, get() { seen = true; return ""; } });
    console.debug(e);
    return seen;
  }

  window.tracesProbe = {
    botd(result) { botdResult = result; botdReady(); },
    async phase(name, pixel) {
      let findings;
      try { findings = await run(name); } catch (e) { findings = ["probe failed: " + e + " " + e.stack]; }
      if (pixel && name !== "pagehide") {
        await botdDone;
        if (!botdResult || botdResult.bot !== false) findings.push("BotD: " + JSON.stringify(botdResult));
      }
      const report = JSON.stringify({ phase: name, findings, botd: botdResult });
      if (pixel && !findings.length) new Image().src = `https://www.facebook.com/tr/?id=${pixel}&ev=PageView&phase=${name}`;
      navigator.sendBeacon(`/__report/traces-${name}`, report);
    },
  };
})();
