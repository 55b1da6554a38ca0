extension Dashboard {
    /// The request feed: both journals, filters, a row's details.
    static let scriptFeed = #"""
// The request feed: both journals, newest first, filtered by fake, status and device.
async function readJournals() {
  let changed = false;
  const reads = [];
  if (D.hasBackend) reads.push(getJSON("/journal?since=" + D.cursor.backend).then((page) => take("backend", page)));
  if (D.hasAPNs) reads.push(getJSON("/apns/journal?since=" + D.cursor.apns).then((page) => take("apns", page)));
  await Promise.all(reads);
  function take(fake, page) {
    const entries = page.entries || [];
    // A reset empties the journal; its sequence numbers keep counting.
    for (const entry of entries) {
      D.cursor[fake] = Math.max(D.cursor[fake], entry.sequence);
      const token = fake === "apns" ? entry.deviceToken : tokenInPath(entry.path);
      if (token && fake === "apns") sawDevice(token.toLowerCase(), true);
      D.feed.push({ fake, entry, token: token ? token.toLowerCase() : "", key: fake + "-" + entry.sequence });
      changed = true;
    }
  }
  if (D.feed.length > D.feedLimit) D.feed.splice(0, D.feed.length - D.feedLimit);
  if (changed) {
    renderFeed();
    // The live region says what is new; the table itself is redrawn silently.
    const last = D.feed[D.feed.length - 1];
    if (last && last.entry) $("feed-news").textContent = "New request: " + last.entry.method + " " + shortenPath(last.entry.path) + ", status " + (last.entry.status || "none");
  }
  return changed;
}
function tokenInPath(path) {
  const match = /\/devices\/([0-9a-fA-F]+)/.exec(path || "");
  return match ? match[1] : "";
}
function setUpFeed() {
  for (const id of ["filter-fake", "filter-status", "filter-device"]) $(id).addEventListener("input", renderFeed);
  $("detail-close").addEventListener("click", () => { $("detail").hidden = true; });
  if (!(D.hasBackend && D.hasAPNs)) $("filter-fake-field").hidden = true;
}
function matches(item) {
  if (item.skipped) return true;
  const fake = $("filter-fake").value, status = $("filter-status").value;
  const device = $("filter-device").value.trim().toLowerCase();
  if (fake !== "all" && item.fake !== fake) return false;
  const code = item.entry.status || 0;
  if (status === "ok" && !(code >= 200 && code < 300)) return false;
  if (status === "4xx" && !(code >= 400 && code < 500)) return false;
  if (status === "5xx" && !(code >= 500 || code === 0)) return false;
  if (status === "violations" && !(item.entry.violations || []).length) return false;
  if (device && !item.token.includes(device)) return false;
  return true;
}
function violationText(v) {
  const place = v.line ? " (line " + v.line + ", column " + v.column + ")" : "";
  return (v.pointer === "" ? "(document)" : v.pointer) + place + ": " + v.message + " [" + v.rule + "]";
}
function renderFeed() {
  const body = $("feed-rows");
  const rows = [];
  for (let i = D.feed.length - 1; i >= 0 && rows.length < 200; i--) {
    const item = D.feed[i];
    if (!matches(item)) continue;
    if (item.skipped) {
      rows.push(el("tr", { class: "skipped" }, el("td", { colspan: 7, text: item.skipped + " events skipped" })));
      continue;
    }
    const e = item.entry;
    const code = e.status || 0;
    const reason = e.reason || (e.fault ? "fault: " + (e.fault.kind || JSON.stringify(e.fault)) : "") || e.delivery || e.detail || "";
    const violations = (e.violations || []).map((v) => el("li", { text: violationText(v) }));
    const time = String(e.time || "").slice(11, 23);
    rows.push(el("tr", { class: code >= 400 || code === 0 ? "bad" : "good", "data-key": item.key },
      el("td", {}, el("button", { type: "button", class: "link", "aria-label": "Details of " + e.method + " " + shortenPath(e.path) + " at " + time,
        onclick: () => showDetail(item) }, time)),
      el("td", { text: item.fake === "apns" ? "APNs" : "backend" }),
      el("td", { text: e.method }),
      el("td", { class: "path", text: shortenPath(e.path) }),
      el("td", { class: "status", text: code ? String(code) : "—" }),
      el("td", { text: reason }),
      el("td", {}, violations.length ? el("ul", { class: "violations" }, violations) : "")));
  }
  body.replaceChildren(...rows);
  $("feed-empty").hidden = rows.length > 0;
}
async function showDetail(item) {
  const e = item.entry;
  const parts = [JSON.stringify(e, null, 2)];
  // The journals keep no bodies; a delivered push's payload is the device's copy.
  if (item.fake === "apns" && e.deviceToken && e.status === 200) {
    try {
      const view = await getJSON("/apns/deliveries?token=" + encodeURIComponent(e.deviceToken));
      const copy = (view.delivered || []).find((n) => n.apnsID === e.apnsID) || (view.stored && view.stored.apnsID === e.apnsID ? view.stored : null);
      if (copy) parts.push("payload:\n" + prettyPayload(copy.payload));
    } catch (error) { parts.push("(payload not readable: " + error.message + ")"); }
  }
  $("detail-title").textContent = e.method + " " + shortenPath(e.path) + " → " + (e.status || "no answer");
  $("detail-body").textContent = parts.join("\n\n");
  $("detail").hidden = false;
  $("detail-close").focus();
}
function prettyPayload(text) {
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch (error) { return String(text); }
}
"""#
}
