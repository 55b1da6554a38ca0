extension Dashboard {
    /// The script's core: DOM and fetch helpers, which fakes are served (from `GET /`), live by `/events` when served, else polling the journals every 500 ms.
    static let scriptCore = #"""
// PushContracts dashboard: the admin API's own routes, no framework, no external resource.
"use strict";
const D = {
  routes: new Set(), hasBackend: false, hasAPNs: false,
  cursor: { backend: 0, apns: 0 }, feed: [], feedLimit: 500,
  summaries: {}, devices: new Set(), deviceLimit: 12, live: null, pollTimer: null, busy: false, again: false,
  faultsOn: {}, skipped: 0
};
const $ = (id) => document.getElementById(id);
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
function shorten(token) {
  return typeof token === "string" && token.length > 16 ? token.slice(0, 8) + "…" + token.slice(-4) : (token || "");
}
function shortenPath(path) {
  return String(path || "").replace(/[0-9a-fA-F]{20,}/g, (hex) => shorten(hex));
}
async function getJSON(path) {
  const response = await fetch(path, { headers: { "Accept": "application/json" }, cache: "no-store" });
  if (!response.ok) throw new Error(path + ": " + response.status);
  return response.json();
}
// State changes are never "simple" requests: always a JSON body (same origin).
async function send(method, path, body) {
  const init = { method, headers: { "Content-Type": "application/json", "Accept": "application/json" } };
  init.body = typeof body === "string" ? body : JSON.stringify(body === undefined ? {} : body);
  const response = await fetch(path, init);
  let answer = null;
  const text = await response.text();
  if (text) { try { answer = JSON.parse(text); } catch (error) { answer = text; } }
  return { status: response.status, body: answer };
}
function curlLine(method, path, body) {
  const data = body === undefined ? "" : " -H 'Content-Type: application/json' -d '" + JSON.stringify(body) + "'";
  return "curl -s -X " + method + data + " " + location.origin + path;
}
// Devices in the order they were last pushed to; the panel draws the most recent few.
function sawDevice(token, recent) {
  if (recent) D.devices.delete(token); else if (D.devices.has(token)) return;
  D.devices.add(token);
  if (D.devices.size > 1000) D.devices.delete(D.devices.values().next().value);
}
function setStatus(text) { $("live-status").textContent = text; }

// Which fakes are served: GET / lists the routes; a panel whose routes are missing is hidden.
async function discover() {
  const list = await getJSON("/");
  for (const line of list.routes || []) {
    const [route, summary] = line.split(" — ");
    D.routes.add(route);
    D.summaries[route] = summary || "";
  }
  D.hasBackend = D.routes.has("GET /journal");
  D.hasAPNs = D.routes.has("GET /apns/journal");
  for (const panel of document.querySelectorAll("[data-needs]")) {
    const needs = panel.getAttribute("data-needs").split(",");
    panel.hidden = !needs.every((need) => (need === "backend" ? D.hasBackend : need === "apns" ? D.hasAPNs : D.routes.has(need)));
  }
}

// Live: Server-Sent Events when the admin API streams them, else (and whenever the stream
// drops) the journals are polled every 500 ms. A headless browser polls: a snapshot tool
// (chromium --dump-dom --virtual-time-budget, a screenshot) waits for the network to go
// quiet, which an open stream never does. ?live=events asks for the stream anyway.
function wantsStream() {
  const asked = new URLSearchParams(location.search).get("live");
  return asked === "events" || (asked !== "poll" && !/HeadlessChrome/.test(navigator.userAgent));
}
function goLive() {
  if (D.routes.has("GET /events") && window.EventSource && wantsStream()) {
    const source = new EventSource("/events");
    D.live = source;
    source.addEventListener("hello", () => { setStatus("Live"); refresh(); });
    source.addEventListener("change", () => refresh());
    source.addEventListener("skipped", (event) => {
      let count = 0;
      try { count = JSON.parse(event.data).skipped || 0; } catch (error) { count = 0; }
      addSkipped(count);
      refresh();
    });
    source.onerror = () => { source.close(); D.live = null; startPolling(); };
  } else {
    startPolling();
  }
}
function startPolling() {
  if (D.pollTimer !== null) return;
  setStatus("Live (polling every 500 ms)");
  D.pollTimer = setInterval(refresh, 500);
  refresh();
}
function addSkipped(count) {
  if (count <= 0) return;
  D.feed.push({ skipped: count, key: "skipped-" + Date.now() + "-" + D.feed.length });
  renderFeed();
}

// One refresh at a time; a change during one runs another after it.
async function refresh() {
  if (D.busy) { D.again = true; return; }
  D.busy = true;
  try {
    do {
      D.again = false;
      const changed = await readJournals();
      if (changed || !D.loadedOnce) {
        D.loadedOnce = true;
        await Promise.all([
          D.hasAPNs ? renderDevices() : null,
          D.hasAPNs && D.routes.has("GET /apns/channels") ? renderChannels() : null,
          D.hasBackend ? renderBackend() : null,
          renderFaults()
        ]);
      }
    } while (D.again);
  } catch (error) {
    setStatus("Cannot reach the admin API: " + error.message);
  } finally {
    D.busy = false;
  }
}

document.addEventListener("DOMContentLoaded", async () => {
  try {
    await discover();
  } catch (error) {
    setStatus("Cannot read the admin API's routes: " + error.message);
    return;
  }
  setUpFeed();
  setUpFaults();
  setUpSend();
  goLive();
});
"""#
}
