extension Dashboard {
    /// The send-a-push form: the payload checked live by `POST /contracts/check`, sent by `POST /apns/send`.
    static let scriptSend = #"""
// Send a push: the payload is checked live by the v1 payload contract, violations at their
// line and column; sending goes through FakeAPNs' checks as a sender's push does.
const SAMPLE = '{\n  "aps": {\n    "alert": {"title": "Order 91", "body": "Your order is on its way"},\n    "thread-id": "order-91",\n    "badge": 1\n  },\n  "notificationId": "91"\n}\n';
function setUpSend() {
  if (!D.hasAPNs) return;
  const editor = $("payload");
  editor.value = SAMPLE;
  let timer = null;
  editor.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(checkPayload, 150);
  });
  $("send-form").addEventListener("submit", (event) => { event.preventDefault(); sendPush(); });
  checkPayload();
}
let checking = 0;
async function checkPayload() {
  const mine = ++checking;
  const result = await send("POST", "/contracts/check?contract=payload", $("payload").value);
  if (mine !== checking) return;
  const list = $("payload-violations");
  const violations = result.body && result.body.violations ? result.body.violations : [];
  list.replaceChildren(...violations.map((v) => el("li", { class: v.severity === "warning" ? "warning" : "error",
    "data-line": v.line || null, "data-column": v.column || null, "data-rule": v.rule }, violationText(v))));
  $("payload-ok").hidden = violations.length > 0 || result.status !== 200;
  $("payload").setAttribute("aria-invalid", violations.some((v) => v.severity !== "warning") ? "true" : "false");
}
async function sendPush() {
  const token = $("send-token").value.trim().toLowerCase();
  const body = { token, payload: $("payload").value, pushType: $("send-type").value };
  const topic = $("send-topic").value.trim();
  const collapse = $("send-collapse").value.trim();
  if (topic) body.topic = topic;
  if (collapse) body.collapseID = collapse;
  // serve mints provider tokens when it holds a .p8; without one the route only says so.
  if (D.routes.has("GET /apns/provider-token") && !/needs an --apns-key/.test(D.summaries["GET /apns/provider-token"])) {
    const response = await fetch("/apns/provider-token", { cache: "no-store" });
    if (response.ok) body.authorization = "bearer " + (await response.text()).trim();
  }
  const result = await send("POST", "/apns/send", body);
  const answer = result.body || {};
  $("send-result").textContent = result.status !== 200
    ? "Not sent: " + (answer.detail || result.status)
    : "APNs answered " + answer.status + (answer.reason ? " " + answer.reason : "") + (answer.apnsID ? " (apns-id " + answer.apnsID + ")" : "");
  if (token) sawDevice(token, true);
  forceRefresh();
}
"""#
}
