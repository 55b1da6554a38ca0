"""sender-check adapter for aioapns (pip install aioapns), used as its README shows.

Copy this file and adapter_protocol.py next to your code, replace AioapnsSender's body with
your own sender (keep one APNs client for the process), and run:

    contract-check sender-check --sender 'python3 aioapns_adapter.py'
    contract-check sender-check --sender 'python3 aioapns_adapter.py' --auth certificate

One `APNs` client for the run: its pool keeps connections and mints a provider token per
connection (renewed after 30 minutes). What aioapns answers is passed on as it is: no retries
or backoff are added here. Live Activities: push type liveactivity, with token authentication
(Apple takes no certificate for them: under --auth certificate the order tracker's calls are
answered unsupported). Needs TLS (the default): aioapns always connects with TLS.
"""
import logging
import sys
import time

from aioapns import APNs, NotificationRequest, PushType
from aioapns.exceptions import ConnectionClosed, ConnectionError, MaxAttemptsExceeded

from adapter_protocol import DELIVERED, FAILED, TOKEN_INVALID, Environment, run


class AioapnsSender:
    concurrent = True  # asyncio: calls overlap, as in a server

    def __init__(self) -> None:
        env = Environment()
        self.topic = env.topic
        if env.certificate_auth:
            self.client = APNs(client_cert=env.cert_and_key_pem(), topic=env.topic, use_sandbox=True)
            # Apple: certificate-based authentication is not supported for Live Activity pushes
            # (FakeAPNs answers them 400 TopicDisallowed), so with a certificate there are none.
            self.push_live_activity = None
        else:
            with open(env.key_file) as key:
                self.client = APNs(key=key.read(), key_id=env.key_id, team_id=env.team_id,
                                   topic=env.topic, use_sandbox=True)
        # aioapns has no URL option: point its connections at APNS_URL instead of Apple's host.
        pool = self.client.pool
        pool.protocol_class = type("FakeAPNsProtocol", (pool.protocol_class,),
                                   {"APNS_SERVER": env.host, "APNS_PORT": env.port})

    async def send(self, push):
        request = NotificationRequest(device_token=push.token, message=push.payload,
                                      priority=push.priority, collapse_key=push.collapse_id,
                                      push_type=PushType(push.push_type))
        if push.expiration is not None:  # aioapns takes a time to live, not a date
            request.time_to_live = max(0, push.expiration - int(time.time()))
        return await self.deliver(request)

    async def push_live_activity(self, activity):
        request = NotificationRequest(device_token=activity.token, message=activity.payload(),
                                      priority=activity.priority, push_type=PushType.LIVEACTIVITY,
                                      apns_topic=self.topic + ".push-type.liveactivity")
        return await self.deliver(request)

    async def deliver(self, request):
        try:
            result = await self.client.send_notification(request)
        except (ConnectionError, ConnectionClosed, MaxAttemptsExceeded) as error:
            return FAILED, type(error).__name__
        if result.is_successful:
            return DELIVERED, None
        reason = "%s %s" % (result.status, result.description)
        if result.status == "410" or result.description == "BadDeviceToken":
            return TOKEN_INVALID, reason
        return FAILED, reason

    def close(self):
        self.client.pool.close()


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="aioapns %(levelname)s %(message)s")
    run(AioapnsSender)
