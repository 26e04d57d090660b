fetch("https://region1.google-analytics.com/g/collect?v=2&tid=G-WORKER1234&en=page_view&cid=1.1", { method: "POST", mode: "no-cors" });
