#!/usr/bin/env bash
# Runs one libFuzzer target: see fuzz/README.md (fuzz/fuzz.sh does the work).
exec "$(dirname "$0")/fuzz/fuzz.sh" "$@"
