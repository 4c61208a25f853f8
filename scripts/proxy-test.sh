#!/usr/bin/env bash
# The scaled compose file's topology without containers: two Tessera instances (the compiled
# server) on PostgreSQL and Redis behind Caddy with deploy/Caddyfile, its upstream names pointed at
# 127.0.0.1. Checks that both instances serve through the proxy and that a realtime stream passes
# through unbuffered (an event posted on one instance arrives through Caddy from the other).
# Needs caddy (apt-get install caddy), PostgreSQL and Redis as for the tests, and `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/.."
P1=${P1:-38101} P2=${P2:-38102} PROXY=${PROXY:-38100}
DB=tessera_proxy_test
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

[ -f dist/server/main.js ] || npm run build >/dev/null
psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE $DB" >/dev/null

for port in "$P1" "$P2"; do
  env -i PATH="$PATH" NODE_ENV=production HOST=127.0.0.1 PORT="$port" BASE_URL="http://127.0.0.1:$PROXY" \
    DATABASE_URL="postgres://postgres@127.0.0.1:5432/$DB" REDIS_URL=redis://127.0.0.1:6379 \
    REDIS_PREFIX="proxy-test-$$:" TRUST_PROXY=true AUTH_SECRET=proxy-test-secret-proxy-test-secret-0123 \
    TOKEN_ENCRYPTION_KEY="$(head -c 32 /dev/zero | base64)" LOG_LEVEL=info \
    node --max-semi-space-size=2 dist/server/main.js >"$work/instance-$port.log" 2>&1 &
  pids+=($!)
done
sed -e "s/tessera-1:3000/127.0.0.1:$P1/; s/tessera-2:3000/127.0.0.1:$P2/; s/^:8080/:$PROXY/" deploy/Caddyfile >"$work/Caddyfile"
caddy run --config "$work/Caddyfile" --adapter caddyfile >"$work/caddy.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 120); do curl -fsS "http://127.0.0.1:$PROXY/readyz" >/dev/null 2>&1 && break; sleep 0.5; done

echo "== both instances serve through the proxy"
jar="$work/jar"
curl -fsS -o /dev/null -c "$jar" -H 'content-type: application/json' -H "origin: http://127.0.0.1:$PROXY" \
  -d '{"name":"Proxy","email":"proxy@example.test","password":"a-long-enough-password"}' \
  "http://127.0.0.1:$PROXY/api/auth/sign-up/email"
for _ in $(seq 1 20); do curl -fsS -o /dev/null -b "$jar" "http://127.0.0.1:$PROXY/api/dashboards"; done
n1=$(grep -c '"url":"/api/dashboards"' "$work/instance-$P1.log" || true)
n2=$(grep -c '"url":"/api/dashboards"' "$work/instance-$P2.log" || true)
echo "GET /api/dashboards x20 through Caddy: instance 1 served $n1, instance 2 served $n2"
[ "$n1" -gt 0 ] && [ "$n2" -gt 0 ]
ip=$(grep -o '"ip":"[^"]*"' "$work/instance-$P1.log" | tail -1 || true)
echo "client address as the instances see it (TRUST_PROXY): ${ip:-not logged}"

echo "== a realtime stream passes through unbuffered"
curl -sN -b "$jar" "http://127.0.0.1:$PROXY/api/realtime" >"$work/stream.txt" &
stream=$!
pids+=($stream)
for _ in $(seq 1 40); do grep -q '^retry:' "$work/stream.txt" && break; sleep 0.25; done
sent=$(date +%s%3N)
for i in 1 2 3; do
  curl -fsS -o /dev/null -b "$jar" -H 'content-type: application/json' -H "origin: http://127.0.0.1:$PROXY" \
    -d "{\"type\":\"message\",\"message\":\"through the proxy $i\"}" "http://127.0.0.1:$PROXY/api/notifications"
done
for _ in $(seq 1 40); do [ "$(grep -c '^event: notification.created' "$work/stream.txt")" -ge 3 ] && break; sleep 0.1; done
got=$(grep -c '^event: notification.created' "$work/stream.txt" || true)
echo "3 notifications posted (round robin over both instances), $got arrived on the stream within $(( $(date +%s%3N) - sent )) ms"
[ "$got" -ge 3 ]
echo "== passed"
