/*
 * tagcrawl browser tag: reports every request that the page sends to a vendor
 * of the catalog as one event to the stream endpoint.  What it sends: docs/tag.md.
 *
 * Install: <script async src="https://STREAM/stream/tag.js" data-token="TOKEN"></script>
 * Optional attributes data-sv, data-env, data-cid, data-cn are sent as sv, env, cid, cn.
 *
 * Template of tagcrawl/stream/tag/build.py, which fills in the tag's version, the
 * vendor table and its dictionary (the __TAGCRAWL_*__ placeholders) and
 * minifies: identifiers that start with "$" are the tag's own variables and
 * get short names, so a "$" name is never a property.  No "${" in template
 * literals.
 */
(function (w, d) {
  "use strict";
  // A second copy of the tag does nothing.
  if (w.__tagcrawl) return;
  let $me = d.currentScript, $stream;
  if (!$me || !$me.dataset.token) $me = d.querySelector("script[data-token][src*='/stream/tag.js']");
  let $token = $me && $me.dataset.token;
  if (!$token) return;
  try {
    $stream = new URL("api/v1", $me.src);
  } catch {
    return;
  }
  let $version = "__TAGCRAWL_VERSION__", $nav = navigator, $extra = {}, $bad = 0, $hosted = [], $any = [];
  for (let $k of ["sv", "env", "cid", "cn"]) if ($me.dataset[$k]) $extra[$k] = $me.dataset[$k].slice(0, 64);
  let $obj = () => Object.create(null), $merge = (...$o) => Object.assign($obj(), ...$o);
  let $str = $v => typeof $v == "string";
  let $isObj = $v => !!$v && typeof $v == "object" && !Array.isArray($v);
  let $has = $v => $v != null && $v !== "";

  // --- the vendor catalog (build.py vendor_table) ----------------------------
  // Vendors split by newlines: name TAB pattern TAB pattern...; a pattern's
  // fields, split by \x1f: host, path, require, events, embedded, split (as
  // in engine/vendors/model.py); lists are split by \x1e (require: spec, regex,
  // spec, regex...).  Host is "" (any host), "=" (the previous pattern's), a
  // list of domains "a.com|b.net" (with their subdomains) or a regex.  The
  // other control characters stand for strings of the dictionary.  Patterns
  // with a host are tried first, as the crawler does, and host-less ones only
  // on hosts that no other vendor's pattern names.
  let $cache = {}, $re = $s => $cache[$s] || ($cache[$s] = new RegExp($s)), $list = $s => $s ? $s.split("\x1e") : [];
  let $dict = __TAGCRAWL_DICTIONARY__;
  for (let $line of String.raw`__TAGCRAWL_VENDORS__`.replace(/[\x01-\x08\x0b\x0c\x0e-\x1d]/g, $c => $dict[$c.charCodeAt(0)]).split("\n")) {
    let [$name, ...$rows] = $line.split("\t"), $h;
    for (let $row of $rows) {
      let [$host, $path, $req, $ev, $emb, $split] = $row.split("\x1f");
      try {
        if ($host != "=") $h = !$host ? null : /^[a-z0-9.|-]+$/.test($host) ? $re("(?:^|\\.)(?:" + $host.replace(/\./g, "\\.") + ")$") : $re($host);
        ($h ? $hosted : $any).push({ n: $name, h: $h, p: $path && $re($path), r: $list($req), e: $list($ev), m: $list($emb), s: $split || "" });
      } catch {
        $bad++;
      }
    }
  }
  let $patterns = $hosted.concat($any);

  // --- decoding (as engine/vendors/decode.py and engine/vendors/matcher.py do) -------------
  let $dec = $s => {
    try {
      return decodeURIComponent($s.replace(/\+/g, " "));
    } catch {
      return $s;
    }
  };
  let $js = $v => $str($v) ? $v : JSON.stringify($v);
  // First value wins; other values as JSON.
  let $put = ($o, $k, $v) => {
    if ($k && !($k in $o)) $o[$k] = $v == null ? "" : $js($v);
  };
  let $form = ($s, $o = $obj()) => {
    for (let $kv of $s.split("&")) {
      let $i = $kv.indexOf("=");
      $put($o, $dec($i < 0 ? $kv : $kv.slice(0, $i)), $i < 0 ? "" : $dec($kv.slice($i + 1)));
    }
    return $o;
  };
  let $json = $t => {
    try {
      if (/^\s*[[{]/.test($t)) return JSON.parse($t);
    } catch {}
  };
  // JSON flattened one level: {"a": {"b": 1}, "c": 2} -> {"a.b": "1", "c": "2"}.
  let $flat = ($doc, $o = $obj()) => {
    if ($isObj($doc)) {
      for (let $k in $doc) {
        let $v = $doc[$k];
        if ($isObj($v) && Object.keys($v)[0]) for (let $k2 in $v) $put($o, $k + "." + $k2, $v[$k2]);
        else $put($o, $k, $v);
      }
    }
    return $o;
  };
  let $get = ($doc, $path) => {
    for (let $k of $path ? $path.split(".") : []) $doc = $doc && typeof $doc == "object" ? $doc[$k] : null;
    return $doc;
  };
  // A request body as text; a Promise for a Blob or a Request; null when unreadable.
  let $text = $b => $b == null || $str($b) ? $b : typeof $b == "function" ? $b() :
    $b instanceof URLSearchParams || $b instanceof FormData ? "" + new URLSearchParams($b) :
    $b instanceof Blob ? $b.size < 262144 && $b.text() :
    $b instanceof ArrayBuffer || ArrayBuffer.isView($b) ? new TextDecoder().decode($b) : null;
  // The hits of a request for pattern c: [{p: parameters (URL, form, JSON
  // flattened), q: query, d: dt[0] (URL and form parameters), i: the batch
  // item, j: the JSON document}]; c.s splits batches ("lines", "json:<path>").
  let $items = ($c, $a, $t) => {
    let $base = $obj(), [$head, ...$parts] = $a.pathname.split(";"), $last = $head.split("/").pop(), $q = $form($a.search.slice(1));
    if ($parts[0] && $last.includes("=")) $parts.unshift($last);
    for (let $kv of $parts) if ($kv.indexOf("=") > 0) $form($kv, $base);
    Object.assign($base, $q);
    $t = ($t || "").slice(0, 262144);
    let $j = $json($t), $lines = $j ? [] : $t.split(/\r?\n/).filter($l => $l.trim());
    let $forms = $lines.every($l => /^[^= {]+=/.test($l)) ? $lines.map($l => $form($l.trim())) : [];
    if ($c.s == "lines" && $forms[0]) {
      return $forms.map($f => {
        let $p = $merge($base, $f);
        return { p: $p, q: $q, d: $p };
      });
    }
    let $d = $merge(!$forms[1] && $forms[0], $base), $p = $flat($j, $merge($d)), $node;
    for (let $k of $c.m) {
      let $v = $d[$k], $e = $v && ($json($v) || $json($b64($v)));
      if ($e) {
        $j = $e;
        delete $d[$k];
        $flat($e, $p);
        break;
      }
    }
    if ($j && $c.s.startsWith("json:")) {
      $node = $get($j, $c.s.slice(5));
      if (!Array.isArray($node) && Array.isArray($j)) $node = $j;
      if ($node && $node[0] !== undefined) return $node.slice(0, 500).map($x => ({ p: $merge($p, $flat($x)), q: $q, d: $d, i: $x, j: $j }));
    }
    return [{ p: $p, q: $q, d: $d, i: $j, j: $j }];
  };
  let $b64 = $v => {
    try {
      return new TextDecoder().decode(Uint8Array.from(atob($v.replace(/-/g, "+").replace(/_/g, "/")), $c => $c.charCodeAt(0)));
    } catch {}
  };
  // A source spec of the catalog (p:name, q:name, json:a.b.0, path:rx, host:rx,
  // url:rx, const:text; "~rx" picks a part of a value) for one hit; undefined when absent.
  let $val = ($spec, $it, $a) => {
    let $i = $spec.indexOf(":"), $kind = $spec.slice(0, $i), $arg = $spec.slice($i + 1), $m, $v;
    if ($kind == "const") return $arg;
    if (/^(path|host|url)$/.test($kind)) {
      $m = $re($arg).exec($kind == "path" ? $a.pathname : $kind == "host" ? $a.hostname : $a.href);
      return $m ? $m[1] === undefined ? $m[0] : $m.slice(1).filter(Boolean).join("/") : undefined;
    }
    $i = $arg.indexOf("~");
    $m = $i < 0 ? "" : $arg.slice($i + 1);
    if ($i >= 0) $arg = $arg.slice(0, $i);
    $v = $kind == "p" ? $it.p[$arg] : $kind == "q" ? $it.q[$arg] : $kind == "json" ? $get($it.i, $arg) ?? $get($it.j, $arg) : null;
    if ($has($v) && $m) $v = ($m = $re($m).exec($js($v))) && ($m.length > 1 ? $m[1] : $m[0]);
    return $has($v) ? $js($v) : undefined;
  };
  let $ok = ($c, $it, $a) => $c.r.every(($s, $i, $r) => $i % 2 || ($s = $val($s, $it, $a)) !== undefined && $re($r[$i + 1]).test($s));
  // The first event spec that gives a value, else the URL path.
  let $event = ($c, $it, $a) => {
    for (let $s of $c.e) if ($s = $val($s, $it, $a)) return $s.slice(0, 200);
    return $a.pathname.slice(0, 200);
  };

  // --- privacy: e-mail addresses and phone numbers are removed ---------------
  let $email = /[^\s@<>()[\]\\,;:"'/?&=#]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}/gi;
  let $pii = ($k, $v) => {
    $v = $str($v) || typeof $v == "number" ? ("" + $v).trim() : "";
    if ($v.search($email) >= 0) return true;
    let $n = $v.replace(/\D/g, "").length;
    return $n > 6 && $n < 16 && /^\+?[\d\s().-]+$/.test($v) && ($v[0] == "+" || /^\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}$/.test($v) ||
      /(^|[^a-z])(ph|phone|phonenumber|tel|telephone|mobile|cell|msisdn)([^a-z]|$)/i.test(("" + $k).replace(/([a-z])([A-Z])/g, "$1_$2")));
  };
  let $dropped = ($np, $n) => $np.pii = ($np.pii || 0) + $n;
  // A URL without fragment, PII parameters or e-mail addresses in the path; at most 2,048 characters.
  let $url = ($s, $np) => {
    let $a = new URL($s, d.baseURI), $q = [...$a.searchParams], $keep = $q.filter(([$k, $v]) => !$pii($k, $v));
    $a.hash = "";
    if ($keep.length < $q.length) {
      $dropped($np, $q.length - $keep.length);
      $a.search = new URLSearchParams($keep);
    }
    $a.pathname = $a.pathname.replace($email, "redacted");
    if ($a.href.length > 2048) $a.search = "";
    return $a.href.slice(0, 2048);
  };
  // A free-form value within the endpoint's caps, PII removed (undefined: dropped).
  let $clean = ($v, $k, $n, $np) => {
    if ($str($v) && /^https?:\/\//i.test($v)) {
      try {
        $v = $url($v, $np);
      } catch {}
    }
    if ($pii($k, $v)) return void $dropped($np, 1);
    if ($str($v)) return $v.slice(0, 1024);
    if (typeof $v == "number") return isFinite($v) ? $v : null;
    if (!$v || typeof $v != "object") return $v;
    if (!$n) return;
    if (Array.isArray($v)) return $v.slice(0, 50).map($y => $clean($y, $k, $n - 1, $np)).filter($y => $y !== undefined);
    let $o = {};
    for (let $y of Object.keys($v).filter($y => $y.length < 129).slice(0, 80)) {
      let $z = $clean($v[$y], $y, $n - 1, $np);
      if ($z !== undefined) $o[$y] = $z;
    }
    return $o;
  };

  // --- sending: one event per request; the tag's own requests are not observed -
  let $isId = $s => /^[\da-f-]{36}$/i.test($s), $sid;
  // crypto.randomUUID needs a secure context; a blob: URL ends with a random uuid anywhere.
  let $uuid = () => crypto.randomUUID ? crypto.randomUUID() : URL.createObjectURL(new Blob()).slice(-36);
  try {
    $sid = sessionStorage.getItem("_tcsid");
    if (!$isId($sid)) sessionStorage.setItem("_tcsid", $sid = $uuid());
  } catch {
    if (!$isId($sid)) $sid = $uuid();
  }
  let $beacon, $fetch;
  let $send = $ev => {
    let $s = JSON.stringify($ev);
    if (new Blob([$s]).size > 60000) {
      $ev.dt = [];
      $ev.np[0].cut = 1;
      $s = JSON.stringify($ev);
    }
    try {
      if ($beacon.call($nav, $stream.href, $s)) return;
    } catch {}
    try {
      $fetch.call(w, $stream.href, { method: "POST", body: $s, keepalive: true, credentials: "omit" }).catch(() => {});
    } catch {}
  };
  let $make = ($c, $a, $m, $it, $tr, $t0) => {
    let $np = { tr: $tr }, $dt = [$clean($it.d, "", 7, $np)], $u;
    for (let $o of [].concat($it.i).slice(0, 20)) if ($isObj($o)) $dt.push($clean($o, "", 7, $np));
    $u = new URL($url(location.href, $np));
    if ($bad) $np.bad = $bad;
    return Object.assign({ t: $token, vn: $c.n, e: $event($c, $it, $a), vu: $url($a.href, $np), m: $m, u: $u.href,
      p: $u.pathname.slice(0, 2048), tm: Date.now(), dt: $dt, dm: "tag", mv: $version, sid: $isId($sid) ? $sid : undefined, np: [$np],
      et: Math.round(performance.now() - $t0) }, $extra);
  };
  // Match one request against the catalog; returns its events, sent unless dry.
  let $see = ($href, $m, $body, $tr, $dry) => {
    let $t0 = performance.now(), $a = new URL($href, d.baseURI), $host = $a.hostname, $t;
    $m = ("" + ($m || "GET")).toUpperCase();
    if (!/^https?:$/.test($a.protocol) || $m == "OPTIONS" || $a.origin + $a.pathname == $stream.origin + $stream.pathname) return [];
    // A host-less pattern is not tried on a host that only other vendors' patterns name (matcher.py).
    let $own = $hosted.filter($c => $c.h.test($host)).map($c => $c.n);
    let $cands = $patterns.filter($c => ($c.h ? $c.h.test($host) : !$own[0] || $own.includes($c.n)) && (!$c.p || $c.p.test($a.pathname)));
    if (!$cands[0]) return [];
    $t = $text($body);
    if ($t && $t.then) {
      $t.then($s => $see($href, $m, $s, $tr), () => $see($href, $m, null, $tr)).catch(() => {});
      return [];
    }
    for (let $c of $cands) {
      let $evs = $items($c, $a, $t).filter($it => $ok($c, $it, $a)).map($it => $make($c, $a, $m, $it, $tr, $t0));
      if ($evs[0]) {
        if (!$dry) $evs.forEach($send);
        return $evs;
      }
    }
    return [];
  };
  let $safe = $f => function () {
    try {
      $f.apply(this, arguments);
    } catch {}
  };
  // o[k] becomes a function that reports (never throwing), then calls the original; returns the original.
  let $wrap = ($o, $k, $f) => {
    let $orig = $o && $o[$k], $g = $safe($f);
    if (typeof $orig == "function") {
      $o[$k] = function () {
        $g.apply(this, arguments);
        return $orig.apply(this, arguments);
      };
    }
    return $orig;
  };

  // --- hooks -----------------------------------------------------------------
  w.__tagcrawl = { v: $version, match: ($href, $m, $body) => $see($href, $m, $body, "match", 1) };
  let $seen = new WeakMap(), $xhr = new WeakMap(), $xp = XMLHttpRequest.prototype, $sel = "img[src],iframe[src]";
  let $kind = $n => ({ IMG: "image", IFRAME: "iframe" })[$n.tagName];
  let $abs = $v => new URL($v, d.baseURI).href;
  let $el = ($n, $v, $tr) => {
    if ($v && $seen.get($n) != ($v = $abs($v))) {
      $seen.set($n, $v);
      $see($v, "GET", null, $tr);
    }
  };
  let $node = $safe($n => $n.nodeType == 1 && $kind($n) && $el($n, $n.getAttribute("src"), $kind($n)));
  $fetch = $wrap(w, "fetch", ($i, $o = {}) => {
    let $r = $i instanceof Request, $b = $o.body;
    if ($b == null && $r && !/^(GET|HEAD)$/i.test($i.method)) $b = () => $i.clone().text();
    $see($r ? $i.url : "" + $i, $o.method || ($r ? $i.method : "GET"), $b, "fetch");
  });
  $beacon = $wrap($nav, "sendBeacon", ($u, $b) => $see($u, "POST", $b, "beacon"));
  $wrap($xp, "open", function ($m, $u) {
    $xhr.set(this, [$m, $u]);
  });
  $wrap($xp, "send", function ($b) {
    let $x = $xhr.get(this);
    if ($x) $see($x[1], $x[0], $b, "xhr");
  });
  for (let [$C, $tr] of [[HTMLImageElement, "image"], [HTMLIFrameElement, "iframe"]]) {
    let $ds = Object.getOwnPropertyDescriptor($C.prototype, "src"), $g = $safe(function ($v) {
      $el(this, "" + $v, $tr);
    });
    if ($ds && $ds.set && $ds.configurable) {
      Object.defineProperty($C.prototype, "src", { configurable: true, enumerable: $ds.enumerable, get: $ds.get, set($v) {
        $g.call(this, $v);
        $ds.set.call(this, $v);
      } });
    }
  }
  $wrap(Element.prototype, "setAttribute", function ($k, $v) {
    if ($kind(this) && /^src$/i.test($k)) $el(this, "" + $v, $kind(this));
  });
  new MutationObserver($ms => {
    for (let $m of $ms) {
      $node($m.target);
      for (let $n of $m.addedNodes) {
        $node($n);
        if ($n.querySelectorAll) $n.querySelectorAll($sel).forEach($node);
      }
    }
  }).observe(d.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ["src"] });
  // Requests sent before the tag ran (pixels, iframes, beacons): from the resource timeline,
  // once (the hooks are in place: nothing is sent between this list and them).
  try {
    for (let $n of d.querySelectorAll($sel)) $seen.set($n, $abs($n.getAttribute("src")));
    for (let $r of performance.getEntriesByType("resource")) {
      let $t = { img: "image", iframe: "iframe", beacon: "beacon" }[$r.initiatorType];
      if ($t) $see($r.name, $t == "beacon" ? "POST" : "GET", null, $t + "-timing");
    }
  } catch {}
})(window, document);
