// The page's links for site-audit discovery (engine/collectors/links.py), evaluated
// in the main frame after the last page action.  Returns {links, canonical, total}:
// the absolute http(s) URLs of the document's <a href> and <area href> (as the
// browser resolved them against the base URL), first 1,000 distinct ones, each at
// most 2,048 characters (longer ones skipped); the <link rel=canonical> href or null.
(() => {
  const MAX_LINKS = 1000, MAX_CHARS = 2048;
  const links = [], seen = new Set();
  let total = 0;
  const ok = (href) => typeof href === "string" && href.length <= MAX_CHARS && /^https?:/i.test(href);
  try {
    const anchors = document.querySelectorAll("a[href], area[href]");
    total = anchors.length;
    for (let i = 0; i < anchors.length && links.length < MAX_LINKS; i++) {
      let href;
      try { href = anchors[i].href; } catch (e) { continue; }
      if (ok(href) && !seen.has(href)) { seen.add(href); links.push(href); }
    }
  } catch (e) { /* a page that broke the DOM API: no links */ }
  let canonical = null;
  try {
    const link = document.querySelector('link[rel~="canonical" i][href]');
    if (link && ok(link.href)) canonical = link.href;
  } catch (e) { /* none */ }
  return {links: links, canonical: canonical, total: total};
})()
