#!/bin/sh
# A deliberately NAIVE APNs sender, for `contract-check sender-check` to fail: it curls each push
# on a new connection with a new provider token, never retries, and answers every send
# "delivered" whatever APNs said. CI runs it to prove the checks catch these mistakes
# (connection-reuse, provider-token-reuse, throttling, server-errors, unregistered, ...).
# Do not copy it as a sender; copy its shape as an adapter: read one JSON call a line on
# stdin, answer each with one line {"id":N,...} on stdout.
#
#   contract-check sender-check --sender 'sh Examples/Senders/naive-curl.sh'
#
# Needs: sh, curl (HTTP/2), openssl, python3 (only to turn openssl's DER signature into JWT's r||s).

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

der_to_jose() {
    python3 -c '
import sys
der = sys.stdin.buffer.read()
def integer(at):
    length = der[at + 1]
    return der[at + 2:at + 2 + length], at + 2 + length
r, after = integer(2)
s, _ = integer(after)
sys.stdout.buffer.write(r[-32:].rjust(32, b"\0") + s[-32:].rjust(32, b"\0"))'
}

mint_token() {
    header=$(printf '{"alg":"ES256","kid":"%s"}' "$APNS_KEY_ID" | b64url)
    claims=$(printf '{"iss":"%s","iat":%s}' "$APNS_TEAM_ID" "$(date +%s)" | b64url)
    signature=$(printf '%s.%s' "$header" "$claims" | openssl dgst -sha256 -sign "$APNS_KEY_FILE" | der_to_jose | b64url)
    printf '%s.%s.%s' "$header" "$claims" "$signature"
}

member() { printf '%s' "$1" | sed -n "s/.*\"$2\":\"\\([^\"]*\\)\".*/\\1/p"; }

# One curl per push: a new connection each time (the mistake connection-reuse catches).
push() {
    token=$1 payload=$2
    shift 2
    if [ -n "$APNS_CA_FILE" ]; then set -- --http2 --cacert "$APNS_CA_FILE" "$@"; else set -- --http2-prior-knowledge "$@"; fi
    curl -sS -o /dev/null -w "push $id: %{http_code}\n" "$@" -H "apns-topic: $APNS_TOPIC" -H "apns-push-type: alert" \
        --data-binary "$payload" "$APNS_URL/3/device/$token" >&2
}

while IFS= read -r line; do
    id=$(printf '%s' "$line" | sed -n 's/^{"id":\([0-9]*\).*/\1/p')
    call=$(member "$line" call)
    case "$call" in
    send)
        token=$(member "$line" token)
        payload=$(printf '%s' "$line" | sed 's/.*"payload":\(.*\)}$/\1/')
        if [ -n "$APNS_CERT_FILE" ]; then
            push "$token" "$payload" --cert "$APNS_CERT_FILE" --key "$APNS_CERT_KEY_FILE"
        else
            push "$token" "$payload" -H "authorization: bearer $(mint_token)"
        fi
        printf '{"id":%s,"result":"delivered"}\n' "$id"
        ;;
    tokenRegistered | finish) printf '{"id":%s}\n' "$id" ;;
    *) printf '{"id":%s,"unsupported":true}\n' "$id" ;;
    esac
done
