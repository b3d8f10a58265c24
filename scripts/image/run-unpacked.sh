#!/usr/bin/env bash
# Runs an unpacked image's command the way a container runtime would, where none runs: in new mount and PID
# namespaces (the command is PID 1), the image's root file system mounted read-only, a fresh /proc, the four device
# nodes a runtime gives, a tmpfs on /tmp and on the data folder, as the image's user, in its working directory.
# The network is the host's (the test's PostgreSQL and Redis listen on loopback). Needs root (unshare, mount).
#   usage: run-unpacked.sh ROOTFS UID:GID WORKDIR COMMAND [ARG...]     (the environment passes through)
# SIGTERM or SIGINT to this script goes to the command; the script exits with the command's status.
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: $0 ROOTFS UID:GID WORKDIR COMMAND [ARG...]" >&2; exit 2; }
root=$(realpath "$1")
user=$2
workdir=$3
shift 3
# Inside the new namespaces (PID 1 there is this inner shell until it execs the command).
inner='
set -e
root=$1 uid=${2%%:*} gid=${2##*:} workdir=$3
shift 3
mount --bind "$root" "$root"
mount -t proc proc "$root/proc"
mount -t tmpfs -o mode=0755,size=1m tmpfs "$root/dev"
for node in null zero random urandom; do
  touch "$root/dev/$node"
  mount --bind "/dev/$node" "$root/dev/$node"
done
mount -t tmpfs -o mode=1777,size=64m tmpfs "$root/tmp"
mount -t tmpfs -o "mode=0755,uid=$uid,gid=$gid,size=64m" tmpfs "$root/var/lib/chat-platform"
mount -o remount,bind,ro "$root"
exec unshare --root="$root" --wd="$workdir" --setuid "$uid" --setgid "$gid" "$@"
'
unshare --mount --propagation private --pid --fork --kill-child bash -c "$inner" inner "$root" "$user" "$workdir" "$@" &
child=$!
# unshare's forked child (the command, once it has exec'd) is the process to signal.
forward() { pkill -"$1" -P "$child" 2>/dev/null || kill -"$1" "$child"; }
trap 'forward TERM' TERM
trap 'forward INT' INT
status=0
while :; do
  wait "$child" && status=0 || status=$?
  # A trapped signal interrupts wait with status > 128 while the child still runs: wait again.
  kill -0 "$child" 2>/dev/null || break
done
exit "$status"
