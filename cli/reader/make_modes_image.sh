#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Packs a small tree for the extraction tests: read-only and no-search
# directories, an owner other than the extracting user, hard links into a
# read-only directory, empty files (one set-user-ID), a fifo, a device node
# and a symlink that points out of the tree. Modes and owners come from
# mksquashfs pseudo definitions, so building it needs no privileges.
# usage: make_modes_image.sh OUT.sqfs
set -euo pipefail
out=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
t=$work/tree
mkdir -p "$t/ro/sub" "$t/other" "$t/noexec"
printf 'read-only parent\n' >"$t/ro/f"
printf 'linked twice\n' >"$t/other/g"
ln "$t/other/g" "$t/ro/sub/g_link"
ln "$t/other/g" "$t/ro/g_link2"
: >"$t/ro/empty_suid"
: >"$t/other/empty"
printf 'behind a directory without x\n' >"$t/noexec/h"
mkfifo "$t/other/fifo"
ln -s ../../outside "$t/other/escape"
# Distinct times, deepest first so that parents keep theirs.
i=0
find "$t" -depth | while read -r p; do
  touch -h -d "@$((1577934245 + i))" "$p"
  i=$((i + 1))
done
mksquashfs "$t" "$out" -quiet -no-progress -noappend -mkfs-time 1577934245 \
  -p "ro m 555 0 0" -p "ro/sub m 500 1234 5678" -p "ro/empty_suid m 4755 1234 5678" \
  -p "other/empty m 600 4321 8765" -p "noexec m 600 0 0" -p "other/dev c 640 0 0 1 3" >/dev/null
