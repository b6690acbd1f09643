#!/usr/bin/env bash
# make demo: tender's main job as far as it goes today.
set -euo pipefail
cd "$(dirname "$0")/.."
bin/tender version
