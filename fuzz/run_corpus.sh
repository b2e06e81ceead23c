#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs one fuzz target (libFuzzer or regression_main build) once over every
# input of its corpora: *.zip arguments are unpacked first, directories are
# passed through. Fails when a corpus is empty or the target fails.
# usage: run_corpus.sh TARGET CORPUS.zip|DIR...
set -euo pipefail
bin=$1
shift
dirs=()
for arg in "$@"; do
  if [[ $arg == *.zip ]]; then
    dir=$(mktemp -d "${TEST_TMPDIR:-/tmp}/corpus.XXXXXX")
    unzip -q "$arg" -d "$dir"
  else
    dir=$arg
  fi
  if [ -z "$(find -L "$dir" -type f | head -1)" ]; then
    echo "run_corpus.sh: no inputs in $arg" >&2
    exit 1
  fi
  dirs+=("$dir")
done
exec "$bin" -runs=0 -rss_limit_mb=2048 "${dirs[@]}"
