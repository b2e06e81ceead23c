#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Time to first finding of schedule_async2013_fuzzer, per report class:
# for each class and each libFuzzer seed, run from the seed corpus (or with
# --empty from nothing) with SQUASHLAB_SCHEDULE_CLASS=<class> until the
# first crash (or --time), and print executions and seconds to it (seed
# inputs included), then the median over the seeds that found it.
# -len_control=0: a schedule input is useful at full length from the start
# (bytes past the run's last choice point are simply unused). With --keep, the first finding of each class is minimised (the
# class pinned, so it stays that class) into
# fuzz/regression/schedule_async2013_fuzzer/<class>-<sha1> and listed in its
# manifest.txt (checked by //fuzz:schedule_regression_test).
# usage: fuzz/measure_schedule.sh [--seeds N] [--time S] [--keep] [--empty] [CLASS...]
#   CLASS: a ReportKindName (hung-task, use-after-free, brelse-free-buffer,
#   null-dereference, work-freed-active, ...) or "any"; default: those five.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=5 time=120 keep=0 empty=0 classes=()
while [ $# -gt 0 ]; do
  case $1 in
    --seeds) seeds=$2; shift 2 ;;
    --time) time=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --empty) empty=1; shift ;;
    *) classes+=("$1"); shift ;;
  esac
done
[ ${#classes[@]} -eq 0 ] &&
  classes=(hung-task use-after-free brelse-free-buffer null-dereference work-freed-active)
target=schedule_async2013_fuzzer
flags=(--config=fuzz --symlink_prefix=/)
base=${SQUASHLAB_FUZZ_OUTPUT_BASE:-/root/.cache/bazel-fuzz}
bazel --output_base="$base" build "${flags[@]}" "//fuzz:$target" //fuzz:schedule_seed_corpus 2>&1 |
  grep -E '^ERROR' || true
bindir=$(bazel --output_base="$base" info "${flags[@]}" bazel-bin 2>/dev/null)/fuzz
bin=$bindir/$target
regdir=fuzz/regression/$target
work=$(mktemp -d /tmp/measure_schedule.XXXXXX)
median() { sort -g | awk '{v[NR]=$1} END {if (NR == 0) print "-"; else if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
for class in "${classes[@]}"; do
  want=$class
  [ "$class" = any ] && want=
  : >"$work/$class.execs"
  : >"$work/$class.secs"
  for s in $(seq 1 "$seeds"); do
    run=$work/$class.$s
    mkdir -p "$run/corpus"
    [ "$empty" = 1 ] || unzip -qo "$bindir/schedule_fuzzer_seed_corpus.zip" -d "$run/corpus"
    t0=$(date +%s.%N)
    SQUASHLAB_SCHEDULE_CLASS=$want "$bin" "$run/corpus" -seed="$s" -max_total_time="$time" \
      -max_len=1024 -len_control=0 -dict=fuzz/dicts/schedule.dict -rss_limit_mb=2048 -timeout=25 \
      -artifact_prefix="$run/" -print_final_stats=1 >"$run/log" 2>&1 || true
    t1=$(date +%s.%N)
    execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$run/log" | grep -o '[0-9]*$' || echo 0)
    crash=$(ls "$run"/crash-* 2>/dev/null | head -1 || true)
    if [ -n "$crash" ]; then
      secs=$(echo "$t1 - $t0" | bc)
      found=$(grep -m1 '^class: ' "$run/log" | cut -d' ' -f2 || true)
      scen=$(grep -m1 '^scenario: ' "$run/log" | cut -d' ' -f2 || true)
      if [ -z "$found" ]; then
        # A crash the model did not report (a sanitizer's, a signal): a
        # finding in the model itself, not a timing of the class.
        why=$(grep -m1 -E 'runtime error|ERROR: ' "$run/log" || true)
        echo "$class seed $s: crash without a model report after $execs executions: $why ($crash)"
        continue
      fi
      echo "$class seed $s: $found after $execs executions, ${secs} s ($scen)"
      echo "$execs" >>"$work/$class.execs"
      echo "$secs" >>"$work/$class.secs"
    else
      echo "$class seed $s: not found in $execs executions (${time} s)"
    fi
  done
  n=$(wc -l <"$work/$class.execs")
  echo "== $class: found by $n/$seeds seeds; median $(median <"$work/$class.execs") executions," \
    "$(median <"$work/$class.secs") s"
  first=$(ls "$work/$class".*/crash-* 2>/dev/null | head -1 || true)
  if [ "$keep" = 1 ] && [ -n "$first" ]; then
    mkdir -p "$regdir"
    min=$work/$class.min
    SQUASHLAB_SCHEDULE_CLASS=$want "$bin" -minimize_crash=1 -runs=5000 \
      -exact_artifact_path="$min" "$first" >/dev/null 2>&1 || cp "$first" "$min"
    [ -s "$min" ] || cp "$first" "$min"
    kind=$({ SQUASHLAB_SCHEDULE_CLASS=$want "$bin" "$min" 2>&1 || true; } | grep -m1 "^class: " | cut -d" " -f2 || true)
    name=$kind-$(sha1sum "$min" | cut -c1-12)
    cp "$min" "$regdir/$name"
    grep -q "^$name " "$regdir/manifest.txt" 2>/dev/null || echo "$name $kind" >>"$regdir/manifest.txt"
    echo "kept: $regdir/$name ($kind)"
  fi
done
echo "logs: $work"
