#!/bin/sh
echo "script args: $*"
echo "to stderr" >&2
