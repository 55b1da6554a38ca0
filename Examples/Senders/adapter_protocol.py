"""The `contract-check sender-check` protocol for Python adapters, and the app's own part.

Copy this file next to your adapter (the *_adapter.py files here import it). It reads one JSON
call a line on stdin, hands each to your sender object and writes one answer a line on stdout
(Docs/readme/sender-check.md has the protocol). It also plays the part of a sender that is the
app's, not the APNs library's, so that every library is measured with the same app around it:

- TokenStore: a token answered `token-invalid` (410, BadDeviceToken) is dropped, and a later
  `send` to it is answered `token-invalid` without a request, until `tokenRegistered` brings it
  back (your backend deletes the row; APNs libraries keep no token list).
- OrderTracker: LiveActivitySender's five calls turned into Live Activity pushes: `start` to the
  push-to-start token, `update` and `end` to the activity's token, `aps.timestamp` in Unix
  seconds and strictly increasing, priority 10 for a new stage and 5 within a stage, nothing
  after the order was delivered. Which push goes out, and how, is your library's part.

Retries, backoff, reconnecting and provider-token refresh are left to the library: this file
adds none of them.

`run(make_sender)` calls `make_sender()` inside the running event loop; the sender it returns has:
    send(push) -> (result, reason)           result: "delivered" | "token-invalid" | "failed";
                                             without it `send` and `tokenRegistered` are
                                             answered unsupported
    push_live_activity(activity) -> (result, reason)   optional: without it (or set to
                                             None) the order tracker's calls are answered
                                             unsupported
    close()                                  optional
    concurrent                               True: calls overlap (asyncio libraries);
                                             False: one call at a time (blocking libraries)
Each method may be a coroutine or a plain function.
"""
import asyncio
import inspect
import json
import os
import sys
import tempfile
import time
from urllib.parse import urlsplit
from dataclasses import dataclass, field
from typing import Any, Optional

DELIVERED, TOKEN_INVALID, FAILED = "delivered", "token-invalid", "failed"
TRACKER_CALLS = ("pushToStartTokenRegistered", "startTracking", "activityTokenRegistered",
                 "orderChanged", "orderDelivered")


class Environment:
    """What sender-check gives the sender (DESIGN, "Checking a sender in any language")."""

    def __init__(self) -> None:
        env = os.environ
        self.url = env["APNS_URL"]
        parts = urlsplit(self.url)
        if parts.scheme != "https":
            # The libraries speak HTTP/2 only over TLS, as APNs does; over http:// they would
            # fall back to HTTP/1.1 (or fail) and every case would say so, not what they do.
            log("this adapter needs TLS (APNS_URL %s): run sender-check without --no-tls" % self.url)
            sys.exit(2)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 443
        self.ca_file = env.get("APNS_CA_FILE", "")
        self.topic = env["APNS_TOPIC"]
        self.key_file, self.key_id, self.team_id = (env.get(name) for name in ("APNS_KEY_FILE", "APNS_KEY_ID", "APNS_TEAM_ID"))
        self.cert_file, self.cert_key_file, self.p12_file = (env.get(name) for name in ("APNS_CERT_FILE", "APNS_CERT_KEY_FILE", "APNS_P12_FILE"))
        if self.ca_file:
            # Trust the fake's CA as the system trusts Apple's: OpenSSL's default verify paths
            # (Python's ssl, hyper) and httpx read SSL_CERT_FILE.
            env["SSL_CERT_FILE"] = self.ca_file

    @property
    def certificate_auth(self) -> bool:
        return bool(self.cert_file) and not self.key_file

    def cert_and_key_pem(self) -> str:
        """One PEM file with the client certificate and its key, for libraries that take one file."""
        with open(self.cert_file) as cert, open(self.cert_key_file) as key:
            text = cert.read() + "\n" + key.read()
        handle, path = tempfile.mkstemp(suffix=".pem")
        with os.fdopen(handle, "w") as out:
            out.write(text)
        return path


def log(*parts: Any) -> None:
    """A line of the sender's log (stderr: sender-check keeps it for the report)."""
    print(*parts, file=sys.stderr, flush=True)


@dataclass
class Push:
    """A `send` call: an ordinary push to a device token."""
    token: str
    push_type: str
    payload: dict
    priority: Optional[int] = None
    collapse_id: Optional[str] = None
    expiration: Optional[int] = None

    def aps(self) -> dict:
        return self.payload.get("aps", {})

    def custom(self) -> dict:
        """The payload's members beside `aps`."""
        return {key: value for key, value in self.payload.items() if key != "aps"}

    def as_arguments(self, aps_names: dict, alert_class: Any, alert_names: dict) -> dict:
        """The payload as a library's payload class takes it: each `aps` member under its argument
        name (`aps_names`), the alert as `alert_class(...)` (`alert_names`), the members beside
        `aps` as `custom`. A member without a name is left out: the library has no field for it."""
        arguments = {name: self.aps()[key] for key, name in aps_names.items() if key in self.aps()}
        alert = arguments.get("alert")
        if isinstance(alert, str):
            alert = {"body": alert}
        if isinstance(alert, dict):
            arguments["alert"] = alert_class(**{alert_names[key]: value for key, value in alert.items() if key in alert_names})
        if self.custom():
            arguments["custom"] = self.custom()
        return arguments


@dataclass
class LiveActivityPush:
    """One Live Activity push the order tracker wants sent (push type liveactivity)."""
    token: str
    event: str
    timestamp: int
    content_state: dict
    priority: int
    attributes_type: Optional[str] = None
    attributes: Optional[dict] = None
    alert: Optional[dict] = None
    extra: dict = field(default_factory=dict)

    def payload(self) -> dict:
        """The whole body as the live-activity-payload contract has it."""
        aps = {"timestamp": self.timestamp, "event": self.event, "content-state": self.content_state}
        if self.attributes_type is not None:
            aps["attributes-type"] = self.attributes_type
            aps["attributes"] = self.attributes
        if self.alert is not None:
            aps["alert"] = self.alert
        aps.update(self.extra)
        return {"aps": aps}


class TokenStore:
    """The app's table of device tokens APNs called dead."""

    def __init__(self) -> None:
        self.dropped: set = set()

    def registered(self, token: str) -> None:
        self.dropped.discard(token)

    def is_dropped(self, token: str) -> bool:
        return token in self.dropped

    def drop(self, token: str) -> None:
        self.dropped.add(token)


class OrderTracker:
    """The app's order tracker: LiveActivitySender's calls become LiveActivityPushes."""

    def __init__(self) -> None:
        self.push_to_start: Optional[str] = None
        self.activity_tokens: dict = {}
        self.stages: dict = {}
        self.delivered: set = set()
        self.last_timestamp = 0

    def timestamp(self) -> int:
        """Now in Unix seconds, one more than the last when the clock has not moved on."""
        self.last_timestamp = max(int(time.time()), self.last_timestamp + 1)
        return self.last_timestamp

    def pushes(self, call: dict) -> list:
        """The pushes a tracker call asks for (none for the token calls)."""
        name = call["call"]
        if name == "pushToStartTokenRegistered":
            self.push_to_start = call["token"]
        elif name == "activityTokenRegistered":
            self.activity_tokens[call["orderId"]] = call["token"]
        elif name == "startTracking" and self.push_to_start:
            order = call["attributes"]["orderId"]
            self.stages[order] = call["state"]["stage"]
            return [LiveActivityPush(self.push_to_start, "start", self.timestamp(), call["state"], 10,
                                     attributes_type="OrderTrackerAttributes", attributes=call["attributes"],
                                     alert={"title": "Order " + order, "body": "We are on it"})]
        elif name in ("orderChanged", "orderDelivered"):
            order = call["orderId"]
            token = self.activity_tokens.get(order)
            if token is None or order in self.delivered:
                log(name, order, "not sent:", "the order was delivered" if token else "no activity token")
                return []
            if name == "orderDelivered":
                self.delivered.add(order)
                final_state = call.get("finalState", call.get("state"))
                return [LiveActivityPush(token, "end", self.timestamp(), final_state, 10)]
            new_stage = self.stages.get(order) != call["state"]["stage"]
            self.stages[order] = call["state"]["stage"]
            return [LiveActivityPush(token, "update", self.timestamp(), call["state"], 10 if new_stage else 5)]
        return []


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


class _Adapter:
    def __init__(self, sender: Any) -> None:
        self.sender = sender
        self.tokens = TokenStore()
        self.tracker = OrderTracker()

    async def answer(self, call: dict) -> dict:
        name, reply = call.get("call"), {"id": call["id"]}
        if name in ("tokenRegistered", "send") and not hasattr(self.sender, "send"):
            reply["unsupported"] = True
        elif name == "tokenRegistered":
            self.tokens.registered(call["token"])
        elif name == "send":
            reply["result"], reason = await self.send(call)
            if reason:
                reply["reason"] = reason
        elif name in TRACKER_CALLS and callable(getattr(self.sender, "push_live_activity", None)):
            for activity in self.tracker.pushes(call):
                result, reason = await self.guarded(self.sender.push_live_activity, activity)
                log(name, activity.event, "priority", activity.priority, "->", result, reason or "")
        elif name != "finish":
            reply["unsupported"] = True
        return reply

    async def send(self, call: dict) -> tuple:
        push = Push(call["token"], call.get("pushType", "alert"), call["payload"], call.get("priority"),
                    call.get("collapseId"), call.get("expiration"))
        if self.tokens.is_dropped(push.token):
            return TOKEN_INVALID, "not sent: the token was dropped after APNs called it dead"
        result, reason = await self.guarded(self.sender.send, push)
        log("send", call["id"], "->", result, reason or "")
        if result == TOKEN_INVALID:
            self.tokens.drop(push.token)
        return result, reason

    @staticmethod
    async def guarded(method: Any, argument: Any) -> tuple:
        """The sender's (result, reason); an exception the adapter did not map is `failed`."""
        try:
            return await _maybe_await(method(argument))
        except Exception as error:  # the library raised something the adapter does not map
            return FAILED, "%s: %s" % (type(error).__name__, error)

    async def reply(self, call: dict) -> None:
        try:
            reply = await self.answer(call)
        except Exception as error:  # a call this file could not read: say so, answer it anyway
            log("call", call.get("id"), call.get("call"), "raised %s: %s" % (type(error).__name__, error))
            reply = {"id": call.get("id"), "result": FAILED} if call.get("call") == "send" else {"id": call.get("id")}
        print(json.dumps(reply), flush=True)


async def _main(make_sender: Any) -> None:
    sender = make_sender()
    adapter = _Adapter(sender)
    loop = asyncio.get_running_loop()
    tasks: set = set()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        try:
            call = json.loads(line)
        except ValueError:
            log("not a JSON call:", line.strip())
            continue
        if call.get("call") == "finish":
            await asyncio.gather(*tasks)
            await adapter.reply(call)  # finish: answered once every call before it was
            continue
        if getattr(sender, "concurrent", False):
            task = asyncio.create_task(adapter.reply(call))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        else:
            await adapter.reply(call)
    await asyncio.gather(*tasks)
    if hasattr(sender, "close"):
        await _maybe_await(sender.close())


def run(make_sender: Any) -> None:
    """Answers sender-check's calls with the sender `make_sender()` returns, until stdin closes."""
    asyncio.run(_main(make_sender))
