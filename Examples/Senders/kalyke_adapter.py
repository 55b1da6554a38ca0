"""sender-check adapter for kalyke (pip install kalyke-apns; module kalyke), used as its README shows.

Copy this file and adapter_protocol.py next to your code, replace KalykeSender's body with your
own sender (keep one client object for the process), and run:

    contract-check sender-check --sender 'python3 kalyke_adapter.py'

One `ApnsClient` and one `LiveActivityClient` for the run; how kalyke uses connections and
provider tokens behind `send_message` is its own. Its exceptions are passed on as they are: no
retries or backoff are added here. Live Activities: LiveActivityClient with LiveActivityPayload,
as its README shows. Token authentication only: kalyke's certificate client is for VoIP
pushes, so with --auth certificate every call is answered unsupported. Needs TLS.
"""
import os
from datetime import datetime

from kalyke import (ApnsClient, ApnsConfig, ApnsPriority, ApnsPushType, LiveActivityApnsConfig, LiveActivityClient,
                    LiveActivityEvent, LiveActivityPayload, PayloadAlert)
from kalyke.exceptions import ApnsProviderException, BadDeviceToken, Unregistered

from adapter_protocol import DELIVERED, FAILED, TOKEN_INVALID, Environment, run


def pointed_at(client_class, url):
    """kalyke has no URL option: its base URL becomes APNS_URL."""
    return type("FakeAPNs" + client_class.__name__, (client_class,), {"_base_url": property(lambda self: url)})


class KalykeSender:
    concurrent = True  # asyncio: calls overlap, as in a server

    def __init__(self) -> None:
        env = Environment()
        self.topic = env.topic
        credentials = dict(use_sandbox=True, team_id=env.team_id, auth_key_id=env.key_id,
                           auth_key_filepath=env.key_file)
        self.client = pointed_at(ApnsClient, env.url)(**credentials)
        self.live_activity_client = pointed_at(LiveActivityClient, env.url)(**credentials)

    async def send(self, push):
        options = {"expiration": push.expiration} if push.expiration is not None else {}
        config = ApnsConfig(topic=self.topic, push_type=ApnsPushType(push.push_type),
                            priority=ApnsPriority(push.priority or 10), collapse_id=push.collapse_id, **options)
        return await self.deliver(self.client, push.token, push.payload, config)

    async def push_live_activity(self, activity):
        alert = PayloadAlert(**activity.alert) if activity.alert else None
        payload = LiveActivityPayload(alert=alert, timestamp=datetime.fromtimestamp(activity.timestamp),
                                      event=LiveActivityEvent(activity.event), content_state=activity.content_state,
                                      attributes_type=activity.attributes_type, attributes=activity.attributes)
        config = LiveActivityApnsConfig(topic=self.topic + ".push-type.liveactivity",
                                        priority=ApnsPriority(activity.priority))
        return await self.deliver(self.live_activity_client, activity.token, payload, config)

    @staticmethod
    async def deliver(client, token, payload, config):
        try:
            await client.send_message(device_token=token, payload=payload, apns_config=config)
        except (Unregistered, BadDeviceToken) as error:
            return TOKEN_INVALID, type(error).__name__
        except ApnsProviderException as error:
            return FAILED, type(error).__name__
        return DELIVERED, None


class NoCertificateClient:
    """With --auth certificate: kalyke has no certificate client for alert or Live Activity pushes."""


if __name__ == "__main__":
    run(KalykeSender if os.environ.get("APNS_KEY_FILE") else NoCertificateClient)
