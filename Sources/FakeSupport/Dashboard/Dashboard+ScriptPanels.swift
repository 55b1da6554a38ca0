extension Dashboard {
    /// The broadcast channels with their subscribers, the backend panel (devices per account,
    /// sessions, opens) and the faults as switches with their curl lines.
    static let scriptPanels = #"""
// The backend (devices per account, sessions, opens) and the faults as switches.
async function renderBackend() {
  const [devices, opens, sessions] = await Promise.all([getJSON("/devices"), getJSON("/opens"),
    D.routes.has("GET /sessions") ? getJSON("/sessions") : { sessions: [] }]);
  const accounts = new Map();
  for (const device of devices.devices || []) {
    sawDevice(String(device.token).toLowerCase(), false);
    if (!accounts.has(device.account)) accounts.set(device.account, []);
    accounts.get(device.account).push(device);
  }
  const items = [];
  for (const [account, list] of accounts) {
    items.push(el("li", {}, el("strong", { text: "Account " + account }), " · " + list.length + " device" + (list.length === 1 ? "" : "s"),
      el("ul", {}, list.map((d) => el("li", { text: shorten(d.token) + " · " + d.platform + " " + d.environment + " · app " + d.appVersion })))));
  }
  $("accounts").replaceChildren(...(items.length ? items : [el("li", { text: "No device registered." })]));
  const signedIn = (sessions.sessions || []).map((session) =>
    el("li", { text: "Bearer " + shorten(session.bearer) + " acts as account " + session.account }));
  $("sessions").replaceChildren(...(signedIn.length ? signedIn : [el("li", { text: "No session: every request gets 401." })]));
  const byID = new Map();
  for (const open of opens.opens || []) {
    const counted = byID.get(open.notificationID) || { once: 0, repeats: 0, account: open.account };
    if (open.isRepeat) counted.repeats++; else counted.once++;
    byID.set(open.notificationID, counted);
  }
  const rows = [];
  for (const [id, counted] of byID) {
    rows.push(el("li", { text: "Notification " + id + " (" + counted.account + "): opened " + counted.once + (counted.repeats ? ", " + counted.repeats + " duplicate" + (counted.repeats === 1 ? "" : "s") + " not counted" : "") }));
  }
  $("opens").replaceChildren(...(rows.length ? rows : [el("li", { text: "No open reported." })]));
}

// FakeAPNs' broadcast channels, each with its subscribed activities.
async function renderChannels() {
  const list = await getJSON("/apns/channels");
  const items = (list.channels || []).map((channel) => {
    const subscribers = channel.subscribers || [];
    return el("li", {},
      el("strong", { text: "Channel " + shorten(channel.channelId) }),
      " · " + channel.bundleId + " · " + channel.environment + " · " + (channel.messageStoragePolicy === 1 ? "stores the newest broadcast" : "no storage") +
        " · " + subscribers.length + " subscriber" + (subscribers.length === 1 ? "" : "s"),
      el("ul", {}, subscribers.map((s) => el("li", { text: "activity " + shorten(s.pushToken) + (s.deviceToken ? " on " + shorten(s.deviceToken) : "") + " · " + (s.state || "") }))));
  });
  $("channels").replaceChildren(...(items.length ? items : [el("li", { text: "No channel: create one on the channel management port." })]));
}

const always = { probability: 1, seed: 1 };
const SWITCHES = [
  { id: "backend-429", fake: "backend", label: "Backend: 429 with Retry-After: 5", path: "/faults", body: () => ({ kind: "status", status: 429, retryAfter: 5, ...always }),
    on: (f) => f.kind === "status" && f.status === 429 },
  { id: "backend-slow", fake: "backend", label: "Backend: slow answer (2 s)", path: "/faults", body: () => ({ kind: "delay", delayMs: 2000, ...always }),
    on: (f) => f.kind === "delay" },
  { id: "backend-lost", fake: "backend", label: "Backend: answer lost after applying", path: "/faults", body: () => ({ kind: "loseResponse", ...always }),
    on: (f) => f.kind === "loseResponse" },
  { id: "backend-offline", fake: "backend", label: "Backend offline (connections refused)", path: "/offline", body: () => ({ offline: true }), offline: true },
  { id: "apns-429", fake: "apns", label: "APNs: 429 TooManyRequests", path: "/apns/faults", body: () => ({ fault: { status: 429, reason: "TooManyRequests" }, ...always }),
    on: (f) => f.fault.status === 429 },
  { id: "apns-410", fake: "apns", label: "APNs: 410 Unregistered for the device", path: "/apns/faults", needsToken: true,
    body: () => ({ fault: { status: 410, reason: "Unregistered" }, ...always, token: faultToken() || "TOKEN" }),
    on: (f) => f.fault.status === 410 },
  { id: "apns-slow", fake: "apns", label: "APNs: slow answer (2 s)", path: "/apns/faults", body: () => ({ fault: { delay: 2000 }, ...always }),
    on: (f) => f.fault.kind === "delay" },
  { id: "apns-lost", fake: "apns", label: "APNs: answer lost after applying", path: "/apns/faults", body: () => ({ fault: { kind: "loseResponse" }, ...always }),
    on: (f) => f.fault.kind === "loseResponse" }
];
function faultToken() { return $("fault-token").value.trim().toLowerCase(); }
function setUpFaults() {
  const list = $("fault-switches");
  for (const s of SWITCHES) {
    if (s.fake === "backend" ? !D.hasBackend : !D.hasAPNs) continue;
    const input = el("input", { type: "checkbox", role: "switch", id: "switch-" + s.id, "aria-describedby": "curl-" + s.id,
      onchange: (event) => flip(s, event.target.checked) });
    list.append(el("li", { class: "switch" }, input, el("label", { for: "switch-" + s.id, text: s.label }),
      el("code", { id: "curl-" + s.id, class: "curl", text: curlLine("POST", s.path, s.body()) })));
  }
  $("fault-token").addEventListener("input", () => {
    const line = $("curl-apns-410");
    if (line) line.textContent = curlLine("POST", "/apns/faults", SWITCHES.find((s) => s.id === "apns-410").body());
  });
  $("fault-token-field").hidden = !D.hasAPNs;
  $("reset").addEventListener("click", async () => {
    if (D.hasBackend) await send("POST", "/reset");
    if (D.hasAPNs) await send("POST", "/apns/reset");
    D.feed = [];
    D.devices.clear();
    renderFeed();
    $("fault-result").textContent = "Both fakes reset.";
    forceRefresh();
  });
  $("reset-curl").textContent = [D.hasBackend ? curlLine("POST", "/reset") : "", D.hasAPNs ? curlLine("POST", "/apns/reset") : ""].filter(Boolean).join("\n");
}
// A switch turned on adds its plan; turned off, the fake's plans are cleared and the
// switches still on are added again (the admin API clears faults all at once).
async function flip(s, on) {
  let result;
  if (s.needsToken && on && !faultToken()) {
    $("fault-result").textContent = "Choose the device first (its token).";
    $("switch-" + s.id).checked = false;
    return;
  }
  if (on) {
    result = await send("POST", s.path, s.body());
  } else if (s.offline) {
    result = await send("POST", "/offline", { offline: false });
  } else {
    result = await send("DELETE", s.fake === "apns" ? "/apns/faults" : "/faults");
    for (const other of SWITCHES) {
      if (other !== s && other.fake === s.fake && $("switch-" + other.id) && $("switch-" + other.id).checked) await send("POST", other.path, other.body());
    }
  }
  $("fault-result").textContent = s.label + (on ? " on" : " off") + " (" + result.status + ")";
  forceRefresh();
}
async function renderFaults() {
  const [backend, apns] = await Promise.all([
    D.hasBackend ? getJSON("/faults").catch(() => null) : null,
    D.hasAPNs ? getJSON("/apns/faults").catch(() => null) : null
  ]);
  for (const s of SWITCHES) {
    const input = $("switch-" + s.id);
    if (!input) continue;
    const state = s.fake === "apns" ? apns : backend;
    if (!state) continue;
    input.checked = s.offline ? !!state.offline : (state.faults || []).some((f) => s.on(f));
  }
}
"""#
}
