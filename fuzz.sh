#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs one libFuzzer target: see fuzz/README.md (fuzz/fuzz.sh does the work).
exec "$(dirname "$0")/fuzz/fuzz.sh" "$@"
