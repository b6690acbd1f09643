#!/bin/sh
# tender-agent: a daemon that says it is ready and listens on $PORT.
. /etc/tender-agent/agent.env
trap 'kill $c 2>/dev/null; exit 0' TERM INT
echo "ready port=$PORT level=$LOG_LEVEL" >/run/tender-agent.ready
while :; do nc -dlk 127.0.0.1 "$PORT" >/dev/null 2>&1 & c=$!; wait $c; sleep 1; done
