// Async script: waits until the CSS animations and transitions running in the
// subtree of arguments[0] end (a banner fading out), at most arguments[1] ms.
// Calls back true when some were running, false when none (or on error).
const done = arguments[arguments.length - 1];
try {
  const running = arguments[0].getAnimations({subtree: true}).map((a) => a.finished.catch(() => null));
  if (!running.length) { done(false); } else {
    Promise.race([Promise.all(running), new Promise((r) => setTimeout(r, arguments[1]))]).then(() => done(true));
  }
} catch (e) { done(false); }
