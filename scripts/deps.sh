#!/usr/bin/env bash
# Installs the Debian packages vsh needs to build and test (run as root).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  build-essential cmake pkg-config clang libclang-rt-14-dev \
  libpcre2-dev libutf8proc-dev libcmocka-dev libcurl4-openssl-dev zlib1g-dev \
  libssl-dev libedit-dev tzdata \
  groff-base man-db \
  libarchive-dev libbz2-dev liblzma-dev libzstd-dev \
  libsqlite3-dev \
  openssl ca-certificates python3 \
  python3-pytest \
  dpkg-dev file man-db >/dev/null
# the Node.js package (scripts/test-node.sh): node >= 18 and npm, when missing
command -v npm >/dev/null || apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
