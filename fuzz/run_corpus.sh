#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs one fuzz target (libFuzzer or regression_main build) once over every
# input of its corpora: *.zip arguments are unpacked first, directories are
# passed through. Fails when a corpus is empty or the target fails.
# A libFuzzer build also parses the dictionary (--dict) and, after the
# corpus, makes --mutations=N mutated runs from it (-seed=1, so the same
# binary makes the same runs); a crash file goes to the test's undeclared
# outputs. regression_main ignores every flag that starts with '-' (and the
# empty directory libFuzzer writes new inputs to), so it runs the corpus.
# usage: run_corpus.sh [--dict=FILE] [--mutations=N] [--flag=LIBFUZZER_FLAG]...
#                      TARGET CORPUS.zip|DIR...
set -euo pipefail
flags=(-rss_limit_mb=2048 -timeout=60)
mutations=0
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --dict=*) flags+=("-dict=${1#--dict=}") ;;
    --mutations=*) mutations=${1#--mutations=} ;;
    --flag=*) flags+=("${1#--flag=}") ;;
    *) echo "run_corpus.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
bin=$1
shift
tmp=${TEST_TMPDIR:-/tmp}
inputs=0
dirs=()
for arg in "$@"; do
  if [[ $arg == *.zip ]]; then
    dir=$(mktemp -d "$tmp/corpus.XXXXXX")
    unzip -q "$arg" -d "$dir"
  else
    dir=$arg
  fi
  n=$(find -L "$dir" -type f | wc -l)
  if [ "$n" -eq 0 ]; then
    echo "run_corpus.sh: no inputs in $arg" >&2
    exit 1
  fi
  inputs=$((inputs + n))
  dirs+=("$dir")
done
# libFuzzer's -runs counts the corpus runs too; new inputs go to the first
# directory, an empty one of its own.
new=$(mktemp -d "$tmp/new.XXXXXX")
artifacts=${TEST_UNDECLARED_OUTPUTS_DIR:-$tmp}
exec "$bin" -runs=$((inputs + mutations)) -seed=1 -artifact_prefix="$artifacts/" \
  "${flags[@]}" "$new" "${dirs[@]}"
