// Native-looking replacements for built-in functions.  The first part of the
// page hooks' closure: capture.py joins it with page_hooks.js in one strict
// arrow function and puts in the per-crawl values (KEY, SOURCE, the binding
// name, the horizons).
//
// Everything here and in page_hooks.js is a ``const`` of one arrow function
// body: nothing is reachable from the page.  A replaced function is a Proxy of the original (same name, length,
// prototype-less, same property descriptor), and Function.prototype.toString,
// itself replaced the same way, answers the original's text for it
// ("function setTimeout() { [native code] }"), also when called from another
// same-origin frame.  Errors a replaced function throws lose the hooks' stack
// frames.  Every built-in used after the page's scripts start is taken here,
// before they run, so that a page replacing one does not see the hooks call it.
// The technique is that of puppeteer-extra-plugin-stealth (evasions/_utils).
const KEY = "__KEY__";        // per crawl: Function.prototype.toString[KEY] is the hooks' ``api``
const SOURCE = "__SOURCE__";  // per crawl: this script's name in stack traces (//# sourceURL)
// Already installed in this document (core-js 3 replaces toString: setItem answers too, storage_hooks.js).
if (Function.prototype.toString[KEY] || (typeof Storage === "function" && Storage.prototype.setItem[KEY])) return;
const apply = Reflect.apply, reflectGet = Reflect.get, ownDesc = Object.getOwnPropertyDescriptor;
const define = Object.defineProperty, protoOf = Object.getPrototypeOf, create = Object.create;
const hasOwnFn = Object.prototype.hasOwnProperty, isArray = Array.isArray, NativeProxy = Proxy;
const NativeError = Error, FunctionProto = Function.prototype, nativeToString = FunctionProto.toString;
const stringify = JSON.stringify, strIndexOf = String.prototype.indexOf, strSlice = String.prototype.slice;
const NativeMap = Map, NativeSet = Set, NativeWeakMap = WeakMap, NativeWeakSet = WeakSet;
const method = (proto, name) => { const fn = proto[name]; return (self, a, b) => apply(fn, self, [a, b]); };
const mapGet = method(Map.prototype, "get"), mapSet = method(Map.prototype, "set");
const mapDelete = method(Map.prototype, "delete"), mapForEach = method(Map.prototype, "forEach");
const mapClear = method(Map.prototype, "clear");
const mapSize = ownDesc(Map.prototype, "size").get, setSize = ownDesc(Set.prototype, "size").get;
const setHas = method(Set.prototype, "has"), setAdd = method(Set.prototype, "add");
const weakGet = method(WeakMap.prototype, "get"), weakSet = method(WeakMap.prototype, "set");
const weakSetHas = method(WeakSet.prototype, "has"), weakSetAdd = method(WeakSet.prototype, "add");
const mapSizeOf = (map) => apply(mapSize, map, []), setSizeOf = (set) => apply(setSize, set, []);
const hasOwn = (obj, name) => apply(hasOwnFn, obj, [name]);
const indexOf = (s, part, from) => apply(strIndexOf, s, [part, from]);
const slice = (s, from, to) => apply(strSlice, s, [from, to]);
// A prototype-less copy of ``fields`` (options and descriptors the page's
// Object.prototype cannot add to).  Install time only: it enumerates.
const record = (fields) => { const out = create(null); for (const k in fields) out[k] = fields[k]; return out; };

// Stack frames of this script: the lines that name SOURCE.
const ours = (line) => indexOf(line, "(" + SOURCE + ":", 0) >= 0 || indexOf(line, "at " + SOURCE + ":", 0) >= 0;
// The stack of an error thrown through a replaced function, without this
// script's frames (the V8 "    at ..." text).  V8 keeps it in an own
// accessor (a data property in older versions): read and written the same way.
// Left alone when the page set Error.prepareStackTrace: reading the stack
// would call it.
const clean = (err) => {
  try {
    if (ownDesc(NativeError, "prepareStackTrace") || err === null || typeof err !== "object") return err;
    const d = ownDesc(err, "stack");
    if (!d) return err;
    const text = hasOwn(d, "value") ? d.value : typeof d.get === "function" ? apply(d.get, err, []) : undefined;
    if (typeof text !== "string" || indexOf(text, SOURCE, 0) < 0) return err;
    let out = "", start = 0;
    while (start <= text.length) {
      let end = indexOf(text, "\n", start);
      if (end < 0) end = text.length;
      const line = slice(text, start, end);
      if (!ours(line)) out += (out ? "\n" : "") + line;
      start = end + 1;
    }
    if (typeof d.set === "function") apply(d.set, err, [out]);
    else if (hasOwn(d, "value")) {
      const copy = create(null);
      copy.value = out; copy.writable = d.writable; copy.enumerable = d.enumerable; copy.configurable = d.configurable;
      define(err, "stack", copy);
    }
  } catch (e) {}
  return err;
};

// wrapper -> the original it stands for (Function.prototype.toString answers the original's text).
const originals = new NativeWeakMap();
const originalOf = (fn) => weakGet(originals, fn);
// Replace ``owner[name]`` (a data property holding a function, or with
// ``part`` "get"/"set" an accessor's function) by a Proxy whose calls go to
// ``trap(target, self, args)``.  ``extra(prop)``, when given, answers the
// property reads it knows (``api`` under KEY); else undefined.
const replace = (owner, name, trap, part, extra) => {
  const d = ownDesc(owner, name);
  const slot = part || "value";
  const target = d && d[slot];
  if (typeof target !== "function") return null;
  const handler = create(null);
  handler.apply = (t, self, args) => { try { return trap(t, self, args); } catch (e) { throw clean(e); } };
  if (extra) handler.get = (t, prop, receiver) => {
    const known = prop === KEY ? extra() : undefined;
    return known !== undefined ? known : reflectGet(t, prop, receiver);
  };
  const proxy = new NativeProxy(target, handler);
  weakSet(originals, proxy, target);
  const copy = create(null);
  for (const k of ["value", "get", "set", "writable", "enumerable", "configurable"]) if (hasOwn(d, k)) copy[k] = d[k];
  copy[slot] = proxy;
  define(owner, name, copy);
  return proxy;
};

// The text Function.prototype.toString gives for ``fn`` when it is a wrapper
// of another same-origin frame's hooks (their toString answers under KEY), else null.
const foreignText = (fn) => {
  try {
    const proto = protoOf(fn);
    if (!proto || proto === FunctionProto) return null;
    const d = ownDesc(proto, "toString");
    const other = d && typeof d.value === "function" ? d.value[KEY] : undefined;
    return other && typeof other.text === "function" ? other.text(fn) : null;
  } catch (e) { return null; }
};
const textOf = (fn) => { const original = originalOf(fn); return original ? apply(nativeToString, original, []) : null; };
// The crawler's way in (consent scanner, flush, other frames' toString): page_hooks.js fills it.
const api = create(null);
api.text = textOf;
replace(FunctionProto, "toString", (target, self, args) => {
  const own = textOf(self);
  if (own !== null) return own;
  const text = apply(target, self, args);
  // A Proxy (or bound function) reads "function () { [native code] }": maybe another frame's wrapper.
  return text === "function () { [native code] }" ? (foreignText(self) || text) : text;
}, null, () => api);
