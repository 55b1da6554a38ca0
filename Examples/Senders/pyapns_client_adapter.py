"""sender-check adapter for pyapns_client (pip install pyapns-client), used as its README shows.

Copy this file and adapter_protocol.py next to your code, replace PyapnsSender's body with your
own sender (keep one APNSClient for the process), and run:

    contract-check sender-check --sender 'python3 pyapns_client_adapter.py'

One `APNSClient` for the run: one httpx HTTP/2 client and a provider token renewed after 45
minutes; on a server error (429, 5xx, ExpiredProviderToken, a lost connection) the library
itself retries up to three times on a new connection. Its exceptions are passed on as the
README sorts them: no retries or backoff are added here. pyapns_client is blocking, so calls are
handled one at a time. Live Activities: no liveactivity push type or payload, so the order
tracker's calls are answered unsupported. Token authentication only: with --auth certificate
every call is answered unsupported. Needs TLS.
"""
import logging
import os
import sys

from pyapns_client import (APNSClient, APNSDeviceException, APNSException, BadDeviceTokenException,
                           IOSNotification, IOSPayload, IOSPayloadAlert, UnregisteredException)

from adapter_protocol import DELIVERED, FAILED, TOKEN_INVALID, Environment, run

# aps and alert members -> pyapns_client's argument names
APS_NAMES = {"alert": "alert", "badge": "badge", "sound": "sound", "category": "category", "thread-id": "thread_id",
             "content-available": "content_available", "mutable-content": "mutable_content",
             "target-content-id": "target_content_id", "interruption-level": "interruption_level",
             "relevance-score": "relevance_score"}
ALERT_NAMES = {"title": "title", "subtitle": "subtitle", "body": "body", "loc-key": "loc_key", "loc-args": "loc_args",
               "title-loc-key": "title_loc_key", "title-loc-args": "title_loc_args", "launch-image": "launch_image",
               "action-loc-key": "action_loc_key", "subtitle-loc-key": "subtitle_loc_key",
               "subtitle-loc-args": "subtitle_loc_args"}


class PyapnsSender:
    concurrent = False  # blocking library: one call at a time

    def __init__(self) -> None:
        env = Environment()
        self.topic = env.topic
        # pyapns_client has no URL option: its development URL becomes APNS_URL.
        client_class = type("FakeAPNsClient", (APNSClient,), {"BASE_URLS": {APNSClient.MODE_DEV: env.url}})
        self.client = client_class(mode=APNSClient.MODE_DEV, root_cert_path=env.ca_file or None,
                                   auth_key_path=env.key_file, auth_key_id=env.key_id, team_id=env.team_id)

    @staticmethod
    def payload(push):
        """The call's JSON as pyapns_client's IOSPayload (what it has no field for is lost)."""
        return IOSPayload(**push.as_arguments(APS_NAMES, IOSPayloadAlert, ALERT_NAMES))

    def send(self, push):
        notification = IOSNotification(payload=self.payload(push), topic=self.topic, collapse_id=push.collapse_id,
                                        expiration=push.expiration, priority=push.priority, push_type=push.push_type)
        try:
            self.client.push(notification=notification, device_token=push.token)
        except (UnregisteredException, BadDeviceTokenException) as error:
            return TOKEN_INVALID, type(error).__name__
        except APNSDeviceException as error:  # the README: "flag the device as potentially invalid"
            return FAILED, type(error).__name__
        except (APNSException, NotImplementedError) as error:  # NotImplementedError: a reason it does not know
            return FAILED, "%s %s" % (type(error).__name__, error)
        return DELIVERED, None

    def close(self):
        self.client.close()


class NoCertificateClient:
    """With --auth certificate: pyapns_client authenticates with provider tokens only."""


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="pyapns_client %(levelname)s %(message)s")
    run(PyapnsSender if os.environ.get("APNS_KEY_FILE") else NoCertificateClient)
