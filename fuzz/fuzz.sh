#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Continuous fuzzing of one target on this machine.
# usage: fuzz/fuzz.sh TARGET [--time SECONDS] [--jobs N] [--workdir DIR]
#   TARGET: image_fuzzer, extract_fuzzer, superblock_fuzzer, metadata_fuzzer,
#   inode_fuzzer, directory_fuzzer, tables_fuzzer, decompress_<codec>_fuzzer,
#   schedule_fuzzer, schedule_async2013_fuzzer (the detection benchmark:
#   its findings are expected; SQUASHLAB_SCHEDULE_CLASS=<kind> picks a class).
# Builds the libFuzzer binary under --config=fuzz in its own Bazel output base
# (so it never blocks the default server), seeds a persistent working corpus
# from the build-time seed zip, runs with the target's dictionary, then
# minimises each crash (-minimize_crash) into fuzz/regression/TARGET/ and
# prints the last coverage line (cov: edges, ft: features, exec/s).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz/fuzz.sh TARGET [--time S] [--jobs N] [--workdir DIR]}
shift
time=600 jobs=1 workdir=/tmp/squashlab-fuzz
while [ $# -gt 0 ]; do
  case $1 in
    --time) time=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    *) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
base=/root/.cache/bazel-fuzz
[ -n "${SQUASHLAB_FUZZ_OUTPUT_BASE:-}" ] && base=$SQUASHLAB_FUZZ_OUTPUT_BASE
# --symlink_prefix=/: leave the workspace's bazel-* links to the default server.
flags=(--config=fuzz --symlink_prefix=/)
seeds=//fuzz:seed_corpora
case $target in schedule_*) seeds=//fuzz:schedule_seed_corpus ;; esac
bazel --output_base="$base" build "${flags[@]}" "//fuzz:$target" "$seeds" \
  2>&1 | grep -vE 'Cannot export local symbol|^INFO|^\[' || true
bin=$(bazel --output_base="$base" info "${flags[@]}" bazel-bin 2>/dev/null)/fuzz
max_len=262144 seed_zip=${target}_seed_corpus.zip regression=(fuzz/regression) len_control=()
case $target in
  decompress_*) dict=fuzz/dicts/decompress.dict ;;
  # 8 header bytes + one byte per choice point (runs have up to ~750).
  # schedule_fuzzer also starts from async-2013's findings (same layout);
  # for schedule_async2013_fuzzer they are known crashes, so it does not.
  # -len_control=0: bytes past a run's last choice point are unused anyway.
  schedule_*) dict=fuzz/dicts/schedule.dict max_len=1024 seed_zip=schedule_fuzzer_seed_corpus.zip
    regression=() len_control=(-len_control=0)
    [ "$target" = schedule_fuzzer ] && regression=(fuzz/regression/schedule_async2013_fuzzer) ;;
  *) dict=fuzz/dicts/squashfs.dict ;;
esac
dir=$workdir/$target
mkdir -p "$dir/corpus" "$dir/artifacts"
unzip -qo "$bin/$seed_zip" -d "$dir/corpus"
# libFuzzer's stderr closed for the target (-close_fd_mask=2) keeps the CLI's
# error messages out of the log; crash reports still reach it.
extra=()
[ "$target" = extract_fuzzer ] && extra+=(-close_fd_mask=2)
[ "$jobs" -gt 1 ] && extra+=(-jobs="$jobs" -workers="$jobs")
log=$dir/fuzz.log
set +e
"$bin/$target" "$dir/corpus" "${regression[@]}" -dict="$dict" -max_total_time="$time" \
  -rss_limit_mb=2048 -timeout=25 -max_len="$max_len" "${len_control[@]}" \
  -artifact_prefix="$dir/artifacts/" -print_final_stats=1 "${extra[@]}" 2>&1 | tee "$log" |
  grep -E '^#[0-9]+.*(pulse|DONE|REDUCE|NEW)|ERROR|SUMMARY|stat::' | tail -n 40
set -e
{ grep -h '^#' "$log" "$dir"/fuzz-*.log 2>/dev/null || true; } | grep -E 'cov:' | tail -1 |
  sed 's/^/last: /' || true
shopt -s nullglob
for crash in "$dir"/artifacts/crash-* "$dir"/artifacts/leak-* "$dir"/artifacts/timeout-* "$dir"/artifacts/oom-*; do
  mkdir -p "fuzz/regression/$target"
  out="fuzz/regression/$target/$(basename "$crash")"
  "$bin/$target" -minimize_crash=1 -runs=20000 -exact_artifact_path="$out" "$crash" \
    >/dev/null 2>&1 || cp "$crash" "$out"
  [ -s "$out" ] || cp "$crash" "$out"
  echo "finding: $out (from $crash); reproduce: $bin/$target $out"
  mkdir -p "$dir/artifacts/triaged"
  mv "$crash" "$dir/artifacts/triaged/"
done
