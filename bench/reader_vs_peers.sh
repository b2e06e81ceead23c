#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file implements the reader benchmark: `squashlab cat` and `squashlab
# extract` side by side with unsquashfs, sqfscat and rdsquashfs on the same
# warm images (a ~1 GiB mixed-content single-file image and a /usr-like tree
# image, 128K blocks), plus the codec ceiling (the single-thread decode rate
# over the same blocks, times the cores). A script, not a timed test.
#
# Usage: bench/reader_vs_peers.sh [--quick] [--out DIR] [--runs N] [--codecs "zstd gzip lz4 xz"]
#                                 [--no-build]   (use the last -c opt build in bazel-out/k8-opt)
# Writes DIR/results.json, DIR/results.csv, DIR/table.md and prints the table.
# The machine should be otherwise idle: the load average is recorded in the note.
# Full run: ~15 minutes on 2 cores (the xz image alone takes ~5 to build).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

quick=0
no_build=0
out=""
runs=""
file_codecs="zstd gzip lz4 xz"
tree_codecs="zstd gzip"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=1 ;;
    --out) out="$2"; shift ;;
    --runs) runs="$2"; shift ;;
    --codecs) file_codecs="$2"; shift ;;
    --no-build) no_build=1 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "reader_vs_peers.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
if [[ $quick == 1 ]]; then
  file_mib=64; tree_budget_mb=48; runs=${runs:-1}
else
  file_mib=1024; tree_budget_mb=450; runs=${runs:-3}
fi
out="${out:-$repo/bench/out/$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

log() { echo "[bench $(date -u +%H:%M:%S)] $*" >&2; }

# Tools: squashfs-tools, squashfs-tools-ng and GNU time.
need=()
command -v mksquashfs >/dev/null || need+=(squashfs-tools)
command -v rdsquashfs >/dev/null || need+=(squashfs-tools-ng)
[[ -x /usr/bin/time ]] || need+=(time)
if [[ ${#need[@]} -gt 0 ]]; then
  log "installing ${need[*]}"
  apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi

opt_bin="$repo/bazel-out/k8-opt/bin"
if [[ $no_build == 0 ]]; then
  log "building squashlab and the codec ceiling helper (-c opt)"
  bazel build -c opt //cli:squashlab //bench:codec_ceiling >&2
  opt_bin="$(bazel info -c opt bazel-bin 2>/dev/null)"
fi
bin="$out/bin"
mkdir -p "$bin"
cp -f "$opt_bin/cli/squashlab" "$bin/squashlab"
cp -f "$opt_bin/bench/codec_ceiling" "$bin/codec_ceiling"

# Scratch on a tmpfs: images stay in RAM (a warm page cache by construction)
# and extraction measures the tools, not a disk.
work="$(mktemp -d /tmp/squashlab-bench.XXXXXX)"
mounted=0
cleanup() {
  if [[ $mounted == 1 ]]; then umount "$work" || umount -l "$work"; fi
  rm -rf "$work"
}
trap cleanup EXIT
if [[ $(id -u) == 0 ]] && mount -t tmpfs -o size=12g,mode=0755 tmpfs "$work"; then
  mounted=1
else
  log "no tmpfs for scratch: using $work on $(df --output=fstype "$work" | tail -1)"
fi

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
meas="$out/measurements.jsonl"
: > "$meas"
cores=$(nproc)

# measure KIND IMAGE_LABEL CODEC TOOL BYTES DEST -- COMMAND...
# Runs COMMAND once under GNU time (stdout to /dev/null) after removing DEST,
# and appends one record. The callers interleave the tools run by run, so a
# change in machine load touches every tool alike; the report keeps each
# tool's fastest run.
measure() {
  local kind="$1" label="$2" codec="$3" tool="$4" bytes="$5" dest="$6"
  shift 7
  local t t0 t1 e u s m rc=0 err=""
  [[ -n "$dest" ]] && rm -rf "$dest"
  sync
  # GNU time gives CPU and peak RSS; the wall clock comes from date (ns).
  t0=$(date +%s%N)
  /usr/bin/time -o "$work/time.txt" -f '%e %U %S %M' "$@" >/dev/null 2>"$work/err.txt" || rc=$?
  t1=$(date +%s%N)
  t=$(tail -1 "$work/time.txt")
  e=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", (b - a) / 1e9}')
  read -r _ u s m <<<"$t"
  if [[ $rc != 0 ]]; then
    err=$(head -c 300 "$work/err.txt" | tr '\n"\\' '   ')
    log "$tool $kind $label: exit $rc: $err"
  fi
  [[ -n "$dest" ]] && rm -rf "$dest"
  printf '{"kind": "%s", "image": "%s", "codec": "%s", "tool": "%s", "bytes": %s, "command": "%s", "error": "%s", "runs": [{"elapsed": %s, "user": %s, "sys": %s, "maxrss_kb": %s, "rc": %s}]}\n' \
    "$kind" "$label" "$codec" "$tool" "$bytes" "$(echo "$*" | sed "s|$work|\$WORK|g; s|\"|'|g")" \
    "$err" "$e" "$u" "$s" "$m" "$rc" >>"$meas"
  log "$kind $label/$codec $tool: ${e}s"
}

# ---- the source data ---------------------------------------------------------
log "building a ${file_mib} MiB mixed-content file (random, text-like, zero regions)"
mkdir -p "$work/filesrc"
python3 - "$work/filesrc/data.bin" "$file_mib" <<'EOF'
import os, random, sys
path, mib = sys.argv[1], int(sys.argv[2])
rng = random.Random(42)
# Text-like material: real text from /usr/share (licences, docs), 8 MiB.
text = bytearray()
for root in ("/usr/share/common-licenses", "/usr/share/doc", "/usr/share/perl"):
    for dirpath, _, files in os.walk(root):
        for f in files:
            p = os.path.join(dirpath, f)
            if f.endswith((".gz", ".xz", ".bz2", ".png", ".jpg")) or os.path.islink(p):
                continue
            try:
                with open(p, "rb") as fh:
                    text += fh.read(1 << 20)
            except OSError:
                pass
            if len(text) >= 8 << 20:
                break
if len(text) < 2 << 20:
    words = [b"squash", b"block", b"inode", b"the", b"of", b"fragment", b"table", b"\n"]
    text += b" ".join(rng.choice(words) for _ in range(1 << 20))
MB = 1 << 20
with open(path, "wb") as out:
    for i in range(mib):
        r = rng.random()
        if r < 0.4:
            out.write(rng.randbytes(MB))                 # incompressible
        elif r < 0.85:
            off = rng.randrange(0, len(text) - MB)       # text-like
            out.write(bytes(text[off:off + MB]))
        else:
            out.write(bytes(MB))                         # zeros: sparse blocks
EOF
file_bytes=$(stat -c %s "$work/filesrc/data.bin")

tree_srcs=()
budget=$((tree_budget_mb * 1000 * 1000))
total=0
for d in /usr/lib/gcc /usr/share/doc /usr/share/man /usr/lib/python3 /usr/share/locale \
         /usr/share/vim /usr/share/perl /usr/share/i18n /usr/share/zoneinfo; do
  [[ -d $d ]] || continue
  s=$(du -sb "$d" 2>/dev/null | cut -f1)
  if (( total + s <= budget )); then tree_srcs+=("$d"); total=$((total + s)); fi
done
log "tree sources (${total} bytes): ${tree_srcs[*]}"

# ---- images --------------------------------------------------------------------
declare -A file_img tree_img
for c in $file_codecs; do
  file_img[$c]="$work/file-$c.sqfs"
  log "mksquashfs file image, $c"
  mksquashfs "$work/filesrc" "${file_img[$c]}" -comp "$c" -b 128K -noappend -quiet -no-progress >&2
done
for c in $tree_codecs; do
  tree_img[$c]="$work/tree-$c.sqfs"
  log "mksquashfs tree image, $c"
  mksquashfs "${tree_srcs[@]}" "${tree_img[$c]}" -comp "$c" -b 128K -noappend -quiet \
    -no-progress >&2
done
want_sha=$(sha256sum <"$work/filesrc/data.bin" | cut -d' ' -f1)
rm -rf "$work/filesrc"
# Warm: every image read once.
cat "$work"/*.sqfs >/dev/null

# ---- correctness before speed --------------------------------------------------
for c in $file_codecs; do
  got=$("$bin/squashlab" cat "${file_img[$c]}" /data.bin | sha256sum | cut -d' ' -f1)
  if [[ $got != "$want_sha" ]]; then
    log "FATAL: squashlab cat of the $c file image gives wrong bytes"; exit 1
  fi
done
tree_bytes=0
for c in $tree_codecs; do
  "$bin/squashlab" extract "${tree_img[$c]}" "$work/check" >&2
  tree_bytes=$(find "$work/check" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
  rm -rf "$work/check"
done

# ---- the ceiling ----------------------------------------------------------------
for c in $file_codecs; do
  log "codec ceiling, $c"
  "$bin/codec_ceiling" "${file_img[$c]}" /data.bin 3 \
    | sed "s/^{/{\"codec\": \"$c\", \"image\": \"file\", /" >>"$out/ceiling.jsonl"
done

# ---- cat ----------------------------------------------------------------------------
for c in $file_codecs; do
  img="${file_img[$c]}"
  for ((r = 0; r < runs; r++)); do
    measure cat file "$c" squashlab "$file_bytes" "" -- "$bin/squashlab" cat "$img" /data.bin
    measure cat file "$c" "unsquashfs -cat" "$file_bytes" "" -- unsquashfs -cat "$img" data.bin
    measure cat file "$c" sqfscat "$file_bytes" "" -- sqfscat "$img" /data.bin
    measure cat file "$c" "rdsquashfs -c" "$file_bytes" "" -- rdsquashfs -c /data.bin "$img"
  done
done

# ---- extract --------------------------------------------------------------------------
extract_all() {  # LABEL CODEC IMAGE BYTES
  local label="$1" c="$2" img="$3" bytes="$4" d="$work/dest" r
  for ((r = 0; r < runs; r++)); do
    measure extract "$label" "$c" squashlab "$bytes" "$d" -- "$bin/squashlab" extract "$img" "$d"
    measure extract "$label" "$c" "unsquashfs -d" "$bytes" "$d" -- \
      unsquashfs -q -no-progress -d "$d" "$img"
    measure extract "$label" "$c" "rdsquashfs -u / -X" "$bytes" "$d" -- \
      rdsquashfs -q -u / -p "$d" -X -T -C -O "$img"
  done
}
for c in $tree_codecs; do extract_all tree "$c" "${tree_img[$c]}" "$tree_bytes"; done
for c in $file_codecs; do extract_all file "$c" "${file_img[$c]}" "$file_bytes"; done

# ---- report ----------------------------------------------------------------------------
ls -l "$work"/*.sqfs | awk '{print $5, $9}' | sed "s|$work/||" >"$out/images.txt"
python3 "$repo/bench/reader_vs_peers_report.py" --out "$out" --cores "$cores" \
  --host "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), ${cores} cores" \
  --note "file: ${file_mib} MiB mixed; tree: ${tree_srcs[*]}; 128K blocks; runs=$runs (best kept); load average before/after: ${load_before} / $(cut -d' ' -f1-3 /proc/loadavg)"
log "results in $out"
