// Loads one page in headless Chromium and records the DevTools protocol's Page and Network
// events, then writes them as HAR with chrome-har (https://github.com/sitespeedio/chrome-har).
// Used once to make the fixtures in this folder (README.md); the tests never run it.
//
//   HAR_TOOLS=/tmp/dir-with-node_modules node capture_cdp.mjs URL OUT.har [EVENTS.json] [-- CHROME_ARGS...]
//
// HAR_TOOLS holds chrome-har and chrome-remote-interface (npm install).  Without OUT.har's
// writing being wanted (a run through mitmproxy), pass "-" as OUT.har.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const tools = process.env.HAR_TOOLS;
const load = (name, file) => import(pathToFileURL(join(tools, 'node_modules', name, file)).href);
const { harFromMessages } = await load('chrome-har', 'index.js');
const CDP = (await load('chrome-remote-interface', 'index.js')).default;

const dash = process.argv.indexOf('--');
const [url, out, eventsOut] = process.argv.slice(2, dash < 0 ? undefined : dash);
const chromeArgs = dash < 0 ? [] : process.argv.slice(dash + 1);
const QUIET_MS = Number(process.env.QUIET_MS || 2000);   // no DevTools event for this long after the load event: done
const LIMIT_MS = 30000;  // the page gets at most this long

const profile = mkdtempSync(join(tmpdir(), 'capture-cdp-'));
const chrome = spawn(process.env.CHROMIUM || '/usr/bin/chromium', [
  '--headless=new', '--no-sandbox', '--no-first-run', '--remote-debugging-port=0',
  `--user-data-dir=${profile}`, ...chromeArgs, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
const port = await new Promise((resolve, reject) => {
  let seen = '';
  chrome.stderr.on('data', chunk => {
    seen += chunk;
    const found = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen);
    if (found) resolve(Number(found[1]));
  });
  chrome.on('exit', code => reject(new Error(`chromium exited (${code}): ${seen}`)));
});

const target = (await CDP.List({ port })).find(t => t.type === 'page');
const client = await CDP({ port, target });
const messages = [];
const inFlight = new Set();
let quietTimer = null;
let loaded = false;
const done = new Promise(resolve => {
  const settle = () => {
    clearTimeout(quietTimer);
    if (loaded) quietTimer = setTimeout(resolve, QUIET_MS);
  };
  client.on('event', ({ method, params }) => {
    messages.push({ method, params });
    if (method === 'Network.requestWillBeSent') inFlight.add(params.requestId);
    if (method === 'Network.loadingFinished' || method === 'Network.loadingFailed') inFlight.delete(params.requestId);
    if (method === 'Page.loadEventFired') loaded = true;
    settle();
  });
  setTimeout(resolve, LIMIT_MS).unref();  // does not keep node running once done
});
await client.Page.enable();
await client.Network.enable();
await client.Page.navigate({ url });
await done;
await client.close();
const exited = new Promise(resolve => chrome.on('exit', resolve));
chrome.kill();
await exited;
rmSync(profile, { recursive: true, force: true, maxRetries: 10 });  // Chrome's helpers may still be writing

if (eventsOut) writeFileSync(eventsOut, JSON.stringify(messages, null, 1));
if (out && out !== '-') writeFileSync(out, JSON.stringify(harFromMessages(messages), null, 2) + '\n');
console.log(`${messages.length} events, ${inFlight.size} requests still in flight`);
