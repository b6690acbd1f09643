#!/bin/sh
# init-app.sh DIR: lays out an application directory once.
set -e
mkdir -p "$1/data" "$1/logs"
echo "initialised" >"$1/data/.initialised"
echo "layout of $1 done"
