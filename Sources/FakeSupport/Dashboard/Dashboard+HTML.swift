extension Dashboard {
    /// The page `GET /` answers a browser: landmarks, labelled controls, the feed `aria-live`; no inline script or style (the CSP allows only `/dashboard.js` and `/dashboard.css`).
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'">
<title>PushContracts — contract-check serve</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard.css">
<script src="/dashboard.js" defer></script>
</head>
<body>
<a class="skip" href="#feed-panel">Skip to the request feed</a>
<header>
  <h1>PushContracts · the fakes, live</h1>
  <p id="live-status" role="status">Connecting…</p>
</header>
<main>
  <section id="feed-panel" aria-labelledby="feed-title">
    <h2 id="feed-title">Requests</h2>
    <form id="feed-filters" class="filters" role="search" aria-label="Filter the requests">
      <span id="filter-fake-field"><label for="filter-fake">Fake</label>
        <select id="filter-fake"><option value="all">Both</option><option value="backend">Backend</option><option value="apns">APNs</option></select></span>
      <label for="filter-status">Status</label>
      <select id="filter-status"><option value="all">Any</option><option value="ok">2xx</option><option value="4xx">4xx</option><option value="5xx">5xx or no answer</option><option value="violations">With violations</option></select>
      <label for="filter-device">Device</label>
      <input id="filter-device" type="search" placeholder="token (part of it)" autocomplete="off">
    </form>
    <div class="scroll">
      <table id="feed">
        <caption>Newest first. Choose a time for the request's details.</caption>
        <thead><tr><th scope="col">Time</th><th scope="col">Fake</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Reason or problem</th><th scope="col">Violations</th></tr></thead>
        <tbody id="feed-rows"></tbody>
      </table>
    </div>
    <p id="feed-empty" class="empty">No request yet.</p>
    <p id="feed-news" class="sr-only" aria-live="polite"></p>
    <section id="detail" class="detail" hidden aria-labelledby="detail-title">
      <h3 id="detail-title">Request</h3>
      <pre id="detail-body"></pre>
      <button type="button" id="detail-close">Close the details</button>
    </section>
  </section>
  <section id="devices-panel" data-needs="apns" aria-labelledby="devices-title">
    <h2 id="devices-title">Devices, as the phone shows them</h2>
    <div id="devices" class="phones" aria-live="polite"></div>
    <p id="devices-empty" class="empty">No device yet: push to one, or register one with the backend.</p>
  </section>
  <section id="channels-panel" data-needs="apns,GET /apns/channels" aria-labelledby="channels-title">
    <h2 id="channels-title">Broadcast channels</h2>
    <ul id="channels"></ul>
  </section>
  <section id="backend-panel" data-needs="backend" aria-labelledby="backend-title">
    <h2 id="backend-title">Backend</h2>
    <h3>Devices per account</h3>
    <ul id="accounts"></ul>
    <h3>Sessions (bearer tokens)</h3>
    <ul id="sessions"></ul>
    <h3>Opens (each counted once)</h3>
    <ul id="opens"></ul>
  </section>
  <section id="faults-panel" aria-labelledby="faults-title">
    <h2 id="faults-title">Faults: the bad days</h2>
    <p id="fault-token-field"><label for="fault-token">Device for the 410</label>
      <input id="fault-token" list="known-devices" autocomplete="off" placeholder="device token (hex)"></p>
    <ul id="fault-switches" class="switches"></ul>
    <p><button type="button" id="reset">Reset the fakes</button></p>
    <pre id="reset-curl" class="curl"></pre>
    <p id="fault-result" role="status"></p>
  </section>
  <section id="send-panel" data-needs="apns,POST /apns/send" aria-labelledby="send-title">
    <h2 id="send-title">Send a push</h2>
    <form id="send-form">
      <p><label for="send-token">Device token</label>
        <input id="send-token" list="known-devices" required pattern="[0-9a-fA-F]{2,200}" autocomplete="off"></p>
      <datalist id="known-devices"></datalist>
      <p><label for="send-topic">Topic (apns-topic)</label> <input id="send-topic" placeholder="the device's topic" autocomplete="off">
        <label for="send-type">Push type</label>
        <select id="send-type"><option>alert</option><option>background</option></select>
        <label for="send-collapse">Collapse id</label> <input id="send-collapse" autocomplete="off"></p>
      <p><label for="payload">Payload, checked by the v1 payload contract as you type</label></p>
      <textarea id="payload" rows="12" spellcheck="false" aria-describedby="payload-violations payload-ok"></textarea>
      <ul id="payload-violations" class="violations" aria-live="polite"></ul>
      <p id="payload-ok" class="ok" hidden>The payload follows the contract.</p>
      <p><button type="submit" id="send">Send the push</button> <span id="send-result" role="status"></span></p>
      <p class="note">Sent as a sender's push: the same checks, faults and journal; with serve's --forward-to-simulator a delivered push goes to the Simulator too.</p>
    </form>
  </section>
</main>
</body>
</html>
"""#
}
