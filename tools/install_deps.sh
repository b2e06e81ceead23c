#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Installs the Debian packages squashlab needs, if any is missing. Sourced by
# run.sh and test.sh; safe to run again (it does nothing when all are there).
SQUASHLAB_PACKAGES=(
  bazel-bootstrap bazel-rules-java g++ clang-14 clang-format-14 libfuzzer-14-dev libclang-rt-14-dev ccache
  zlib1g-dev libdeflate-dev libzstd-dev liblz4-dev liblzma-dev liblzo2-dev
  libgtest-dev libgmock-dev librapidcheck-dev libboost-context-dev
  libcli11-dev nlohmann-json3-dev
  squashfs-tools squashfs-tools-ng attr python3 python3-matplotlib python3-jsonschema
  linux-source-6.1 linux-source-6.12
)

squashlab_install_deps() {
  local missing=()
  local p
  for p in "${SQUASHLAB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
      || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "squashlab: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}
squashlab_install_deps
