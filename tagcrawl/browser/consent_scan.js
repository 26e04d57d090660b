// Consent scanner, run by WebDriver in one document (one frame).
//
// arguments[0]: {cmps, accept, never, consentWords, ageWords, frameLayered, relaxWords, mode}.
// mode "check": arguments[1..] are elements; returns [shown?] for each (verification).
// Otherwise returns {found, cmp, how, box, button, text, frames, frameLayered, tcf, globals}:
//   found: a banner was found; box: its container (null when it is this whole
//   document); button: the accept button or null; frames: visible iframes to
//   scan next, the banner's own first; frameLayered[i]: that iframe sits in a
//   fixed/sticky/dialog layer; tcf: the __tcfapi ping answer, when any.
// Searches the document, its open shadow roots and the closed ones recorded
// by the page hooks (window.__tcShadowRoot).
const R = arguments[0];
const closedRoot = typeof window.__tcShadowRoot === "function" ? window.__tcShadowRoot : () => null;
const shadowOf = (el) => el.shadowRoot || closedRoot(el);
const parentOf = (n) => n.parentElement || (n.getRootNode && n.getRootNode() !== n && n.getRootNode().host) || null;
const visible = (el) => {
  if (!el || !el.isConnected || el.nodeType !== 1) return false;
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) return false;
  for (let n = el; n; n = parentOf(n)) {
    const s = getComputedStyle(n);
    if (s.display === "none" || s.visibility === "hidden" || Number(s.opacity) === 0) return false;
  }
  return true;
};
const onScreen = (el) => {
  if (!visible(el)) return false;
  const r = el.getBoundingClientRect();
  return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
};
// deep(el, sel): el and its descendants matching sel, through shadow roots.
const deep = (el, sel) => {
  const out = [];
  const visit = (root) => {
    try { out.push(...root.querySelectorAll(sel)); } catch (e) { return; }
    for (const n of root.querySelectorAll("*")) { const s = shadowOf(n); if (s) visit(s); }
  };
  try { if (el.matches(sel)) out.push(el); } catch (e) { return out; }
  const own = shadowOf(el);
  if (own) visit(own);
  visit(el);
  return out;
};
const shown = (el) => onScreen(el) || deep(el, "*").slice(0, 400).some(onScreen);
if (R.mode === "check") return Array.prototype.slice.call(arguments, 1).map((el) => !!el && shown(el));

const norm = (t) => (t || "").replace(/\s+/g, " ").trim();
const key = (t) => norm((t || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
  .replace(/ı/g, "i").replace(/ß/g, "ss").replace(/[\p{P}\p{S}]/gu, " "));
const compact = (t) => key(t).replace(/ /g, "");
const label = (el) => norm(el.innerText || el.value || el.getAttribute("aria-label") || el.getAttribute("title") ||
  el.textContent);
const cjk = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
const acceptKeys = new Set(R.accept.map(compact));
const neverKeys = R.never.map(key).filter(Boolean);
const never = (text) => {
  const k = key(text), spaced = " " + k;
  return neverKeys.some((w) => (cjk.test(w) ? k.includes(w) : spaced.includes(" " + w)));
};
// A label that is exactly an accept phrase is one; any other label (a CMP's
// accept selector matched it) is refused when it contains a never-word.
const isAccept = (el) => acceptKeys.has(compact(label(el)));
// A link to another page (a policy page) is never an accept button.
const navLink = (el) => {
  if (el.tagName !== "A" || el.getAttribute("role") === "button") return false;
  const href = el.getAttribute("href");
  if (!href || /^(#|javascript:)/i.test(href.trim())) return false;
  try { return new URL(el.href).href.split("#")[0] !== location.href.split("#")[0]; } catch (e) { return true; }
};
const BUTTONS = "button,[role=button],a,input[type=button],input[type=submit],[onclick]";

const roots = [];
(function walk(root) {
  roots.push(root);
  for (const el of root.querySelectorAll("*")) { const s = shadowOf(el); if (s) walk(s); }
})(document);
const all = (sel) => {
  const out = [];
  for (const r of roots) { try { out.push(...r.querySelectorAll(sel)); } catch (e) { return []; } }
  return out;
};
const layer = (el) => {
  for (let n = el; n; n = parentOf(n)) {
    if (n.nodeType !== 1) continue;
    const s = getComputedStyle(n);
    if (s.position === "fixed" || s.position === "sticky" || n.tagName === "DIALOG" ||
        ["dialog", "alertdialog"].includes(n.getAttribute("role")) || n.getAttribute("aria-modal") === "true") return n;
  }
  return R.frameLayered ? document.body : null;
};
const has = (path) => {
  let o = window;
  for (const p of path.split(".")) {
    if (o === null || o === undefined) return false;
    try { o = o[p]; } catch (e) { return false; }
  }
  return o !== undefined && o !== null;
};
const GENERIC_GLOBALS = new Set(["__tcfapi", "__uspapi", "__gpp"]);
const byGlobals = () => {
  const named = R.cmps.filter((c) => c.globals.some((g) => !GENERIC_GLOBALS.has(g) && has(g)));
  return named.length === 1 ? named[0].name : null;
};

// (b) IAB TCF: ping (answer kept for the next scan when it comes late) and a
// listener that records eventStatus (useractioncomplete verifies a click).
if (!window.__tcConsent) Object.defineProperty(window, "__tcConsent", { value: { ping: null, status: null } });
const state = window.__tcConsent;
if (typeof window.__tcfapi === "function") {
  try { window.__tcfapi("ping", 2, (p) => { if (p) state.ping = p; }); } catch (e) {}
  if (!state.listening) {
    state.listening = true;
    try { window.__tcfapi("addEventListener", 2, (d, ok) => { if (ok && d && d.eventStatus) state.status = d.eventStatus; }); } catch (e) {}
  }
}
const ping = state.ping;
const tcf = ping ? { cmpId: ping.cmpId || null, displayStatus: ping.displayStatus || null } : null;
const tcfVisible = !!(tcf && tcf.displayStatus === "visible");

// Iframes to scan next: the banner's own first, then those in a layer, then
// the largest; at most MAX_FRAMES (ad-heavy pages have dozens).
const MAX_FRAMES = 12;
const framesOf = (box) => {
  const own = new Set(box ? deep(box, "iframe,frame") : []);
  const area = (f) => { const r = f.getBoundingClientRect(); return r.width * r.height; };
  const ranked = all("iframe,frame").filter(visible)
    .map((f) => ({ f, own: own.has(f), layered: !!layer(f), area: area(f) }))
    .sort((a, b) => (b.own - a.own) || (b.layered - a.layered) || (b.area - a.area))
    .slice(0, MAX_FRAMES);
  return { frames: ranked.map((x) => x.f), frameLayered: ranked.map((x) => x.layered) };
};
const hit = (cmp, how, box, button) => Object.assign(
  { found: true, cmp, how, box, button, text: button ? label(button) : null, tcf }, framesOf(box));
const usable = (el) => visible(el) && (isAccept(el) || !never(label(el)));
const byLabel = (box) => deep(box, BUTTONS).find((b) => visible(b) && isAccept(b) && !navLink(b)) || null;
const bySelectors = (box, selectors) => {
  for (const sel of selectors) {
    const el = (box ? deep(box, sel) : []).find(usable) || all(sel).find(usable);
    if (el) return el;
  }
  return null;
};

// (a) Known CMPs: their own iframe documents, then their banners.
const host = location.hostname;
for (const c of R.cmps) {
  if (!c.frames.some((h) => host === h || host.endsWith("." + h))) continue;
  const button = bySelectors(null, c.frame_accept) || (document.body && byLabel(document.body));
  return hit(c.name, "cmp", null, button || null);
}
for (const c of R.cmps) {
  const box = c.presence.map(all).flat().find(shown);
  if (!box) continue;
  return hit(c.name, "cmp", box, bySelectors(box, c.accept) || byLabel(box));
}

// (c) Text heuristic: an accept label inside a fixed, sticky or dialog layer
// that talks about cookies or consent (not needed when TCF shows its UI).
const words = R.consentWords.map(key), ageWords = R.ageWords.map(key);
const relax = tcfVisible || R.relaxWords;
for (const btn of all(BUTTONS)) {
  if (!visible(btn) || !isAccept(btn) || navLink(btn)) continue;
  const box = layer(btn);
  if (!box) continue;
  const text = (" " + key(box.innerText || box.textContent) + " ").replace(" " + key(label(btn)) + " ", " ");
  if (text.length > 4000 || ageWords.some((w) => text.includes(w))) continue;
  if (!relax && !words.some((w) => text.includes(w))) continue;
  const name = tcf && tcf.cmpId ? "TCF CMP " + tcf.cmpId : byGlobals();
  return hit(name, tcfVisible ? "tcf" : "heuristic", box === document.body ? null : box, btn);
}
if (tcfVisible) return hit("TCF CMP " + (tcf.cmpId || "?"), "tcf", null, null);
return Object.assign({ found: false, tcf }, framesOf(null));
