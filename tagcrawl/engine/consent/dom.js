// Shared prelude of the consent scripts (scripts.py puts it before scan.js,
// check.js and mark.js), run by WebDriver in one document (one frame).
//
// arguments[0].key: the page hooks' key.  The hooks' API is
// Function.prototype.toString[key] (engine/capture/hooks.py): closed shadow
// roots, the elements already tried and the TCF state live there, never on the
// page's objects; without the hooks (a frame they did not reach) closed roots
// are not seen and nothing is remembered.
// Defines: R (arguments[0]), api, shadowOf, parentOf, visible, onScreen,
// deep(el, sel) (el and its descendants matching sel, through shadow roots)
// and shown(el) (el or one of its first 400 descendants is on screen).
const R = arguments[0];
const api = (() => { try { return Function.prototype.toString[R.key] || null; } catch (e) { return null; } })();
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
