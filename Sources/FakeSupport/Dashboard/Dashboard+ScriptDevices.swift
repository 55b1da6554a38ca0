extension Dashboard {
    /// Each simulated device as a phone shows it: threads, badge, collapse, stored, over budget, Live Activities.
    static let scriptDevices = #"""
// Each simulated APNs device as a phone's notification list.
function payloadOf(notification) {
  try { return JSON.parse(notification.payload) || {}; } catch (error) { return {}; }
}
function alertText(aps) {
  const alert = aps.alert;
  if (typeof alert === "string") return { title: "", body: alert };
  if (alert && typeof alert === "object") {
    return { title: [alert.title, alert.subtitle].filter(Boolean).join(" — "), body: alert.body || alert["loc-key"] || "" };
  }
  return { title: "", body: "" };
}
function outcomesFor(token) {
  return D.feed.filter((item) => item.fake === "apns" && item.token === token && item.entry.delivery).map((item) => item.entry);
}
async function renderDevices() {
  const all = Array.from(D.devices);
  const tokens = all.slice(-D.deviceLimit).reverse();
  const activities = D.routes.has("GET /apns/live-activities") ? await getJSON("/apns/live-activities").catch(() => ({ devices: [] })) : { devices: [] };
  const views = await Promise.all(tokens.map((token) =>
    getJSON("/apns/deliveries?token=" + encodeURIComponent(token)).catch(() => null)));
  const cards = [];
  tokens.forEach((token, index) => {
    const view = views[index];
    if (!view) return;
    const device = (activities.devices || []).find((d) => d.deviceToken === token);
    cards.push(deviceCard(token, view, device ? device.activities || [] : []));
  });
  $("devices").replaceChildren(...cards);
  if (all.length > tokens.length) cards.push(el("p", { class: "empty", text: (all.length - tokens.length) + " less recent devices not shown" }));
  $("devices-empty").hidden = cards.length > 0;
  const list = $("known-devices");
  list.replaceChildren(...tokens.map((token) => el("option", { value: token })));
}
function deviceCard(token, view, activities) {
  // The badge reads the last `badge` sent among what the device received.
  let badge = null;
  for (const n of view.delivered || []) {
    const aps = payloadOf(n).aps || {};
    if (typeof aps.badge === "number") badge = aps.badge;
  }
  const groups = new Map();
  for (const n of view.visible || []) {
    const aps = payloadOf(n).aps || {};
    const thread = typeof aps["thread-id"] === "string" && aps["thread-id"] ? aps["thread-id"] : "";
    if (!groups.has(thread)) groups.set(thread, []);
    groups.get(thread).push(n);
  }
  const collapseCounts = {};
  for (const n of view.delivered || []) if (n.collapseID) collapseCounts[n.collapseID] = (collapseCounts[n.collapseID] || 0) + 1;
  const groupNodes = [];
  // As the phone orders them: the group with the newest notification first.
  const newest = (list) => list[list.length - 1].deliveredAt;
  for (const [thread, list] of Array.from(groups).sort((a, b) => (newest(a[1]) < newest(b[1]) ? 1 : -1))) {
    const items = list.slice().reverse().map((n) => {
      const text = alertText(payloadOf(n).aps || {});
      const replaced = n.collapseID && collapseCounts[n.collapseID] > 1;
      return el("li", { class: "notification", "data-apns-id": n.apnsID, "data-collapse-id": n.collapseID || null },
        text.title ? el("strong", { text: text.title }) : null,
        el("span", { class: "body", text: text.body || "(no alert text)" }),
        el("span", { class: "meta", text: n.deliveredAt.slice(11, 19) + (replaced ? " · replaced earlier (collapse-id " + n.collapseID + ")" : "") + (n.isDuplicate ? " · delivered twice" : "") }));
    });
    groupNodes.push(el("section", { class: "group", "data-thread": thread, "aria-label": thread ? "Thread " + thread : "Notifications without a thread" },
      el("h4", { text: (thread ? "Thread " + thread : "No thread-id") + " · " + list.length }),
      el("ul", {}, items)));
  }
  const notes = [];
  if (view.stored) {
    const text = alertText(payloadOf(view.stored).aps || {});
    notes.push(el("li", { class: "stored", text: "Stored while offline, arrives when online: " + (text.body || text.title || view.stored.apnsID) }));
  }
  for (const entry of outcomesFor(token)) {
    if (entry.delivery === "backgroundBudgetExceeded") notes.push(el("li", { class: "dropped", text: "Background push " + shorten(entry.apnsID) + " not delivered: over the hourly budget" }));
    if (entry.delivery === "droppedOffline") notes.push(el("li", { class: "dropped", text: "Push " + shorten(entry.apnsID) + " expired while offline: gone" }));
  }
  // Any declared type: its name and attributes, then what its content state shows, member by member.
  const members = (value) => Object.entries(value || {}).map(([key, v]) => key + " " + (typeof v === "object" ? JSON.stringify(v) : v)).join(" · ");
  const cards = activities.map((a) => el("section", { class: "activity " + a.state, "aria-label": "Live Activity " + a.attributesType + " " + members(a.attributes) },
    el("h4", { text: a.attributesType + " · " + members(a.attributes) }),
    el("p", { text: members(a.contentState) }),
    el("p", { class: "marks", text: a.state + (a.staleAt ? " · stale at " + a.staleAt.slice(11, 19) : "") + (a.endedAt ? " · ended " + a.endedAt.slice(11, 19) : "") })));
  const toggle = el("button", { type: "button", "aria-label": (view.online ? "Take offline" : "Bring online") + " device " + shorten(token),
    onclick: async () => {
      await send("POST", "/apns/devices/online", { token, online: !view.online });
      forceRefresh();
    } }, view.online ? "Take offline" : "Bring online");
  return el("article", { class: "phone", "data-token": token, "aria-label": "Device " + shorten(token) },
    el("header", {},
      el("h3", { text: "Device " + shorten(token) }),
      el("span", { class: "badge", "aria-label": "Badge " + (badge === null ? "none" : badge), text: badge === null ? "" : String(badge) }),
      el("span", { class: view.online ? "online" : "offline", text: view.online ? "online" : "offline" }),
      toggle),
    groupNodes.length ? groupNodes : el("p", { class: "empty", text: "No notifications shown." }),
    notes.length ? el("ul", { class: "notes" }, notes) : null,
    cards);
}
function forceRefresh() {
  D.loadedOnce = false;
  refresh();
}
"""#
}
