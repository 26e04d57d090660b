// The top document's localStorage and sessionStorage (at most 200 keys each,
// values cut at 300 characters), its host name, and the TCF eventStatus the
// scanner's listener recorded, as a CDP Runtime.evaluate expression:
// {storage: {key: value}, session: {key: value}, host, tcf}.  __API__ is
// replaced with the page hooks' API expression (PageHooks.api(), engine/capture/hooks.py).
(() => {
  const read = (store) => {
    const out = {};
    try { for (let i = 0; i < Math.min(store.length, 200); i++) { const k = store.key(i);
          out[k] = String(store.getItem(k)).slice(0, 300); } } catch (e) {}
    return out;
  };
  let local = {}, session = {};
  try { local = read(localStorage); } catch (e) {}
  try { session = read(sessionStorage); } catch (e) {}
  let tcf = null;
  try { tcf = __API__.consent.status; } catch (e) {}
  return {storage: local, session: session, host: String(location.hostname), tcf};
})()
