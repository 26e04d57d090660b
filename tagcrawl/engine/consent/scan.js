// Consent scanner (after dom.js), run by WebDriver in one document (one frame).
//
// arguments[0]: {key, cmps, accept, never, consentWords, ageWords, frameLayered, relaxWords,
//                action, reject, settingsWords, save, secondLayer}; cmps: Cmp.scanner_rule() of
//                each known CMP, in match order (rules.py).
// Returns {found, cmp, how, box, button, text, buttons, texts, saving, toggles, toggleTexts,
//          settings, settingTexts, frames, frameLayered, tcf}:
//   found: a banner was found; box: its container (null when it is this whole
//   document); buttons: candidates for ``action`` ("accept", default, or
//   "reject"), best first, never one already tried; button/text: the first;
//   settings: buttons that open a second layer ("Settings", "Manage") when
//   action is "reject" (with secondLayer, "Save" buttons count as refusing
//   once toggles are off); saving[i]: buttons[i] is such a "Save"; toggles /
//   toggleTexts: the layer's checkboxes and switches that are on and can be
//   switched off (at most MAX_TOGGLES), to untick before a "Save" (with
//   secondLayer only); frames: visible iframes to
//   scan next, the banner's own first; frameLayered[i]: that iframe sits in a
//   fixed/sticky/dialog layer; tcf: the __tcfapi ping answer, when any.
// Searches the document, its open shadow roots and the closed ones recorded
// by the page hooks (dom.js); a layer's text is read through them too (a
// banner drawn by a shadow host has an empty innerText).  With secondLayer,
// a layer the crawler marked as tried (the first layer, still shown after its
// "Settings" click) is taken only when no other layer is found.
const REJECT = R.action === "reject";

const norm = (t) => (t || "").replace(/\s+/g, " ").trim();
const key = (t) => norm((t || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
  .replace(/ı/g, "i").replace(/ß/g, "ss").replace(/[\p{P}\p{S}]/gu, " "));
const compact = (t) => key(t).replace(/ /g, "");
const label = (el) => norm(el.innerText || el.value || el.getAttribute("aria-label") || el.getAttribute("title") ||
  el.textContent);
// A label as reported (tagcrawl/core/truncation.py: TEXT_MAX characters, then the truncation mark).
const short = (t) => (t && t.length > 1024 ? t.slice(0, 1024) + "…[truncated " + (t.length - 1024) + " chars]" : t);
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
const wordsIn = (list) => { const ks = (list || []).map(key).filter(Boolean);
  return (text) => { const k = key(text), spaced = " " + k;
    return k.length <= 80 && ks.some((w) => (cjk.test(w) ? k.includes(w) : spaced.includes(" " + w))); }; };
const rejectText = wordsIn(R.reject), settingsText = wordsIn(R.settingsWords), saveText = wordsIn(R.save);
const tried = (el) => !!api && api.tried(el);
// Refuse: a reject label ("Reject all", "Only necessary", "Continue without
// accepting"); in a second layer also "Save"/"Confirm choices".
const isReject = (el) => !isAccept(el) && rejectText(label(el));
const isSave = (el) => !isAccept(el) && saveText(label(el)) && !/\b(accept|allow|agree)/.test(key(label(el)));
// A settings button stays on this page: no link elsewhere, no new window.
const elsewhere = (el) => el.tagName === "A" && (el.target === "_blank" ||
  (!!el.getAttribute("href") && !/^(#|javascript:)/i.test(el.getAttribute("href").trim())));
const isSettings = (el) => !isAccept(el) && !isReject(el) && !elsewhere(el) && settingsText(label(el));
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
// Globals that any CMP may define (IAB APIs): they never name one.
const GENERIC_GLOBALS = new Set(["__tcfapi", "__uspapi", "__gpp", "__cmp"]);
const byGlobals = () => {
  const named = R.cmps.filter((c) => c.globals.some((g) => !GENERIC_GLOBALS.has(g) && has(g)));
  return named.length === 1 ? named[0].name : null;
};

// (b) IAB TCF: ping (answer kept for the next scan when it comes late) and a
// listener that records eventStatus (useractioncomplete verifies a click).
const state = api ? api.consent : { ping: null, status: null, listening: false };
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
const usable = (el) => visible(el) && !tried(el) && (isAccept(el) || !never(label(el)));
const usableAny = (el) => visible(el) && !tried(el) && !isAccept(el);
const uniq = (list) => [...new Set(list)];
const allBySelectors = (box, selectors, ok) => {
  const out = [];
  for (const sel of selectors || []) {
    out.push(...(box ? deep(box, sel) : []).filter(ok), ...all(sel).filter(ok));
  }
  return out;
};
const byLabels = (box, test) => (box ? deep(box, BUTTONS) : [])
  .filter((b) => visible(b) && !tried(b) && !navLink(b) && test(b));
const byLabel = (box) => byLabels(box, isAccept)[0] || null;
// Checkboxes and switches of a second layer that are on (its "Save" would
// accept them): the ones the visitor could switch off, at most MAX_TOGGLES.
const MAX_TOGGLES = 40;
const TOGGLES = "input[type=checkbox],[role=switch],[role=checkbox]";
const isOn = (t) => (t.tagName === "INPUT" ? t.checked : t.getAttribute("aria-checked") === "true");
const locked = (t) => !!t.disabled || t.getAttribute("aria-disabled") === "true" || t.getAttribute("aria-readonly") === "true";
const togglesIn = (box) => deep(box, TOGGLES).filter((t) => isOn(t) && !locked(t)).slice(0, MAX_TOGGLES);
const toggleLabel = (t) => {
  const own = t.labels && t.labels[0] ? t.labels[0] : t.closest && t.closest("label");
  return short(norm((own && own.innerText) || t.getAttribute("aria-label") || t.getAttribute("title") ||
    (t.tagName === "INPUT" ? t.name : label(t)) || ""));
};
// Candidates for the action inside ``box`` (``sel``: the CMP's selectors).
const choose = (box, sel, first) => {
  if (!REJECT) return { buttons: uniq([...(first ? [first] : []), ...allBySelectors(box, sel.accept, usable),
                                       ...byLabels(box, isAccept)]), saves: [], settings: [] };
  const refuse = uniq([...allBySelectors(box, sel.reject, usableAny), ...byLabels(box, isReject)]);
  const saves = R.secondLayer ? uniq([...allBySelectors(box, sel.save, usableAny), ...byLabels(box, isSave)])
    .filter((b) => !refuse.includes(b)) : [];
  const buttons = [...refuse, ...saves];
  const settings = uniq([...allBySelectors(box, sel.settings, usableAny), ...byLabels(box, isSettings)])
    .filter((b) => !buttons.includes(b));
  return { buttons, saves, settings };
};
const hit = (cmp, how, box, sel, first) => {
  const { buttons, saves, settings } = choose(box || document.body, sel || {}, first);
  const button = buttons[0] || null;
  const toggles = saves.length ? togglesIn(box || document.body) : [];
  return Object.assign({ found: true, cmp, how, box, button, text: button ? short(label(button)) : null, buttons,
    texts: buttons.map((b) => short(label(b))), saving: buttons.map((b) => saves.includes(b)), toggles,
    toggleTexts: toggles.map(toggleLabel), settings, settingTexts: settings.map((b) => short(label(b))), tcf },
    framesOf(box));
};

// (a) Known CMPs: their own iframe documents, then their banners.
const host = location.hostname;
for (const c of R.cmps) {
  if (!c.frames.hosts.some((h) => host === h || host.endsWith("." + h))) continue;
  return hit(c.name, "cmp", null, c.frames);
}
// After "Settings" (secondLayer), a layer not marked as tried comes first.
const fresh = (boxes) => (R.secondLayer && boxes.find((b) => !tried(b))) || boxes[0];
for (const c of R.cmps) {
  const boxes = c.selectors.map(all).flat().filter(shown);
  if (!boxes.length) continue;
  return hit(c.name, "cmp", fresh(boxes), c);
}

// (c) Text heuristic: an accept label inside a fixed, sticky or dialog layer
// that talks about cookies or consent (not needed when TCF shows its UI).
const words = R.consentWords.map(key), ageWords = R.ageWords.map(key);
const relax = tcfVisible || R.relaxWords;
const looksLike = (b) => isAccept(b) || (REJECT && (isReject(b) || isSettings(b) || (R.secondLayer && isSave(b))));
// The first button in a consent layer; with secondLayer, one in a layer not
// tried yet, else (the second layer replaced the first one's content) the first.
let pick = null;
for (const btn of all(BUTTONS)) {
  if (!visible(btn) || tried(btn) || !looksLike(btn) || navLink(btn)) continue;
  const box = layer(btn);
  if (!box || (pick && pick.box === box)) continue;
  const text = (" " + key(textOf(box)) + " ").replace(" " + key(label(btn)) + " ", " ");
  if (text.length > 4000 || ageWords.some((w) => text.includes(w))) continue;
  if (!relax && !words.some((w) => text.includes(w))) continue;
  const found = { box, btn };
  if (R.secondLayer && tried(box)) { pick = pick || found; continue; }
  pick = found;
  break;
}
if (pick) {
  const name = tcf && tcf.cmpId ? "TCF CMP " + tcf.cmpId : byGlobals();
  return hit(name, tcfVisible ? "tcf" : "heuristic", pick.box === document.body ? null : pick.box, {},
             isAccept(pick.btn) ? pick.btn : null);
}
if (tcfVisible) return Object.assign(hit("TCF CMP " + (tcf.cmpId || "?"), "tcf", null, {}),
  { button: null, buttons: [], texts: [], saving: [], toggles: [], toggleTexts: [], settings: [], text: null });
return Object.assign({ found: false, tcf }, framesOf(null));
