// The flush (flush.py), in each frame's main world: a leaving visitor's events.
// With the page hooks (__API__: their API, PageHooks.api()), their native-masked
// visibilityState/hidden getters read "hidden" and the events are dispatched from
// scheduler tasks; the promise returned settles after both.  A frame without the hooks
// gets own accessors on document and the events dispatched from this script.
(() => {
  let api = null;
  try { api = __API__; } catch (e) {}
  if (api) return api.leave();
  try {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  } catch (e) {}
  document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
  window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: false }));
  return null;
})()
