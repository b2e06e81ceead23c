#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file implements the real kernels' PCT matrix: linux-6.1 and
# linux-6.12 x their decompressor strategies (single, multi, percpu) x the
# default workloads, for each fault plan on the RAM disk and for each hw_emul
# profile, through `squashlab verify`; one JSON per row and a CSV/markdown
# table of the rows at the end. A row may name a codec: the default image's
# tree is then built with it (harness/make_small_image.sh), so that every
# decompressor the kernel has (gzip, xz, lzo, lz4, zstd) runs its wrapper.
#
#   harness/real_kernels_matrix.sh SQUASHLAB OUTDIR [BUDGET] [ROWS...]
#
# SQUASHLAB is the command line binary (e.g. bazel-bin/cli/squashlab from
# `bazel build -c opt //cli:squashlab`), BUDGET the PCT schedules per cell
# (default 10000), ROWS a subset of the rows as PLAN@DEVICE[@CODEC] (default:
# every plan on the RAM disk, then every profile without faults; no CODEC:
# the embedded gzip image). SQUASHLAB_MATRIX_WORKLOADS="dd pair ..." replaces
# the default workloads. Exit status 1 when a row is not clean.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '/^#   harness/,/^# a row is not clean/p' "$0" | sed 's/^# \{0,3\}//'
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
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
csv="$out/matrix.csv"
echo "plan,device,codec,cells,schedules_per_cell,clean,failing,cpu_s" >"$csv"
status=0
table=()
for row in "${rows[@]}"; do
  plan=${row%%@*}
  rest=${row#*@}
  dev=${rest%%@*}
  codec=gzip
  [ "$rest" != "$dev" ] && codec=${rest#*@}
  name=$plan-$dev
  args=(verify --variant linux-6.1 --variant linux-6.12
        --decomp single --decomp multi --decomp percpu
        --kernel debug --strategy pct --budget "$budget")
  [ "$plan" != none ] && args+=(--faults "$plan")
  [ "$dev" != ram ] && args+=(--device "$dev")
  if [ "$rest" != "$dev" ]; then
    image="$out/images/small-$codec.sqfs"
    if [ ! -f "$image" ]; then
      mkdir -p "$out/images"
      "$here/make_small_image.sh" "$here/make_small_tree.py" "$codec" "$image"
    fi
    name=$plan-$dev-$codec
    args+=(--image "$image")
  fi
  for w in ${SQUASHLAB_MATRIX_WORKLOADS:-}; do args+=(--workload "$w"); done
  args+=(--json "$out/$name.json")
  echo "== $plan on $dev ($codec): ${args[*]}" >&2
  start=$(date +%s)
  log="$out/$name.log"
  TIMEFORMAT='%U %S'  # the shell's own timing of the child: user, system
  { time "$bin" "${args[@]}" >"$log" 2>&1 || status=1; } 2>"$out/$name.time"
  read -r user sys <"$out/$name.time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.0f", u+s}')
  verdict=$(grep '^verdict:' "$log" || echo "verdict: (none)")
  cells=$(sed -n 's/^verdict: \([0-9]*\) cells.*/\1/p' "$log")
  clean=$(sed -n 's/.* \([0-9]*\) clean.*/\1/p' <<<"$verdict")
  failing=$(sed -n 's/.* \([0-9]*\) failing.*/\1/p' <<<"$verdict")
  echo "$plan,\"$dev\",$codec,${cells:-0},$budget,${clean:-0},${failing:-0},$cpu" >>"$csv"
  table+=("| $plan | $dev | $codec | ${cells:-0} | $budget | ${clean:-0} | ${failing:-0} | $cpu |")
  echo "   $verdict ($cpu CPU-s, $(( $(date +%s) - start )) s wall)" >&2
done
echo
echo "| plan | device | codec | cells | schedules per cell | clean | failing | CPU s |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${table[@]}"
exit $status
