#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file implements the extraction benchmark on a real file system:
# `squashlab extract`, `unsquashfs -d` and `rdsquashfs -u /` (with -X -T -C -O
# so that it too sets xattrs, times, modes and owners) extract the same images
# into a fresh loop-mounted ext4 file system (made again before every run, so
# every run starts from the same state with cold metadata caches), in
# rotating order, for several rounds; then the same on tmpfs, one round with
# a busy loop on every core, and `strace -c` counts of the open calls. In the
# same rotation on the trees, "floor" (//bench:fs_floor) creates the tree's
# source from memory with the fewest calls, 1 and 2 threads (floor-2):
# what the file system itself costs; its time is the creation alone.
# Images (a tree of >= 50,000 small files from /usr/share, lz4 and gzip; one
# 1 GiB file, lz4) live on tmpfs so that reading them costs no disk I/O.
#
# Usage (as root): bench/extract_ext4.sh [--rounds N] [--load-rounds N] [--rd-rounds N]
#                  [--nice N] [--boost N] [--out DIR] [--work DIR] [--no-build]
#                  [--quick] [--keep-images] [--reuse-images]
# --nice runs every tool at that nice level except in the busy round, where
# tools and busy loops share nice 0. With autogroup scheduling (Debian's
# default) nice only orders tasks of one session; --boost N sets the nice of
# this script's session instead (run it under setsid), so that on a machine
# others are using every tool gets most of the CPU, the same for each.
# --keep-images leaves the images mounted in WORK/images; --reuse-images uses
# them (and keeps them).
# Writes DIR/runs.csv, DIR/strace.csv, DIR/machine.txt; bench/extract_ext4_report.py
# DIR prints the table and writes DIR/summary.json and DIR/table.md.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
args="$*"  # for machine.txt; the loop below consumes them
rounds=5
load_rounds=3
rd_rounds=1
nice_level=0
boost=""
reuse=0
keep_images=0
out=""
work=/var/tmp/squashlab-extract-bench
no_build=0
quick=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) rounds="$2"; shift ;;
    --load-rounds) load_rounds="$2"; shift ;;
    --rd-rounds) rd_rounds="$2"; shift ;;
    --nice) nice_level="$2"; shift ;;
    --boost) boost="$2"; shift ;;
    --reuse-images) reuse=1; keep_images=1 ;;
    --keep-images) keep_images=1 ;;
    --out) out="$2"; shift ;;
    --work) work="$2"; shift ;;
    --no-build) no_build=1 ;;
    --quick) quick=1 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "extract_ext4.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
log() { echo "[extract-bench $(date -u +%H:%M:%S)] $*" >&2; }
out="${out:-$repo/bench/out/extract-$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$out" "$work"
out="$(cd "$out" && pwd)"

if [[ $(id -u) != 0 ]]; then log "SKIP: needs root (mkfs, mount -o loop, drop_caches)"; exit 0; fi
for t in mksquashfs unsquashfs rdsquashfs mkfs.ext4 strace /usr/bin/time; do
  command -v "$t" >/dev/null || { log "SKIP: $t missing (squashfs-tools, squashfs-tools-ng, e2fsprogs, strace, time)"; exit 0; }
done
if [[ -n $boost ]]; then
  echo "$boost" >/proc/self/autogroup || log "cannot set the session's nice (no autogroup?)"
fi
if [[ $no_build == 0 ]]; then
  log "building squashlab (-c opt)"
  (cd "$repo" && bazel build -c opt //cli:squashlab //bench:fs_floor >&2)
fi
squashlab="$repo/bazel-out/k8-opt/bin/cli/squashlab"
fs_floor="$repo/bazel-out/k8-opt/bin/bench/fs_floor"

# ---- file systems ----------------------------------------------------------------
mnt="$work/mnt"
mkdir -p "$mnt"
ext4_img="$work/ext4.img"
cleanup() {
  [[ -n "${hogs:-}" ]] && kill $hogs 2>/dev/null || true
  mountpoint -q "$mnt" && umount "$mnt" || true
  [[ $keep_images == 1 ]] || { mountpoint -q "$work/images" && umount "$work/images" || true; }
  rm -f "$ext4_img"
}
trap cleanup EXIT

fresh_fs() {  # ext4|tmpfs: an empty file system on $mnt, caches dropped
  mountpoint -q "$mnt" && umount "$mnt"
  if [[ $1 == ext4 ]]; then
    rm -f "$ext4_img"
    truncate -s 8G "$ext4_img"
    # Initialise inode tables and journal now, not in a background thread
    # while a tool runs.
    mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$ext4_img"
    mount -o loop "$ext4_img" "$mnt"
  else
    mount -t tmpfs -o size=6G tmpfs "$mnt"
  fi
  sync
  echo 3 >/proc/sys/vm/drop_caches
}
if ! fresh_fs ext4 2>"$out/mount_err.txt"; then
  log "SKIP: cannot make and loop-mount an ext4 file system: $(head -c 300 "$out/mount_err.txt")"
  exit 0
fi

# ---- images ----------------------------------------------------------------------
mkdir -p "$work/images"
mountpoint -q "$work/images" || mount -t tmpfs -o size=4G tmpfs "$work/images"
img="$work/images"
tree_src=(/usr/share)
[[ $quick == 1 ]] && tree_src=(/usr/share/doc /usr/share/locale)
files=$(find "${tree_src[@]}" -type f | wc -l)
if (( quick == 0 && files < 50000 )); then
  tree_src+=(/usr/lib); files=$(find "${tree_src[@]}" -type f | wc -l)
fi
log "tree: ${tree_src[*]}: $files regular files"
if [[ $reuse == 1 && -f $img/tree-lz4.sqfs && -f $img/tree-gzip.sqfs && -f $img/big-lz4.sqfs ]]; then
  log "reusing the images in $img"
else
  for c in lz4 gzip; do
    log "mksquashfs tree, $c"
    mksquashfs "${tree_src[@]}" "$img/tree-$c.sqfs" -comp "$c" -noappend -quiet -no-progress >&2
  done
  big_mib=1024
  [[ $quick == 1 ]] && big_mib=128
  mkdir -p "$img/bigsrc"
  # Real content: what tar makes of /usr/share and /usr/lib, cut at 1 GiB.
  (tar cf - -C / usr/share usr/lib 2>/dev/null || true) | head -c $((big_mib << 20)) >"$img/bigsrc/big.bin"
  log "mksquashfs 1 file of $(stat -c %s "$img/bigsrc/big.bin") bytes, lz4"
  mksquashfs "$img/bigsrc" "$img/big-lz4.sqfs" -comp lz4 -noappend -quiet -no-progress >&2
  rm -rf "$img/bigsrc"
fi

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "command: bench/extract_ext4.sh $args"
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p') x $(nproc)"
  echo "kernel: $(uname -r)"
  echo "memory: $(free -g | awk '/^Mem:/ {print $2}') GiB"
  echo "ext4 image on: $(df --output=source,fstype "$work" | tail -1)"
  echo "tools: $(unsquashfs -v 2>&1 | head -1); $(rdsquashfs --version 2>&1 | head -1)"
  echo "squashlab: $(cd "$repo" && git rev-parse --short HEAD)"
  echo "tree: ${tree_src[*]} ($files regular files)"
  echo "loadavg at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "nice: $nice_level (busy round: 0); session (autogroup) nice: ${boost:-unchanged}"
} >"$out/machine.txt"

# ---- runs ------------------------------------------------------------------------
tools=(squashlab unsquashfs rdsquashfs)
# The floor needs the tree's source as one directory (the image's root).
floor_tools=()
if [[ ${#tree_src[@]} == 1 && -x $fs_floor ]]; then floor_tools=(floor floor-2); fi
command_for() {  # TOOL IMAGE DEST
  case $1 in
    squashlab) echo "$squashlab extract -q $2 $3" ;;
    unsquashfs) echo "unsquashfs -q -no-progress -d $3 $2" ;;
    rdsquashfs) echo "rdsquashfs -q -u / -p $3 -X -T -C -O $2" ;;
    floor) echo "$fs_floor ${tree_src[0]} $3 1" ;;
    floor-2) echo "$fs_floor ${tree_src[0]} $3 2" ;;
  esac
}
echo "case,fs,image,load,round,tool,seconds,sync_seconds,user,sys,rc,entries,loadavg" >"$out/runs.csv"
run_one() {  # CASE FS IMAGE LOAD ROUND TOOL
  local dest="$mnt/dest" cmd t0 t1 t2 rc=0 la
  fresh_fs "$2"
  cmd=$(command_for "$6" "$img/$3.sqfs" "$dest")
  la=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s%N)
  local level=$nice_level
  [[ $4 == busy ]] && level=0
  nice -n "$level" /usr/bin/time -o "$work/time.txt" -f '%U %S' $cmd >"$work/out.txt" 2>"$work/err.txt" || rc=$?
  t1=$(date +%s%N)
  sync
  t2=$(date +%s%N)
  [[ $rc == 0 ]] || log "$6 $1: exit $rc: $(head -c 300 "$work/err.txt")"
  local entries
  entries=$(find "$dest" | wc -l)
  read -r u s < <(tail -1 "$work/time.txt")
  if [[ $6 == floor* ]]; then
    # Its own figures: the creation, without loading the tree into memory.
    local secs shift_ns
    read -r secs u s <"$work/out.txt"
    shift_ns=$((t1 - t0 - 10#${secs/./} * 100000))  # secs has 4 decimals
    t1=$((t1 - shift_ns))
    t2=$((t2 - shift_ns))
  fi
  awk -v a="$t0" -v b="$t1" -v c="$t2" -v row="$1,$2,$3,$4,$5,$6" -v rest="$u,$s,$rc,$entries,$la" \
    'BEGIN {printf "%s,%.4f,%.4f,%s\n", row, (b - a) / 1e9, (c - b) / 1e9, rest}' >>"$out/runs.csv"
  log "$1 round $5 $6: $(tail -1 "$out/runs.csv" | cut -d, -f7,8) s (load $la)"
}
# rdsquashfs fsyncs every file: on ext4 a tree takes it minutes, so it gets
# $rd_rounds rounds there (its ratio does not need the spread), none when busy.
run_case() {  # CASE FS IMAGE LOAD ROUNDS
  local r i tool
  local -a these=("${tools[@]}")
  [[ $1 == tree* && $4 == shared ]] && these+=("${floor_tools[@]}")
  local n=${#these[@]}
  for ((r = 0; r < $5; r++)); do
    for ((i = 0; i < n; i++)); do
      tool=${these[$(((r + i) % n))]}
      if [[ $tool == rdsquashfs && $2 == ext4 && $1 == tree* && ($r -ge $rd_rounds || $4 == busy) ]]; then
        continue
      fi
      run_one "$1" "$2" "$3" "$4" "$r" "$tool"
    done
  done
}
run_case tree-lz4 ext4 tree-lz4 shared "$rounds"
run_case tree-gzip ext4 tree-gzip shared "$rounds"
run_case big-lz4 ext4 big-lz4 shared "$rounds"
run_case tree-lz4 tmpfs tree-lz4 shared "$rounds"
run_case big-lz4 tmpfs big-lz4 shared "$rounds"
log "busy loops on all $(nproc) cores"
hogs=""
for ((i = 0; i < $(nproc); i++)); do (while :; do :; done) & hogs="$hogs $!"; done
run_case tree-lz4 ext4 tree-lz4 busy "$load_rounds"
kill $hogs; wait $hogs 2>/dev/null || true; hogs=""

# ---- open calls ------------------------------------------------------------------
# On tmpfs: the counts do not depend on the file system, and rdsquashfs's
# fsync per file would make an ext4 run take minutes.
echo "image,tool,open_calls" >"$out/strace.csv"
for image in tree-lz4 big-lz4; do
  for tool in "${tools[@]}"; do
    fresh_fs tmpfs
    strace -f -c -o "$work/strace.txt" -e trace=openat,openat2,open \
      $(command_for "$tool" "$img/$image.sqfs" "$mnt/dest") >/dev/null 2>&1 || true
    n=$(awk '/^-/ {next} $NF ~ /^open/ {s += $4} END {print s + 0}' "$work/strace.txt")
    echo "$image,$tool,$n" >>"$out/strace.csv"
    log "strace $image $tool: $n open calls"
  done
done
echo "loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/machine.txt"
log "done: $out"
python3 "$repo/bench/extract_ext4_report.py" "$out"
