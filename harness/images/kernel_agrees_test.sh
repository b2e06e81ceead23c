#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file is the loop-mount test of the image matrix: every shape built by
# `squashlab mkimage --shape all`, mounted read-only by the host kernel's
# squashfs and compared entry by entry with the reader and ImageModel
# (kernel_compare: metadata, listings, bytes, the last page via mmap, zero
# past EOF, symlinks, xattrs); then once more with one byte of the reader's
# view changed, which must fail. It skips, saying why, only when the host
# cannot loop-mount squashfs at all (not root, no loop devices, no squashfs).
set -uo pipefail
runfiles="${TEST_SRCDIR:-}/squashlab"
bin="$runfiles/cli/squashlab"
[[ -x "$bin" ]] || bin="${SQUASHLAB:-bazel-bin/cli/squashlab}"
compare="$runfiles/harness/images/kernel_compare"
[[ -x "$compare" ]] || compare="bazel-bin/harness/images/kernel_compare"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
skip() {
  echo "SKIPPED: $* (the kernel comparison did not run)"
  exit 0
}

[[ $(id -u) -eq 0 ]] || skip "not root: loop mounts need root"
[[ -e /dev/loop-control ]] || skip "no /dev/loop-control: no loop devices"
for tool in mount umount losetup mountpoint; do
  command -v "$tool" >/dev/null || skip "$tool is not installed"
done
if ! command -v mksquashfs >/dev/null || ! command -v gensquashfs >/dev/null; then
  echo "FAIL: mksquashfs or gensquashfs is not installed (tools/install_deps.sh)"
  exit 1
fi
grep -qw squashfs /proc/filesystems || modprobe squashfs 2>/dev/null ||
  grep -qw squashfs /proc/filesystems || skip "the host kernel has no squashfs"

work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/kernel-agrees.XXXXXX")
mnt="$work/mnt"
mkdir -p "$mnt" "$work/images"
cleanup() {  # whatever happened: unmount, free the loop devices, remove
  if mountpoint -q "$mnt"; then umount "$mnt" 2>/dev/null || umount -l "$mnt"; fi
  for img in "$work"/images/*.sqfs "$work"/probe.sqfs; do
    [[ -e "$img" ]] || continue
    for dev in $(losetup -n -O NAME -j "$img" 2>/dev/null); do
      losetup -d "$dev"
    done
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Can this host loop-mount squashfs? Asked with an image mksquashfs makes
# here, not one of ours: a failure of ours must fail the test.
mkdir "$work/probe" && echo probe >"$work/probe/file"
mksquashfs "$work/probe" "$work/probe.sqfs" -quiet -no-progress >/dev/null ||
  fail "mksquashfs cannot make the probe image"
if ! err=$(mount -o loop,ro -t squashfs "$work/probe.sqfs" "$mnt" 2>&1); then
  skip "this host cannot loop-mount squashfs: $err"
fi
umount "$mnt"

# The host kernel's configuration, when it says a codec is left out.
kernel_lacks() {  # CODEC: prints the option when the kernel is built without
  local opt
  case "$1" in
    gzip) opt=CONFIG_SQUASHFS_ZLIB ;; xz) opt=CONFIG_SQUASHFS_XZ ;;
    lzo) opt=CONFIG_SQUASHFS_LZO ;; lz4) opt=CONFIG_SQUASHFS_LZ4 ;;
    zstd) opt=CONFIG_SQUASHFS_ZSTD ;; *) return 1 ;;
  esac
  { zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null; } |
    grep -q "^# $opt is not set" && echo "$opt"
}

start=$SECONDS
"$bin" mkimage --shape all "$work/images" >"$work/mkimage.log" 2>&1 ||
  fail "squashlab mkimage --shape all: $(tail -5 "$work/mkimage.log")"
echo "built $(ls "$work"/images/*.sqfs 2>/dev/null | wc -l) images in $((SECONDS - start)) s"

shapes=0
for img in "$work"/images/*.sqfs; do
  [[ -e "$img" ]] || break
  name=$(basename "$img" .sqfs)
  shapes=$((shapes + 1))
  if ! err=$(mount -o loop,ro -t squashfs "$img" "$mnt" 2>&1); then
    codec=$("$bin" info "$img" | sed -n 's/^compressor *\([a-z0-9]*\).*/\1/p')
    if opt=$(kernel_lacks "$codec"); then
      echo "SKIPPED $name: the host kernel is built without $opt"
    else
      fail "$name: the host kernel does not mount it: $err"
    fi
    continue
  fi
  out=$("$compare" "$img" "$mnt") || fail "$name: the kernel and the reader differ"
  echo "${out#"$work/images/"}"
  umount "$mnt" || fail "$name: umount"
done
[[ $shapes -ge 20 ]] || fail "only $shapes shapes were built"

# A wrong byte in the reader's view must be reported.
img="$work/images/gzip-128k.sqfs"
if mount -o loop,ro -t squashfs "$img" "$mnt"; then
  if out=$("$compare" --flip-reader-byte "$img" "$mnt"); then
    fail "a changed byte in the reader's view went unnoticed"
  else
    echo "self-check: a changed reader byte is caught ($(echo "$out" | grep -c MISMATCH) mismatch lines shown)"
  fi
  umount "$mnt"
fi

echo "kernel_agrees: $shapes shapes, $failures failure(s), $((SECONDS - start)) s"
[[ $failures -eq 0 ]] && echo PASS
[[ $failures -eq 0 ]]
