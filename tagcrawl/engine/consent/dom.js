// Shared prelude of the consent scripts (scripts.py puts it before scan.js,
// check.js and mark.js), run by WebDriver in one document (one frame).
//
// arguments[0].key: the page hooks' key.  The hooks' API is
// Function.prototype.toString[key] (engine/capture/hooks.py): closed shadow
// roots, the elements already tried and the TCF state live there, never on the
// page's objects; without the hooks (a frame they did not reach) closed roots
// are not seen and nothing is remembered.
// Defines: R (arguments[0]), api, shadowOf, parentOf, visible, onScreen,
// deep(el, sel) (el and its descendants matching sel, through shadow roots),
// shown(el) (el or one of its first 400 descendants is on screen) and
// textOf(el) (its text through shadow roots: a shadow host's innerText is empty;
// and through slots: a layer inside a shadow root shows its host's children).
const R = arguments[0];
// Through Storage.prototype.setItem when the page replaced Function.prototype.toString (core-js 3 does).
const api = (() => { try { return Function.prototype.toString[R.key] || Storage.prototype.setItem[R.key] || null; }
  catch (e) { return null; } })();
const closedRoot = api ? api.root : () => null;
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
// The text of a layer: its innerText, then the rendered text of every shadow
// root inside it, its own included (style and script elements skipped); at
// most MAX_TEXT_ROOTS roots and MAX_LAYER_TEXT characters.
const MAX_TEXT_ROOTS = 50, MAX_LAYER_TEXT = 8000, NO_TEXT = new Set(["STYLE", "SCRIPT", "TEMPLATE", "NOSCRIPT", "LINK"]);
const shadowRootsIn = (el) => {
  const out = [];
  const visit = (n) => {
    const s = out.length < MAX_TEXT_ROOTS && shadowOf(n);
    if (!s) return;
    out.push(s);
    for (const inner of s.querySelectorAll("*")) visit(inner);
  };
  visit(el);
  for (const n of el.querySelectorAll("*")) { if (out.length >= MAX_TEXT_ROOTS) break; visit(n); }
  return out;
};
// A layer drawn inside a shadow root shows its host's children through <slot>s
// (a <dialog> with the banner's text slotted in): its innerText has none of
// them, so the nodes assigned to its slots are read too (at most MAX_SLOTS
// slots), unless the layer holds the slot's host (its innerText has them).
const MAX_SLOTS = 50;
const slottedText = (el) => {
  let out = "";
  for (const slot of deep(el, "slot").slice(0, MAX_SLOTS)) {
    const root = slot.getRootNode();
    if (!root || !root.host || el.contains(root.host) || typeof slot.assignedNodes !== "function") continue;
    for (const n of slot.assignedNodes({ flatten: true })) {
      if (out.length > MAX_LAYER_TEXT) return out;
      out += " " + (n.nodeType === 1 ? (NO_TEXT.has(n.tagName) ? "" : n.innerText || "") : n.textContent || "");
    }
  }
  return out;
};
const textOf = (el) => {
  let text = (el.innerText || el.textContent || "") + slottedText(el);
  for (const root of shadowRootsIn(el)) {
    for (const child of root.children) {
      if (text.length > MAX_LAYER_TEXT) return text.slice(0, MAX_LAYER_TEXT);
      if (!NO_TEXT.has(child.tagName)) text += " " + (child.innerText || "");
    }
  }
  return text.slice(0, MAX_LAYER_TEXT);
};
