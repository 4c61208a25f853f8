#!/usr/bin/env bash
# End to end, the image as self-hosters run it, with podman (rootful): build the Dockerfile, run
# it on a volume, wait for /healthz, sign up, stop it with SIGTERM and expect exit code 0. Not part
# of `npm test`: it needs root, a few minutes and podman (apt-get install podman debootstrap).
#
# Sandboxes without a usable cgroup hierarchy (crun: "cgroups in hybrid mode not supported") build
# with chroot isolation and run without cgroups; override with CONTAINER_TEST_ISOLATION=oci and
# CONTAINER_TEST_RUN_FLAGS= on a normal host.
#
# No image registry is reachable on the machines this is tested on, so the base image the
# Dockerfile names (node:20-bookworm-slim) is made locally when missing: a Debian bookworm root
# filesystem from debootstrap with this machine's Node 20 and npm copied in, imported under that
# name. Where a registry is reachable, podman pulls the real one instead.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=docker.io/library/node:20-bookworm-slim
IMAGE=localhost/tessera:test
NAME=tessera-container-test
PORT=${CONTAINER_TEST_PORT:-38080}
ROOTFS=${CONTAINER_TEST_ROOTFS:-/var/tmp/tessera-rootfs}

step() { printf '\n== %s\n' "$*"; }

if ! podman image exists "$BASE"; then
  if ! podman pull -q "$BASE" 2>/dev/null; then
    step "no registry: making $BASE from debootstrap + this machine's Node $(node --version)"
    if [ ! -x "$ROOTFS/bin/bash" ]; then
      debootstrap --variant=minbase bookworm "$ROOTFS" http://deb.debian.org/debian
    fi
    install -m 0755 "$(readlink -f "$(command -v node)")" "$ROOTFS/usr/local/bin/node"
    npm_root="$(dirname "$(readlink -f "$(command -v npm)")")/.."
    rm -rf "$ROOTFS/usr/local/lib/node_modules/npm"
    mkdir -p "$ROOTFS/usr/local/lib/node_modules"
    cp -a "$npm_root" "$ROOTFS/usr/local/lib/node_modules/npm"
    ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
    ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"
    # A machine whose egress goes through an inspecting proxy trusts that proxy's CA; the stand-in
    # base image trusts what this machine trusts, so npm inside the build reaches the registry.
    changes=(--change 'CMD ["node"]')
    if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
      mkdir -p "$ROOTFS/etc/ssl/certs"
      cp "$NODE_EXTRA_CA_CERTS" "$ROOTFS/etc/ssl/certs/host-ca-certificates.crt"
      changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/host-ca-certificates.crt')
    fi
    tar -C "$ROOTFS" -c . | podman import "${changes[@]}" - "$BASE" >/dev/null
  fi
fi

step "build"
started=$(date +%s)
# Host networking: the build's npm ci reaches the registry however this host's network is set up.
podman build --isolation "${CONTAINER_TEST_ISOLATION:-chroot}" --network host -t "$IMAGE" . >/tmp/tessera-container-build.log 2>&1 || {
  tail -40 /tmp/tessera-container-build.log
  exit 1
}
echo "built in $(($(date +%s) - started)) s"
size=$(podman image inspect "$IMAGE" --format '{{.Size}}')
echo "image size: $((size / 1024 / 1024)) MiB"

step "run on a volume"
podman rm -f "$NAME" >/dev/null 2>&1 || true
podman volume rm -f tessera-container-test-data >/dev/null 2>&1 || true
env_args=(-e PORT="$PORT" -e HOST=127.0.0.1 -e BASE_URL="http://127.0.0.1:$PORT")
chrooted=""
if ! podman run -d --name "$NAME" --network host ${CONTAINER_TEST_RUN_FLAGS:---cgroups=disabled} \
  "${env_args[@]}" -v tessera-container-test-data:/data "$IMAGE" >/tmp/tessera-container-run.log 2>&1; then
  # Some sandboxes refuse every setrlimit, which each OCI runtime makes before starting the
  # process. Evidence, then the next best thing: the container's own filesystem, its user, its
  # command and environment, run with chroot, so everything but the runtime is still tested.
  echo "podman run refused here: $(tail -1 /tmp/tessera-container-run.log)"
  echo "running the container's filesystem with chroot instead (same files, user, command, env)"
  podman rm -f "$NAME" >/dev/null 2>&1 || true
  podman create --name "$NAME" "$IMAGE" >/dev/null
  root=$(podman mount "$NAME")
  (
    cd /
    exec chroot --userspec=tessera:tessera "$root" /usr/bin/env -i HOME=/app PATH=/usr/local/bin:/usr/bin:/bin \
      NODE_ENV=production HOST=127.0.0.1 PORT="$PORT" DATA_DIR=/data WEB_DIST=/app/dist/web \
      BASE_URL="http://127.0.0.1:$PORT" /bin/sh -c 'cd /app && exec node --max-semi-space-size=2 dist/server/main.js'
  ) >/tmp/tessera-container-chroot.log 2>&1 &
  chrooted=$!
else
  echo "PID 1 in the container: $(podman exec "$NAME" cat /proc/1/cmdline | tr '\0' ' ')"
  echo "user: $(podman exec "$NAME" id -un)"
fi
for _ in $(seq 1 120); do
  if curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then break; fi
  sleep 0.5
done
echo "healthz: $(curl -fsS "http://127.0.0.1:$PORT/healthz")"

step "sign up and read"
jar=$(mktemp)
code=$(curl -s -o /dev/null -w '%{http_code}' -c "$jar" -H 'content-type: application/json' \
  -H "origin: http://127.0.0.1:$PORT" \
  -d '{"name":"Container","email":"container@example.test","password":"a-long-enough-password"}' \
  "http://127.0.0.1:$PORT/api/auth/sign-up/email")
echo "sign-up: $code"
[ "$code" = 200 ]
code=$(curl -s -o /dev/null -w '%{http_code}' -b "$jar" "http://127.0.0.1:$PORT/api/dashboards")
echo "GET /api/dashboards with the session: $code"
[ "$code" = 200 ]
rm -f "$jar"

step "stop with SIGTERM"
started=$(date +%s)
if [ -n "$chrooted" ]; then
  node_pid=$(pgrep -n -f "node --max-semi-space-size=2 dist/server/main.js")
  echo "server process: $(tr '\0' ' ' </proc/"$node_pid"/cmdline) as $(ps -o user= -p "$node_pid")"
  kill -TERM "$node_pid"
  set +e
  wait "$chrooted"
  exit_code=$?
  set -e
  grep -o '"msg":"[^"]*"' /tmp/tessera-container-chroot.log | tail -4
  podman umount "$NAME" >/dev/null
else
  podman stop -t 30 "$NAME" >/dev/null
  exit_code=$(podman inspect "$NAME" --format '{{.State.ExitCode}}')
  podman logs "$NAME" 2>&1 | tail -3
fi
echo "stopped in $(($(date +%s) - started)) s, exit code $exit_code"
podman rm "$NAME" >/dev/null
[ "$exit_code" = 0 ]
step "passed"
