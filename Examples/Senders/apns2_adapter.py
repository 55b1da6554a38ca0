"""sender-check adapter for apns2-up (pip install apns2-up; module apns2), used as its README shows.

Copy this file and adapter_protocol.py next to your code, replace Apns2Sender's body with your
own sender (keep one APNsClient for the process), and run:

    contract-check sender-check --sender 'python3 apns2_adapter.py'
    contract-check sender-check --sender 'python3 apns2_adapter.py' --auth certificate

One `APNsClient` for the run: one hyper HTTP/2 connection, one provider token per 45 minutes
(TokenCredentials). apns2 is blocking, so calls are handled one at a time. Its exceptions are
passed on as they are: no retries or backoff are added here. Live Activities: apns2 has no
liveactivity push type, so the order tracker's calls are answered unsupported. Needs TLS.
"""
import logging
import sys

from apns2.client import APNsClient, NotificationPriority
from apns2.credentials import CertificateCredentials, TokenCredentials
from apns2.errors import APNsException, BadDeviceToken, Unregistered
from apns2.payload import Payload, PayloadAlert

from adapter_protocol import DELIVERED, FAILED, TOKEN_INVALID, Environment, run

# aps and alert members -> apns2's argument names
APS_NAMES = {"alert": "alert", "badge": "badge", "sound": "sound", "category": "category", "thread-id": "thread_id",
             "content-available": "content_available", "mutable-content": "mutable_content", "url-args": "url_args"}
ALERT_NAMES = {"title": "title", "subtitle": "subtitle", "body": "body", "loc-key": "body_localized_key",
               "loc-args": "body_localized_args", "title-loc-key": "title_localized_key",
               "title-loc-args": "title_localized_args", "launch-image": "launch_image", "action": "action",
               "action-loc-key": "action_localized_key"}


class Apns2Sender:
    concurrent = False  # blocking library: one call at a time

    def __init__(self) -> None:
        env = Environment()
        self.topic = env.topic
        if env.certificate_auth:
            credentials = CertificateCredentials(env.cert_and_key_pem())
        else:
            credentials = TokenCredentials(auth_key_path=env.key_file, auth_key_id=env.key_id, team_id=env.team_id)
        # apns2 has no URL option: its sandbox host and port become APNS_URL's.
        client_class = type("FakeAPNsClient", (APNsClient,), {"SANDBOX_SERVER": env.host, "DEFAULT_PORT": env.port})
        self.client = client_class(credentials=credentials, use_sandbox=True)

    @staticmethod
    def payload(push):
        """The call's JSON as apns2's Payload (what it has no field for is lost)."""
        return Payload(**push.as_arguments(APS_NAMES, PayloadAlert, ALERT_NAMES))

    def send(self, push):
        priority = NotificationPriority.Delayed if push.priority == 5 else NotificationPriority.Immediate
        try:
            self.client.send_notification(push.token, self.payload(push), topic=self.topic, priority=priority,
                                          expiration=push.expiration, collapse_id=push.collapse_id)
        except (Unregistered, BadDeviceToken) as error:
            return TOKEN_INVALID, type(error).__name__
        except APNsException as error:
            return FAILED, type(error).__name__
        return DELIVERED, None


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="apns2 %(levelname)s %(message)s")
    logging.getLogger("hyper").setLevel(logging.WARNING)  # hyper logs every HTTP/2 frame at INFO
    run(Apns2Sender)
