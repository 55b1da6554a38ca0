"""A careful APNs sender for sender-check's own tests (python3 + httpx[http2] + PyJWT).

It keeps one HTTP/2 connection and one provider token, mints a new token after
ExpiredProviderToken, backs off and retries 429 and 5xx, resends after a dropped connection,
drops tokens APNs calls dead, and gives up on 413. Live Activities: unsupported.
Breaks for the tests' planted failures are chosen with SENDER_BREAK (see below).
"""
import asyncio, json, os, ssl, sys, time

import httpx
import jwt

BREAK = os.environ.get("SENDER_BREAK", "")  # exit-early | bad-line | hang | new-connection


class Sender:
    def __init__(self):
        verify = False
        if os.environ.get("APNS_CA_FILE"):
            verify = ssl.create_default_context(cafile=os.environ["APNS_CA_FILE"])
            if os.environ.get("APNS_CERT_FILE"):
                verify.load_cert_chain(os.environ["APNS_CERT_FILE"], os.environ["APNS_CERT_KEY_FILE"])
        self.client_options = dict(http2=True, verify=verify, timeout=10)
        if not verify:
            self.client_options.update(http1=False)
        self.client = httpx.AsyncClient(**self.client_options)
        self.token = None
        self.dead = set()

    def provider_token(self, fresh=False):
        if "APNS_KEY_FILE" not in os.environ:
            return None
        if fresh or self.token is None:
            with open(os.environ["APNS_KEY_FILE"]) as f:
                key = f.read()
            self.token = jwt.encode({"iss": os.environ["APNS_TEAM_ID"], "iat": int(time.time())}, key,
                                    algorithm="ES256", headers={"kid": os.environ["APNS_KEY_ID"]})
        return self.token

    async def send(self, call):
        token = call["token"]
        if token in self.dead:
            return "token-invalid"
        body = json.dumps(call["payload"]).encode()
        delay = 0.2
        fresh = False
        for _ in range(6):
            headers = {"apns-topic": os.environ["APNS_TOPIC"], "apns-push-type": call.get("pushType", "alert")}
            bearer = self.provider_token(fresh)
            fresh = False
            if bearer:
                headers["authorization"] = "bearer " + bearer
            if BREAK == "new-connection":
                self.client = httpx.AsyncClient(**self.client_options)
            try:
                response = await self.client.post(os.environ["APNS_URL"] + "/3/device/" + token, content=body, headers=headers)
            except httpx.HTTPError as error:
                print("connection lost:", error, file=sys.stderr)
                await self.client.aclose()
                self.client = httpx.AsyncClient(**self.client_options)
                await asyncio.sleep(delay)
                delay *= 2
                continue
            if response.status_code == 200:
                return "delivered"
            reason = (response.json() if response.content else {}).get("reason", "")
            print("push:", response.status_code, reason, file=sys.stderr)
            if reason == "ExpiredProviderToken":
                fresh = True
                continue
            if response.status_code == 410 or reason in ("BadDeviceToken", "Unregistered", "ExpiredToken"):
                self.dead.add(token)
                return "token-invalid"
            if response.status_code == 429 or response.status_code >= 500:
                await asyncio.sleep(delay)
                delay *= 2
                continue
            return "failed"
        return "failed"


async def answer(sender, call):
    name = call["call"]
    reply = {"id": call["id"]}
    if name == "send":
        reply["result"] = await sender.send(call)
    elif name == "tokenRegistered":
        sender.dead.discard(call["token"])
    elif name != "finish":
        reply["unsupported"] = True
    if BREAK == "bad-line" and name == "send":
        reply["result"] = "sent"
    print(json.dumps(reply), flush=True)


async def main():
    sender = Sender()
    loop = asyncio.get_running_loop()
    tasks = set()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        call = json.loads(line)
        if BREAK == "exit-early" and call["call"] == "send":
            sys.exit(3)
        if BREAK == "hang" and call["call"] == "send":
            continue
        print("call", call["id"], call["call"])  # a log line on stdout, not an answer
        task = asyncio.create_task(answer(sender, call))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    await asyncio.gather(*tasks)
    await sender.client.aclose()


asyncio.run(main())
