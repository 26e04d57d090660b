// The third part of the page hooks' closure (after native_mask.js and
// page_hooks.js): localStorage and sessionStorage writes, each reported with
// the stack frame of the script that wrote it (the storage collector,
// engine/collectors/storage.py, attributes that script's host).
//
// Storage.prototype.setItem is native-masked (``replace``); the native call
// runs first, then the stored value is read back with the native getItem (the
// page's toString is not called twice) and only its size is sent, never the
// value: ``{"st": {"a": "local"|"session", "k": key (at most ST_KEY_MAX
// characters), "l": the key's length when it was cut, "n": UTF-8 bytes of the value,
// "f": the writer's stack frame line (at most ST_FRAME_MAX characters, "" when
// unknown), "t": epoch ms}}``.  At most MAX_ST writes per document are sent;
// later ones are counted in ``{"stCut": n}`` (sent with each of them, n the
// running count).  A write that throws (quota, opaque origin) is not reported.
// Not seen: writes by property assignment (``localStorage.k = v``), which do
// not go through setItem.
//
// The wrapper also answers the hooks' ``api`` under KEY, as toString does:
// core-js 3 (bundled by very many sites) replaces Function.prototype.toString
// with its own function, which takes the crawler's first way in away
// (PageHooks.api() tries toString, then Storage.prototype.setItem).
const MAX_ST = 500, ST_KEY_MAX = 256, ST_FRAME_MAX = 2048;
const storageGetItem = Storage.prototype.getItem, stNow = Date.now;
const stEncode = TextEncoder.prototype.encode, stEncoder = new TextEncoder();
const stBytes = ownDesc(protoOf(Uint8Array.prototype), "byteLength").get;
const stArea = (name) => { const d = ownDesc(global, name); return d && d.get; };
const localGet = stArea("localStorage"), sessionGet = stArea("sessionStorage");
let stSent = 0, stCut = 0;
// The first stack frame line that is not the hooks' own ("" when the page set
// Error.prepareStackTrace, which reading the stack would call, or the stack is empty).
const writer = () => {
  if (ownDesc(NativeError, "prepareStackTrace")) return "";
  const text = new NativeError().stack;
  if (typeof text !== "string") return "";
  let start = indexOf(text, "\n", 0) + 1;
  while (start > 0) {
    const end = indexOf(text, "\n", start), line = slice(text, start, end < 0 ? text.length : end);
    if (!ours(line)) return slice(line, 0, ST_FRAME_MAX);
    start = end + 1;
  }
  return "";
};
const areaOf = (self) => {
  try { if (localGet && self === apply(localGet, global, [])) return "local"; } catch (e) {}
  try { if (sessionGet && self === apply(sessionGet, global, [])) return "session"; } catch (e) {}
  return null;
};
replace(Storage.prototype, "setItem", (native, self, args) => {
  const result = apply(native, self, args);
  try {
    const key = args[0], area = areaOf(self);
    if (area === null || (typeof key !== "string" && typeof key !== "number")) return result;
    if (stSent >= MAX_ST) { stCut++; send('{"stCut":' + stCut + "}"); return result; }
    const name = "" + key, value = apply(storageGetItem, self, [name]);
    const size = typeof value === "string" ? apply(stBytes, apply(stEncode, stEncoder, [value]), []) : 0;
    const m = create(null);
    m.a = area; m.k = slice(name, 0, ST_KEY_MAX); m.n = size; m.f = writer(); m.t = apply(stNow, undefined, []);
    if (name.length > ST_KEY_MAX) m.l = name.length;
    const out = create(null);
    out.st = m;
    stSent++;
    send(stringify(out));
  } catch (e) {}
  return result;
}, null, () => api);
