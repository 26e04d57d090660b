importScripts("/probe.js");
tcProbe().then((r) => fetch("/__report/worker", { method: "POST", body: JSON.stringify(r) }));
