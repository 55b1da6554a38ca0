#!/usr/bin/env python3
"""The dashboard in headless Chromium (see scripts/dashboard-browser.sh, which runs this).

Starts `contract-check serve` (argv[1]) with a ready file, opens the admin URL in headless
Chromium through chromium-driver, and checks the page against pushes sent with curl. Every
wait is bounded (WebDriverWait, or a deadline loop on a condition); nothing sleeps a fixed
time. Exits 1 naming the first check that failed.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

os.environ.setdefault("SE_OFFLINE", "true")  # selenium must not download a driver or browser
from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException, TimeoutException  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCREENSHOT = os.path.join(ROOT, "Docs", "readme", "images", "dashboard.png")
TOPIC = "com.example.app"
PHONE = "ab" * 32
OTHER = "cd" * 32
# The bound for a push to show without a reload.
LIVE_BOUND = float(os.environ.get("DASHBOARD_LIVE_BOUND", "1.0"))
started = time.monotonic()


DRIVER = []


def fail(message):
    print("FAIL " + message)
    for driver in DRIVER:  # what the page said, for the log
        for entry in driver.get_log("browser"):
            print("  console %s: %s" % (entry.get("level"), entry.get("message")))
        print("  status: " + driver.find_element(By.ID, "live-status").text)
    sys.exit(1)


def click(driver, element):
    """Clicks element as a user would, from the middle of the viewport. The feed above it grows
    as pushes arrive, so for a moment after scrolling another element can lie where it was
    (a CI run with the machine busy saw the click land on the switch's own list item): the
    click is tried again for up to 3 s while that is so."""
    deadline = time.monotonic() + 3
    while True:
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        try:
            element.click()
            return
        except ElementClickInterceptedException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def ok(message):
    print("ok   %s (%.1f s)" % (message, time.monotonic() - started))


def serve(binary, work, backend_only=False):
    os.makedirs(work, exist_ok=True)
    ready = os.path.join(work, "ready.json")
    log = os.path.join(work, "serve.log")
    fakes = ["--no-apns"] if backend_only else [
        "--apns-topic", TOPIC, "--apns-any-token", "--apns-channels-port", "0",
        "--apns-key", "DEVKEY0001:DEVTEAM001:" + os.path.join(ROOT, "Fixtures/dev/AuthKey_DEVKEY0001.p8")]
    args = [binary, "serve", "--quiet", "--session", "s1=a1"] + fakes + ["--ready-file", ready]
    process = subprocess.Popen(args, stdout=open(log, "w"), stderr=subprocess.STDOUT)
    waited = subprocess.run([binary, "wait-ready", ready, "--timeout", "20", "--pid", str(process.pid), "--log", log],
                            stdout=subprocess.DEVNULL)
    if waited.returncode != 0:
        process.terminate()
        fail("serve did not get ready: " + open(log).read())
    with open(ready) as file:
        urls = {name: url.rstrip("/") for name, url in json.load(file).items() if isinstance(url, str)}
    return process, urls


PROVIDER_TOKENS = {}


def provider_token(urls):
    """One provider token per serve, as a sender keeps one: APNs (and the fake) answer 429
    TooManyProviderTokenUpdates to a sender that signs a new one for every request."""
    if urls["admin"] not in PROVIDER_TOKENS:
        PROVIDER_TOKENS[urls["admin"]] = urllib.request.urlopen(urls["admin"] + "/apns/provider-token", timeout=5).read().decode().strip()
    return PROVIDER_TOKENS[urls["admin"]]


def curl_push(urls, token, payload, collapse=None):
    provider = provider_token(urls)
    args = ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5", "--http2-prior-knowledge",
            "-X", "POST", "-H", "authorization: bearer " + provider, "-H", "apns-topic: " + TOPIC,
            "-H", "apns-push-type: alert", "--data-binary", json.dumps(payload)]
    if collapse:
        args += ["-H", "apns-collapse-id: " + collapse]
    return subprocess.run(args + [urls["apns"] + "/3/device/" + token], capture_output=True, text=True).stdout


def admin_post(urls, path, body):
    request = urllib.request.Request(urls["admin"] + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def channel_with_a_subscriber(urls, token):
    """A broadcast channel made on the management port (as a sender would, with curl) and one
    Live Activity of `token` subscribed to it through the admin API; returns the channel id."""
    admin_post(urls, "/apns/tokens", {"token": token, "topic": TOPIC})  # 204, or already known
    status, body = admin_post(urls, "/apns/live-activities", {"device": token, "attributes": {"orderId": "B1"},
                                                              "contentState": {"stage": "confirmed"}, "timestamp": 1})
    if status != 201:
        fail("the admin API did not start a Live Activity: %s %s" % (status, body))
    push_token = json.loads(body)["pushToken"]
    provider = provider_token(urls)
    answer = subprocess.run(["curl", "-s", "-i", "--max-time", "5", "-X", "POST", "-H", "authorization: bearer " + provider,
                             "-d", '{"message-storage-policy":1,"push-type":"LiveActivity"}',
                             urls["apns-channels"] + "/1/apps/" + TOPIC + "/channels"], capture_output=True, text=True).stdout
    channel = next((line.split(":", 1)[1].strip() for line in answer.splitlines() if line.lower().startswith("apns-channel-id:")), None)
    if not channel:
        fail("the management port did not create a channel: " + answer)
    status, body = admin_post(urls, "/apns/channels/subscriptions", {"channelId": channel, "pushToken": push_token})
    if status != 204:
        fail("the admin API did not subscribe the activity: %s %s" % (status, body))
    return channel


def register_with_backend(urls, token):
    key = base64.b64encode(b"\x04" + b"0" * 64).decode()  # 65 bytes, as an uncompressed P-256 key
    body = json.dumps({"platform": "ios", "environment": "sandbox", "appVersion": "4.2.0", "publicKey": key})
    status = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5", "-X", "PUT", "-H", "Content-Type: application/json",
                    "-H", "Authorization: Bearer s1", "-d", body, urls["backend"] + "/v1/devices/" + token], capture_output=True, text=True).stdout
    if status != "204":
        fail("the backend did not register the device: %s" % status)


def browser():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1500",
                 "--no-first-run", "--disable-extensions", "--disable-background-networking"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait(driver, seconds, what, condition):
    try:
        # The page redraws a panel on each change: an element read mid-redraw is read again.
        return WebDriverWait(driver, seconds, poll_frequency=0.05,
                             ignored_exceptions=[StaleElementReferenceException]).until(lambda d: condition(d))
    except TimeoutException:
        fail("%s: not within %.1f s" % (what, seconds))


def texts(driver, selector):
    """The text of every element `selector` finds, read at once (no element goes stale)."""
    return driver.execute_script("return Array.from(document.querySelectorAll(arguments[0])).map(e => e.textContent)", selector)


def phone(driver, token):
    found = driver.find_elements(By.CSS_SELECTOR, 'article.phone[data-token="%s"]' % token)
    return found[0] if found else None


def notifications(driver, token):
    card = phone(driver, token)
    return card.find_elements(By.CSS_SELECTOR, "li.notification") if card else []


def problems(driver, seen):
    """Console errors and failed requests since the page opened (the logs are drained as read)."""
    for entry in driver.get_log("browser"):
        if entry.get("level") == "SEVERE":
            seen.append("console: " + entry.get("message", ""))
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message.get("method") == "Network.responseReceived":
            response = params.get("response", {})
            if response.get("status", 0) >= 400:
                seen.append("request: %s %s" % (response.get("status"), response.get("url")))
        elif message.get("method") == "Network.loadingFailed" and not params.get("canceled") \
                and params.get("errorText") != "net::ERR_ABORTED":  # a stream closed by leaving the page
            seen.append("request failed: " + params.get("errorText", ""))
    return seen


def main():
    binary = sys.argv[1]
    work = tempfile.mkdtemp(prefix="dashboard.")
    process, urls = serve(binary, work)
    driver = None
    try:
        register_with_backend(urls, PHONE)
        driver = browser()
        DRIVER.append(driver)
        driver.get(urls["admin"] + "/?live=events")  # headless polls unless asked for the stream
        wait(driver, 10, "the page goes live", lambda d: d.find_element(By.ID, "live-status").text.startswith("Live"))
        wait(driver, 5, "the backend's device shows", lambda d: phone(d, PHONE) is not None or "a1" in d.find_element(By.ID, "accounts").text)
        seen = problems(driver, [])
        if seen:
            fail("the page loads cleanly: " + "; ".join(seen))
        ok("the page loads with no console error and no failed request")

        rows = len(driver.find_elements(By.CSS_SELECTOR, "#feed-rows tr"))
        if curl_push(urls, PHONE, {"aps": {"alert": {"title": "Order 91", "body": "Picked, packing now"}, "thread-id": "order-91", "badge": 1}, "notificationId": "n1"}) != "200":
            fail("the first push was not accepted")
        sent = time.monotonic()
        wait(driver, LIVE_BOUND, "the push in the feed", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#feed-rows tr")) > rows)
        wait(driver, LIVE_BOUND, "the push on its device", lambda d: len(notifications(d, PHONE)) == 1)
        ok("a curl push shows in the feed and on its device in %.2f s, without a reload" % (time.monotonic() - sent))

        curl_push(urls, PHONE, {"aps": {"alert": {"title": "Order 91", "body": "Out for delivery"}, "thread-id": "order-91", "badge": 4}, "notificationId": "n2"})
        wait(driver, 3, "two notifications of one thread", lambda d: len(notifications(d, PHONE)) == 2)
        groups = phone(driver, PHONE).find_elements(By.CSS_SELECTOR, 'section.group[data-thread="order-91"]')
        badge = phone(driver, PHONE).find_element(By.CSS_SELECTOR, ".badge").text
        if len(groups) != 1 or len(groups[0].find_elements(By.CSS_SELECTOR, "li.notification")) != 2 or badge != "4":
            fail("one thread, one group, badge 4: %d groups, badge %r" % (len(groups), badge))
        ok("one thread-id is one group; the badge reads the last badge sent (4)")

        curl_push(urls, PHONE, {"aps": {"alert": "Arriving in 10 min"}, "notificationId": "n3"}, collapse="eta")
        wait(driver, 3, "the first collapse-id push", lambda d: len(d.find_elements(By.CSS_SELECTOR, 'li[data-collapse-id="eta"]')) == 1)
        curl_push(urls, PHONE, {"aps": {"alert": "Arriving in 2 min"}, "notificationId": "n4"}, collapse="eta")
        wait(driver, 3, "the collapse-id push replaces the first",
             lambda d: [("2 min" in text) for text in texts(d, 'li[data-collapse-id="eta"]')] == [True])
        ok("a collapse-id push replaces the earlier one in place")

        switch = driver.find_element(By.ID, "switch-apns-429")
        click(driver, switch)
        wait(driver, 5, "the 429 switch applied", lambda d: "on (201)" in d.find_element(By.ID, "fault-result").text)
        status = curl_push(urls, OTHER, {"aps": {"alert": "Throttled?"}, "notificationId": "n5"})
        if status != "429":
            fail("after the page switched 429 on, curl got %s" % status)
        click(driver, switch)
        wait(driver, 5, "the 429 switch off", lambda d: "off (204)" in d.find_element(By.ID, "fault-result").text)
        if curl_push(urls, OTHER, {"aps": {"alert": "Back"}, "notificationId": "n6"}) != "200":
            fail("after the page switched 429 off, curl was still refused")
        ok("a fault switched on in the page makes the next curl push get 429 (and off again 200)")

        editor = driver.find_element(By.ID, "payload")
        editor.clear()
        editor.send_keys('{\n  "aps": {\n    "mutable-content": true\n  }\n}\n')
        item = wait(driver, 5, "the mutable-content violation",
                    lambda d: next((li for li in d.find_elements(By.CSS_SELECTOR, "#payload-violations li")
                                    if "/aps/mutable-content" in li.text), False))
        line, column = item.get_attribute("data-line"), item.get_attribute("data-column")
        if line != "3" or column != "24" or "line 3, column 24" not in item.text:
            fail("the violation at line 3, column 24: found line %s, column %s, %r" % (line, column, item.text))
        ok("a typed payload with mutable-content shows its violation at line 3, column 24")

        editor.clear()
        editor.send_keys('{"aps": {"alert": {"title": "Order 92", "body": "Sent from the page"}, "thread-id": "order-92"}, "notificationId": "92"}')
        wait(driver, 5, "the payload passes", lambda d: d.find_element(By.ID, "payload-ok").is_displayed())
        driver.find_element(By.ID, "send-token").send_keys(OTHER)
        click(driver, driver.find_element(By.ID, "send"))
        wait(driver, 5, "the page's push answered", lambda d: "APNs answered 200" in d.find_element(By.ID, "send-result").text)
        wait(driver, 3, "the page's push on its device",
             lambda d: any("Sent from the page" in n.text for n in notifications(d, OTHER)))
        ok("the form's push goes through FakeAPNs and shows on its device")

        channel_with_a_subscriber(urls, OTHER)
        wait(driver, LIVE_BOUND, "the channel and its subscriber",
             lambda d: "1 subscriber" in d.find_element(By.ID, "channels").text and TOPIC in d.find_element(By.ID, "channels").text)
        ok("a channel made with curl shows with its subscribed activity, without a reload")

        seen = problems(driver, [])
        if seen:
            fail("no console error or failed request during the checks: " + "; ".join(seen))
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(SCREENSHOT)
        ok("screenshot written to " + os.path.relpath(SCREENSHOT, ROOT))

        # Only one fake served: its panels show, the other's hide, and nothing fails.
        alone, alone_urls = serve(binary, os.path.join(work, "alone"), backend_only=True)
        try:
            register_with_backend(alone_urls, PHONE)
            driver.get(alone_urls["admin"] + "/?live=events")
            wait(driver, 10, "the backend-only page goes live", lambda d: d.find_element(By.ID, "live-status").text.startswith("Live"))
            wait(driver, 5, "the backend's device shows", lambda d: "a1" in d.find_element(By.ID, "accounts").text)
            wait(driver, 5, "the backend's sessions show", lambda d: "acts as account a1" in d.find_element(By.ID, "sessions").text)
            shown = {panel: driver.find_element(By.ID, panel).is_displayed()
                     for panel in ["feed-panel", "backend-panel", "faults-panel", "devices-panel", "send-panel"]}
            if shown != {"feed-panel": True, "backend-panel": True, "faults-panel": True, "devices-panel": False, "send-panel": False}:
                fail("with FakeBackend alone, the APNs panels hide and the rest show: %s" % shown)
            if driver.find_elements(By.ID, "switch-apns-429") or not driver.find_elements(By.ID, "switch-backend-429"):
                fail("with FakeBackend alone, only the backend's fault switches show")
            seen = problems(driver, [])
            if seen:
                fail("the backend-only page loads cleanly: " + "; ".join(seen))
            ok("with FakeBackend alone the APNs panels hide, the sessions show, no console error or failed request")
        finally:
            alone.terminate()
            alone.wait(timeout=10)
    finally:
        if driver is not None:
            driver.quit()
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(work, ignore_errors=True)
    print("all dashboard checks passed in %.1f s" % (time.monotonic() - started))


if __name__ == "__main__":
    main()
