#!/bin/sh
# Runs node from .tools when the Makefile installed Node 24 there (the machine's node is older), else the system node.
here=$(dirname "$0")/..
for dir in "$here"/.tools/node/node_modules/node-linux-*/bin; do
  if [ -x "$dir/node" ]; then exec "$dir/node" "$@"; fi
done
exec node "$@"
