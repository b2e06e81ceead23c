#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file implements the real kernels' matrix: linux-6.1 and linux-6.12 x
# their decompressor strategies (single, multi, percpu) x the workloads, for
# each fault plan on the RAM disk and for each hw_emul profile, through
# `squashlab verify`; one JSON and log per row and a CSV/markdown table of the
# rows at the end. A row may name a codec: the default image's tree is then
# built with it (harness/make_small_image.sh), so that every decompressor the
# kernel has (gzip, xz, lzo, lz4, zstd) runs its wrapper.
#
#   harness/real_kernels_matrix.sh SQUASHLAB OUTDIR [BUDGET] [ROWS...]
#
# SQUASHLAB is the command line binary (e.g. bazel-bin/cli/squashlab from
# `bazel build -c opt //cli:squashlab`), BUDGET the PCT schedules per cell
# (default 10000), ROWS a subset of the rows as PLAN@DEVICE[@CODEC] (default:
# every plan on the RAM disk, then every profile without faults; no CODEC:
# the embedded gzip image). Environment:
#   SQUASHLAB_MATRIX_WORKLOADS="dd pair ..."  instead of the default workloads
#   SQUASHLAB_MATRIX_BOUND=B    the exhaustive search at preemption bound B
#                               (on `pair` unless workloads are given; BUDGET
#                               then caps the runs of a cell)
#   SQUASHLAB_MATRIX_SEEDS="1 2 ..."  each row once per seed (default 1): the
#                               seed draws which bios a fault plan fails
# Exit status 1 when a row is not clean.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '/^#   harness/,/^# Exit status/p' "$0" | sed 's/^# \{0,3\}//' >&2
  exit 2
fi
bin=$1
out=$2
budget=${3:-10000}
shift $(($# < 3 ? $# : 3))
rows=("$@")
if [ ${#rows[@]} -eq 0 ]; then
  rows=(none@ram eio@ram reada@ram bitflip@ram
        none@emmc-hs200 none@kvm-hdb none@usb-stick none@qspi-flash none@nvme)
fi
workloads=${SQUASHLAB_MATRIX_WORKLOADS:-}
strategy=(--strategy pct)
if [ -n "${SQUASHLAB_MATRIX_BOUND:-}" ]; then
  strategy=(--strategy exhaustive --preemption-bound "$SQUASHLAB_MATRIX_BOUND")
  workloads=${workloads:-pair}
fi
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
csv="$out/matrix.csv"
echo "plan,device,codec,seed,strategy,cells,schedules_per_cell,exhausted,clean,failing,cpu_s" >"$csv"
header="| plan | device | codec | seed | cells | schedules a cell (budget) | exhausted | clean | failing | CPU s |"
status=0
table=()

# The image of CODEC, built once into OUTDIR/images.
image_for() {
  local image="$out/images/small-$1.sqfs"
  if [ ! -f "$image" ]; then
    mkdir -p "$out/images"
    "$here/make_small_image.sh" "$here/make_small_tree.py" "$1" "$image"
  fi
  echo "$image"
}

# One row and seed: verify, its CPU seconds, a CSV line and a table line.
run_row() {
  local plan=$1 dev=$2 codec=$3 seed=$4 image=$5
  local name="$plan-$dev${image:+-$codec}-seed$seed"
  local args=(verify --variant linux-6.1 --variant linux-6.12
              --decomp single --decomp multi --decomp percpu
              --kernel debug "${strategy[@]}" --budget "$budget" --seed "$seed")
  [ "$plan" != none ] && args+=(--faults "$plan")
  [ "$dev" != ram ] && args+=(--device "$dev")
  [ -n "$image" ] && args+=(--image "$image")
  local w
  for w in $workloads; do args+=(--workload "$w"); done
  args+=(--json "$out/$name.json")
  echo "== $plan on $dev ($codec, seed $seed): ${args[*]}" >&2
  local start log=$out/$name.log user sys
  start=$(date +%s)
  TIMEFORMAT='%U %S'  # the shell's own timing of the child: user, system
  { time "$bin" "${args[@]}" >"$log" 2>&1 || status=1; } 2>"$out/$name.time"
  read -r user sys <"$out/$name.time"
  local cpu verdict cells clean failing exhausted
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.0f", u+s}')
  verdict=$(grep '^verdict:' "$log" || echo "verdict: (none)")
  cells=$(sed -n 's/^verdict: \([0-9]*\) cells.*/\1/p' "$log")
  clean=$(sed -n 's/.* \([0-9]*\) clean.*/\1/p' <<<"$verdict")
  failing=$(sed -n 's/.* \([0-9]*\) failing.*/\1/p' <<<"$verdict")
  exhausted=$(grep -c '^linux.*(exhausted)' "$log" || true)
  # What the cells ran: PCT its budget; exhaustive the range of runs.
  local ran
  ran=$(sed -n 's/^linux-[0-9.]* *[a-z]* *\([0-9]*\) .*/\1/p' "$log" |
        sort -n | sed -n '1p;$p' | paste -sd- -)
  echo "$plan,\"$dev\",$codec,$seed,${strategy[1]},${cells:-0},${ran:-0},$exhausted,${clean:-0},${failing:-0},$cpu" >>"$csv"
  table+=("| $plan | $dev | $codec | $seed | ${cells:-0} | ${ran:-0} ($budget) | $exhausted | ${clean:-0} | ${failing:-0} | $cpu |")
  echo "   $verdict ($cpu CPU-s, $(( $(date +%s) - start )) s wall)" >&2
}

for row in "${rows[@]}"; do
  plan=${row%%@*}
  rest=${row#*@}
  dev=${rest%%@*}
  codec=gzip
  image=""
  if [ "$rest" != "$dev" ]; then
    codec=${rest#*@}
    image=$(image_for "$codec")
  fi
  for seed in ${SQUASHLAB_MATRIX_SEEDS:-1}; do
    run_row "$plan" "$dev" "$codec" "$seed" "$image"
  done
done
echo
echo "$header"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${table[@]}"
exit $status
