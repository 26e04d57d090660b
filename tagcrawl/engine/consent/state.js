// The top document's localStorage (values cut at 300 characters) and the TCF
// eventStatus the scanner's listener recorded, as a CDP Runtime.evaluate
// expression: {storage: {key: value}, tcf}.  __API__ is replaced with the page
// hooks' API expression (PageHooks.api(), engine/capture/hooks.py).
(() => {
  const storage = {};
  try { for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i);
        storage[k] = String(localStorage.getItem(k)).slice(0, 300); } } catch (e) {}
  let tcf = null;
  try { tcf = __API__.consent.status; } catch (e) {}
  return {storage, tcf};
})()
