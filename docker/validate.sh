#!/usr/bin/env bash
# Checks docker/compose.yml with docker-compose's own parser (`config -q`), installing
# Debian's docker-compose package when the command is missing. Needs no Docker engine.
# The test ComposeCommandTests checks that the file is exactly `camcube compose` output.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v docker-compose >/dev/null 2>&1; then
  echo "== installing docker-compose (apt-get)"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
fi

echo "== docker-compose config -q docker/compose.yml ($(docker-compose version --short 2>/dev/null || echo unknown version))"
# The key file (docker/secrets/cluster.key) is not committed, and `config` does not need it.
docker-compose -f docker/compose.yml config -q
services=$(docker-compose -f docker/compose.yml config --services | wc -l)
if [ "$services" -ne 27 ]; then
  echo "error: docker/compose.yml has $services services, expected 27 (a 3x3x3 cube)" >&2
  exit 1
fi
echo "docker/compose.yml: valid, $services services"
