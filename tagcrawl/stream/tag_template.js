/*
 * tagcrawl browser tag: reports every request that the page sends to a vendor
 * of the catalog as one event to the stream endpoint.  What it sends: docs/tag.md.
 *
 * Install: <script async src="https://STREAM/stream/tag.js" data-token="TOKEN"></script>
 * Optional attributes data-sv, data-env, data-cid, data-cn are sent as sv, env, cid, cn.
 *
 * Template of tagcrawl/stream/tagjs.py, which fills in __TAGCRAWL_VERSION__ and
 * __TAGCRAWL_VENDORS__ and minifies: identifiers that start with "$" are local
 * and get short names, so never use a "$" name as a property.  No "${" in
 * template literals.
 */
(function (w, d) {
  "use strict";
  // A second copy of the tag does nothing.
  if (w.__tagcrawl) return;
  let $me = d.currentScript;
  if (!$me || !$me.getAttribute("data-token")) $me = d.querySelector("script[data-token][src*='/stream/tag.js']");
  const $token = $me && $me.getAttribute("data-token");
  if (!$token) return;
  let $stream;
  try {
    $stream = new URL("api/v1", $me.src);
  } catch ($x) {
    return;
  }
  const $version = "__TAGCRAWL_VERSION__", $nav = navigator, $extra = {}, $obj = () => Object.create(null);
  for (const $k of ["sv", "env", "cid", "cn"]) {
    const $v = $me.getAttribute("data-" + $k);
    if ($v) $extra[$k] = $v.slice(0, 64);
  }

  // --- the vendor catalog (tagjs.compact_vendors) ----------------------------
  // Vendors split by newlines: name TAB pattern TAB pattern...; a pattern is
  // host~path~require~require_body~event_param; host is "" (any host), "=" (the
  // previous pattern's), a list of domains "a.com|b.net" or a regex; require
  // is "name=regex&name=regex".  Patterns with a host are tried first.
  const $re = ($s) => new RegExp($s);
  const $pairs = ($s) => ($s ? $s.split("&") : []).map(($kv) => [$kv.slice(0, $kv.indexOf("=")), $re($kv.slice($kv.indexOf("=") + 1))]);
  const $hosted = [], $any = [];
  let $bad = 0;
  for (const $line of String.raw`__TAGCRAWL_VENDORS__`.split("\n")) {
    const [$name, ...$rows] = $line.split("\t");
    let $h = null;
    for (const $row of $rows) {
      const [$host, $path, $req, $body, $ev] = $row.split("~");
      try {
        if ($host !== "=") $h = !$host ? null : /^[a-z0-9.|-]+$/.test($host) ? $re("(?:^|\\.)(?:" + $host.replace(/\./g, "\\.") + ")$") : $re($host);
        ($h ? $hosted : $any).push({ n: $name, h: $h, p: $path ? $re($path) : null, r: $pairs($req), b: $pairs($body), e: $ev });
      } catch ($x) {
        $bad++;
      }
    }
  }
  const $patterns = $hosted.concat($any);

  // --- decoding ------------------------------------------------------------
  const $isObj = ($v) => !!$v && typeof $v === "object" && !Array.isArray($v);
  const $has = ($v) => $v != null && $v !== "";
  const $dec = ($s) => {
    try {
      return decodeURIComponent($s.replace(/\+/g, " "));
    } catch ($x) {
      return $s;
    }
  };
  // First value wins, non-strings as JSON (like the crawler's decoder).
  const $put = ($o, $k, $v) => {
    if ($k && !($k in $o)) $o[$k] = typeof $v === "string" ? $v : $v == null ? "" : JSON.stringify($v);
  };
  const $form = ($s, $o = $obj()) => {
    for (const $kv of ($s || "").split("&")) {
      const $i = $kv.indexOf("=");
      $put($o, $dec($i < 0 ? $kv : $kv.slice(0, $i)), $i < 0 ? "" : $dec($kv.slice($i + 1)));
    }
    return $o;
  };
  const $json = ($t) => {
    $t = typeof $t === "string" ? $t.trim() : "";
    if (/^[[{]/.test($t)) {
      try {
        return JSON.parse($t);
      } catch ($x) {}
    }
  };
  // A parameter carrying JSON: verbatim ("data") or base64 (Mixpanel, Klaviyo, PostHog).
  const $embedded = ($k, $v) => {
    if ($k === "data" && /^[[{]/.test($v)) return $json($v);
    if (!/^(eyJ|W3s)[A-Za-z0-9+/_-]{6,}=*$/.test($v)) return;
    try {
      const $b = atob($v.replace(/-/g, "+").replace(/_/g, "/"));
      return $json(new TextDecoder().decode(Uint8Array.from($b, ($c) => $c.charCodeAt(0))));
    } catch ($x) {}
  };
  // JSON flattened one level: {"a": {"b": 1}} -> {"a.b": "1"}.
  const $flat = ($doc, $o) => {
    if ($isObj($doc)) {
      for (const $k in $doc) {
        const $v = $doc[$k];
        if ($isObj($v) && Object.keys($v).length) for (const $k2 in $v) $put($o, $k + "." + $k2, $v[$k2]);
        else $put($o, $k, $v);
      }
    }
    return $o;
  };
  const $get = ($doc, $path) => {
    if ($isObj($doc) && $path in $doc) return $doc[$path];
    let $node = $doc;
    for (const $part of $path.split(".")) $node = $node != null && typeof $node === "object" ? $node[$part] : undefined;
    return $node;
  };
  // First string in a value (an event given as JSON: [["pageview", {}]] -> "pageview").
  const $first = ($v, $n = 0) => {
    if (typeof $v === "string" && /^[[{]/.test($v)) $v = $json($v) ?? $v;
    if (typeof $v === "string" || typeof $v === "number") return String($v);
    if ($v && typeof $v === "object" && $n < 4) {
      for (const $y of Object.values($v)) {
        const $s = $first($y, $n + 1);
        if ($s) return $s;
      }
    }
  };
  // A request body as text; a Promise for a Blob or a Request; null when unreadable.
  const $text = ($b) => {
    if ($b == null || typeof $b === "string") return $b;
    if (typeof $b === "function") return $b();
    if ($b instanceof URLSearchParams) return String($b);
    if ($b instanceof FormData) return String(new URLSearchParams([...$b].filter(($e) => typeof $e[1] === "string")));
    if ($b instanceof Blob) return $b.size < 262144 ? $b.text() : null;
    if ($b instanceof ArrayBuffer || ArrayBuffer.isView($b)) return new TextDecoder().decode($b);
    return null;
  };
  // The hits of one request: [{p: every parameter (URL, form, JSON flattened),
  // d: dt[0] (URL and form parameters), j: the JSON document}]; a body of
  // several form lines (GA4 batch) gives one hit per line.
  const $items = ($a, $body) => {
    const $base = $obj(), $path = $a.pathname, $i = $path.indexOf(";");
    if ($i >= 0) {
      const $parts = $path.slice($i + 1).split(";"), $last = $path.slice(0, $i).split("/").pop();
      if ($last.indexOf("=") > 0) $parts.unshift($last);
      for (const $kv of $parts) if ($kv.indexOf("=") > 0) $form($kv, $base);
    }
    Object.assign($base, $form($a.search.slice(1)));
    const $t = ($body || "").slice(0, 262144), $doc = $json($t);
    const $lines = $doc === undefined ? $t.split(/\r?\n/).filter(($l) => $l.trim()) : [];
    const $forms = $lines.every(($l) => $l.indexOf("=") > 0 && !/[ {]/.test($l.split("=")[0])) ? $lines.map(($l) => $form($l.trim())) : [];
    if ($forms.length > 1) {
      return $forms.map(($f) => {
        const $p = Object.assign($obj(), $base, $f);
        return { p: $p, d: $p, j: null };
      });
    }
    const $d = Object.assign($obj(), $forms[0], $base), $p = Object.assign($obj(), $d);
    let $j = $doc ?? null;
    for (const $k in $d) {
      const $e = $j ? null : $embedded($k, $d[$k]);
      if ($e != null) {
        $j = $e;
        delete $d[$k];
      }
    }
    $flat(Array.isArray($j) ? $j[0] : $j, $p);
    return [{ p: $p, d: $d, j: $j }];
  };
  const $ok = ($c, $it) => $c.r.every(([$k, $rx]) => $has($it.p[$k]) && $rx.test($it.p[$k])) &&
    $c.b.every(([$k, $rx]) => {
      const $v = $get($it.j, $k);
      return $has($v) && $rx.test(typeof $v === "string" ? $v : JSON.stringify($v));
    });
  // The pattern's event parameter, else a usual JSON key, else the URL path.
  const $event = ($c, $it, $a) => {
    let $v = $c.e && ($has($it.p[$c.e]) ? $it.p[$c.e] : $get($it.j, $c.e));
    const $top = Array.isArray($it.j) ? $it.j[0] : $it.j;
    for (const $k of ["event", "event_name", "eventName", "ev", "en", "type"]) if (!$has($v) && $isObj($top)) $v = $top[$k];
    return (($has($v) && $first($v)) || $a.pathname).slice(0, 255);
  };

  // --- privacy: e-mail addresses and phone numbers are removed ---------------
  const $email = /[^\s@<>()[\]\\,;:"'/?&=#]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}/i;
  const $pii = ($k, $v) => {
    if (typeof $v === "number") $v = String($v);
    if (typeof $v !== "string") return false;
    if ($email.test($v)) return true;
    const $s = $v.trim(), $n = $s.replace(/\D/g, "").length;
    if ($n < 7 || $n > 15 || !/^\+?[\d\s().-]+$/.test($s)) return false;
    return $s[0] === "+" || /^\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}$/.test($s) ||
      /(^|[^a-z])(ph|phone|phonenumber|tel|telephone|mobile|cell|msisdn)([^a-z]|$)/i.test(String($k).replace(/([a-z])([A-Z])/g, "$1_$2"));
  };
  // A URL without fragment, PII parameters or e-mail addresses in the path; at most 2,048 characters.
  const $url = ($s, $np) => {
    const $a = new URL($s, d.baseURI), $q = [...$a.searchParams], $keep = $q.filter(([$k, $v]) => !$pii($k, $v));
    $a.hash = "";
    if ($keep.length < $q.length) {
      $np.pii = ($np.pii || 0) + $q.length - $keep.length;
      $a.search = String(new URLSearchParams($keep));
    }
    if ($email.test($a.pathname)) $a.pathname = $a.pathname.replace(new RegExp($email.source, "gi"), "redacted");
    if ($a.href.length > 2048) $a.search = "";
    return $a.href.slice(0, 2048);
  };
  // A free-form value within the endpoint's caps, PII removed (undefined: dropped).
  const $clean = ($v, $k, $n, $np) => {
    if (typeof $v === "string" && /^https?:\/\//i.test($v)) {
      try {
        $v = $url($v, $np);
      } catch ($x) {}
    }
    if ($pii($k, $v)) {
      $np.pii = ($np.pii || 0) + 1;
      return;
    }
    if (typeof $v === "string") return $v.slice(0, 1024);
    if (typeof $v === "number") return isFinite($v) ? $v : null;
    if (!$v || typeof $v !== "object") return $v;
    if ($n < 1) return;
    if (Array.isArray($v)) return $v.slice(0, 50).map(($y) => $clean($y, $k, $n - 1, $np)).filter(($y) => $y !== undefined);
    const $o = {};
    for (const $y of Object.keys($v).filter(($y) => $y.length <= 128).slice(0, 80)) {
      const $z = $clean($v[$y], $y, $n - 1, $np);
      if ($z !== undefined) $o[$y] = $z;
    }
    return $o;
  };

  // --- sending: one event per request; the tag's own requests are not observed -
  const $uuid = () => crypto.randomUUID ? crypto.randomUUID() :
    "10000000-1000-4000-8000-100000000000".replace(/[018]/g, ($c) => ($c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> ($c / 4)))).toString(16));
  const $isId = ($s) => /^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test($s || "");
  let $sid;
  try {
    $sid = sessionStorage.getItem("_tcsid");
    if (!$isId($sid)) sessionStorage.setItem("_tcsid", ($sid = $uuid()));
  } catch ($x) {
    if (!$isId($sid)) $sid = $uuid();
  }
  let $beacon, $fetch;
  const $send = ($ev) => {
    let $s = JSON.stringify($ev);
    if (new TextEncoder().encode($s).length > 60000) {
      $ev.dt = [];
      $ev.np[0].cut = 1;
      $s = JSON.stringify($ev);
    }
    try {
      if ($beacon && $beacon.call($nav, $stream.href, $s)) return;
    } catch ($x) {}
    try {
      $fetch.call(w, $stream.href, { method: "POST", body: $s, keepalive: true, credentials: "omit" }).catch(() => {});
    } catch ($x) {}
  };
  const $make = ($c, $a, $m, $it, $tr, $t0) => {
    const $np = { tr: $tr }, $dt = [$clean($it.d, "", 7, $np)];
    for (const $o of Array.isArray($it.j) ? $it.j.slice(0, 20) : [$it.j]) if ($isObj($o)) $dt.push($clean($o, "", 7, $np));
    const $u = new URL($url(location.href, $np));
    const $ev = Object.assign({ t: $token, vn: $c.n, e: $event($c, $it, $a), vu: $url($a.href, $np), m: $m, u: $u.href,
      p: $u.pathname.slice(0, 2048), tm: Date.now(), dt: $dt, dm: "tag", mv: $version, sid: $sid }, $extra);
    $ev.et = Math.max(0, Math.round(performance.now() - $t0));
    if ($bad) $np.bad = $bad;
    $ev.np = [$np];
    return $ev;
  };
  // Match one request against the catalog; returns its events, sent unless dry.
  const $see = ($href, $m, $body, $tr, $dry) => {
    const $t0 = performance.now();
    let $a;
    try {
      $a = new URL($href, d.baseURI);
    } catch ($x) {
      return [];
    }
    $m = String($m || "GET").toUpperCase();
    if (!/^https?:$/.test($a.protocol) || $m === "OPTIONS" || ($a.origin === $stream.origin && $a.pathname === $stream.pathname)) return [];
    const $host = $a.hostname.toLowerCase(), $cands = $patterns.filter(($c) => (!$c.h || $c.h.test($host)) && (!$c.p || $c.p.test($a.pathname)));
    if (!$cands.length) return [];
    const $t = $text($body);
    if ($t && typeof $t.then === "function") {
      $t.then(($s) => $see($href, $m, $s, $tr), () => $see($href, $m, null, $tr));
      return [];
    }
    const $its = $items($a, $t);
    for (const $c of $cands) {
      const $evs = $its.filter(($it) => $ok($c, $it)).map(($it) => $make($c, $a, $m, $it, $tr, $t0));
      if ($evs.length) {
        if (!$dry) $evs.forEach($send);
        return $evs;
      }
    }
    return [];
  };
  const $safe = ($f) => function () {
    try {
      $f.apply(this, arguments);
    } catch ($x) {}
  };
  // o[k] becomes a function that reports (never throwing), then calls the original; returns the original.
  const $wrap = ($o, $k, $f) => {
    const $orig = $o && $o[$k], $g = $safe($f);
    if (typeof $orig === "function") {
      $o[$k] = function () {
        $g.apply(this, arguments);
        return $orig.apply(this, arguments);
      };
    }
    return $orig;
  };

  // --- hooks -----------------------------------------------------------------
  w.__tagcrawl = { v: $version, match: ($href, $m, $body) => $see($href, $m, $body, "match", true) };
  const $seen = new WeakMap();
  const $kind = ($n) => $n.tagName === "IMG" ? "image" : $n.tagName === "IFRAME" ? "iframe" : null;
  const $el = ($n, $v, $tr) => {
    const $u = $v && new URL($v, d.baseURI).href;
    if ($u && $seen.get($n) !== $u) {
      $seen.set($n, $u);
      $see($u, "GET", null, $tr);
    }
  };
  const $node = $safe(($n) => {
    const $t = $n.nodeType === 1 && $kind($n);
    if ($t) $el($n, $n.getAttribute("src"), $t);
  });
  // Requests sent before the tag ran (pixels, iframes, beacons): from the resource timeline, once.
  try {
    for (const $n of d.querySelectorAll("img[src],iframe[src]")) $seen.set($n, new URL($n.getAttribute("src"), d.baseURI).href);
    for (const $r of performance.getEntriesByType("resource")) {
      const $t = { img: "image", iframe: "iframe", beacon: "beacon" }[$r.initiatorType];
      if ($t) $see($r.name, $t === "beacon" ? "POST" : "GET", null, $t + "-timing");
    }
  } catch ($x) {}
  $fetch = $wrap(w, "fetch", ($i, $o) => {
    const $r = $i instanceof Request;
    let $b = $o && $o.body;
    if ($b == null && $r && !/^(GET|HEAD)$/i.test($i.method)) $b = () => $i.clone().text();
    $see($r ? $i.url : String($i), ($o && $o.method) || ($r ? $i.method : "GET"), $b, "fetch");
  });
  $beacon = $wrap($nav, "sendBeacon", ($u, $b) => $see($u, "POST", $b, "beacon"));
  const $xhr = new WeakMap(), $xp = w.XMLHttpRequest && XMLHttpRequest.prototype;
  $wrap($xp, "open", function ($m, $u) {
    $xhr.set(this, [$m, $u]);
  });
  $wrap($xp, "send", function ($b) {
    const $x = $xhr.get(this);
    if ($x) $see($x[1], $x[0], $b, "xhr");
  });
  for (const [$C, $tr] of [[w.HTMLImageElement, "image"], [w.HTMLIFrameElement, "iframe"]]) {
    const $proto = $C && $C.prototype, $ds = $proto && Object.getOwnPropertyDescriptor($proto, "src");
    if ($ds && $ds.set && $ds.configurable) {
      const $g = $safe(function ($v) {
        $el(this, String($v), $tr);
      });
      Object.defineProperty($proto, "src", { configurable: true, enumerable: $ds.enumerable, get: $ds.get, set($v) {
        $g.call(this, $v);
        $ds.set.call(this, $v);
      } });
    }
  }
  $wrap(w.Element && Element.prototype, "setAttribute", function ($k, $v) {
    const $t = $kind(this);
    if ($t && String($k).toLowerCase() === "src") $el(this, String($v), $t);
  });
  try {
    new MutationObserver(($ms) => {
      for (const $m of $ms) {
        if ($m.type === "attributes") $node($m.target);
        else for (const $n of $m.addedNodes) {
          $node($n);
          if ($n.querySelectorAll) $n.querySelectorAll("img[src],iframe[src]").forEach($node);
        }
      }
    }).observe(d.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ["src"] });
  } catch ($x) {}
})(window, document);
