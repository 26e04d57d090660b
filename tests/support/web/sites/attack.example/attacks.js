// Attacks of a hostile page on internal addresses; ?attack=NAME&host=H&port=P&run=R.
// H is "127.0.0.1", "[::1]" or "localhost".  Each attack reports "done" to
// /__done (the fixture web logs it) once it has had its go, except the ones
// that navigate away.
(function () {
  const q = new URLSearchParams(location.search);
  const host = q.get("host"), port = q.get("port"), run = q.get("run");
  const internal = `http://${host}:${port}`;
  const inside = (path) => `/__fixture/redirect?to=${encodeURIComponent(internal + path)}`;
  const done = (what) => fetch(`/__done?run=${run}&what=${encodeURIComponent(what)}`).catch(() => {});
  const target = encodeURIComponent(internal);

  function speculate(action, url, how) {
    if (how === "link") {  // the older hint: <link rel=prefetch|prerender>
      const link = document.createElement("link");
      link.rel = action; link.href = url;
      document.head.append(link);
    } else {
      const script = document.createElement("script");
      script.type = "speculationrules";
      script.textContent = JSON.stringify({[action]: [{source: "list", urls: [url], eagerness: "immediate"}]});
      document.head.append(script);
    }
    fetch(`/__speculation?run=${run}&supported=${HTMLScriptElement.supports("speculationrules")}`).catch(() => {});
    // The attacker activates the speculation: navigate to it.
    setTimeout(() => { location.href = url; }, 1500);
  }

  function rtc(iceServers, what) {
    let pc;
    try {
      pc = new RTCPeerConnection({iceServers, iceTransportPolicy: "all"});
    } catch (e) { done(what + ":throw"); return; }
    pc.createDataChannel("x");
    pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === "complete") done(what); };
    pc.createOffer().then((offer) => pc.setLocalDescription(offer)).catch(() => done(what + ":error"));
  }

  const attacks = {
    prefetch: () => speculate("prefetch", internal + "/prefetch"),
    prerender: () => speculate("prerender", internal + "/prerender"),
    link_prefetch: () => speculate("prefetch", internal + "/link-prefetch", "link"),
    link_prerender: () => speculate("prerender", internal + "/link-prerender", "link"),
    // Controls for the switches: same-origin speculation, which a proxy does not prevent.
    same_origin_prefetch: () => speculate("prefetch", `/__speculated?run=${run}&as=prefetch`),
    same_origin_prerender: () => speculate("prerender", `/__speculated?run=${run}&as=prerender`),
    prefetch_redirect: () => speculate("prefetch", inside("/prefetch-redirect")),
    prerender_redirect: () => speculate("prerender", inside("/prerender-redirect")),
    redirect: () => fetch(inside("/fetch-redirect"), {mode: "no-cors"}).catch(() => {}).finally(() => done("redirect")),
    websocket: () => {
      const ws = new WebSocket(`ws://${host}:${port}/`);
      ws.onerror = ws.onclose = () => done("websocket");
    },
    stun: () => rtc([{urls: `stun:${host}:${port}`}], "stun"),
    turn_udp: () => rtc([{urls: `turn:${host}:${port}?transport=udp`, username: "u", credential: "p"}], "turn_udp"),
    turn_tcp: () => rtc([{urls: `turn:${host}:${port}?transport=tcp`, username: "u", credential: "p"}], "turn_tcp"),
    webtransport: () => {
      try {
        const wt = new WebTransport(`https://${host}:${port}/`);
        wt.closed.catch(() => {});
        wt.ready.then(() => done("webtransport:open"), () => done("webtransport"));
      } catch (e) { done("webtransport:throw"); }
    },
    iframe: () => {
      const frame = document.createElement("iframe");
      frame.src = internal + "/frame";
      frame.onload = () => done("iframe");
      document.body.append(frame);
    },
    worker: () => {
      const worker = new Worker(`/attack-worker.js?mode=fetch&target=${target}&run=${run}`);
      worker.onerror = () => done("worker:error");
    },
    import_scripts: () => {
      const worker = new Worker(`/attack-worker.js?mode=import&target=${target}&run=${run}`);
      worker.onerror = () => done("import_scripts:error");
    },
    service_worker: () => {
      navigator.serviceWorker.register(`/attack-sw.js?target=${target}&run=${run}`)
        .catch((e) => done("service_worker:register-failed:" + e));
    },
  };
  const attack = attacks[q.get("attack")];
  if (attack) attack(); else done("unknown attack");
})();
