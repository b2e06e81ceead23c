#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Embeds a text file as a C++ function returning it: embed_text.sh IN OUT.cc NAME
set -euo pipefail
in=$1 out=$2 name=$3
{
  echo "// Generated from $in by bench/sim/embed_text.sh. Do not edit."
  echo "namespace squashlab {"
  echo "const char* $name() {"
  echo "  return R\"squashlab_embed("
  cat "$in"
  echo ")squashlab_embed\";"
  echo "}"
  echo "}  // namespace squashlab"
} >"$out"
