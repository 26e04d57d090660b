// In tagcrawl's isolated world of one frame: is any element matching one of
// the selectors (an autoconsent rule's detectPopup) shown?  A function of one
// argument, the selectors (at most 8 strings); returns a boolean.
(selectors) => selectors.some((selector) => {
  let nodes = [];
  try { nodes = Array.from(document.querySelectorAll(selector)).slice(0, 50); } catch (e) { return false; }
  return nodes.some((el) => {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return style.display !== "none" && style.visibility !== "hidden" && Number(style.opacity) > 0.05
      && box.width > 0 && box.height > 0 && el.getClientRects().length > 0;
  });
})
