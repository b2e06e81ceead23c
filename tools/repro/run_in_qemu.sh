#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs the readahead_tail_past_eof.sh check inside another kernel: boots a
# Debian linux-image package (or a directory it was unpacked into) under
# qemu with a busybox initramfs that loop-mounts the test image and maps the
# last page of each file with last_page_check, then reads the verdict off
# the serial console. Needs no root, only qemu-system-x86_64, busybox-static,
# gcc with a static libc, binutils, and what readahead_tail_past_eof.sh needs
# for --image-only (python3, mksquashfs).
#   tools/repro/run_in_qemu.sh linux-image-6.1.0-57-amd64-unsigned_*.deb
#   tools/repro/run_in_qemu.sh DIR   # holds boot/vmlinuz-* and lib/modules/*
# Exit status: 0 not affected, 1 affected, 2 the check could not run.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
timeout_s=${RUN_IN_QEMU_TIMEOUT:-300}
die() { echo "run_in_qemu: $*" >&2; exit 2; }

[ $# -eq 1 ] || die "usage: $0 KERNEL.deb|DIR"
kernel=$1
for tool in qemu-system-x86_64 busybox gcc objcopy readelf; do
  command -v "$tool" >/dev/null || die "needs $tool"
done
busybox=$(command -v busybox)
readelf -l "$busybox" | grep -q INTERP && die "$busybox is not static (apt-get install busybox-static)"

work=$(mktemp -d)
# shellcheck disable=SC2317  # run by the trap
cleanup() {
  local pid
  pid=$(cat "$work/qemu.pid" 2>/dev/null) || pid=
  if [ -n "$pid" ] && grep -qF "$work" "/proc/$pid/cmdline" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP

# The kernel and its module tree.
if [ -f "$kernel" ]; then
  command -v dpkg-deb >/dev/null || die "needs dpkg-deb to unpack $kernel"
  dpkg-deb -x "$kernel" "$work/pkg" || die "cannot unpack $kernel"
  root=$work/pkg
elif [ -d "$kernel" ]; then
  root=$kernel
else
  die "no such file or directory: $kernel"
fi
vmlinuz='' moddir=''
for f in "$root"/boot/vmlinuz-*; do [ -f "$f" ] && vmlinuz=$f && break; done
for d in "$root"/lib/modules/*/ "$root"/usr/lib/modules/*/; do
  [ -d "$d" ] && moddir=${d%/} && break
done
[ -n "$vmlinuz" ] || die "no boot/vmlinuz-* in $kernel"
[ -n "$moddir" ] || die "no lib/modules/VERSION/ in $kernel"

# name path, one line per module file, names with '-' spelt '_' as the
# kernel does.
find "$moddir" -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.zst' -o -name '*.ko.gz' |
  while read -r f; do
    n=${f##*/}
    n=${n%%.ko*}
    echo "${n//-/_} $f"
  done >"$work/index"

# Copies module NAME, after the modules it depends on (its .modinfo
# depends= line), into the initramfs uncompressed and appends it to the
# load order; a module built into the kernel is skipped.
mkdir -p "$work/root/lib/mod"
declare -A seen
add_module() {
  local name=${1//-/_} path dep deps
  [ -z "${seen[$name]:-}" ] || return 0
  seen[$name]=1
  path=$(awk -v n="$name" '$1 == n { print $2; exit }' "$work/index")
  if [ -z "$path" ]; then
    grep -q "/${name//_/[-_]}\.ko" "$moddir/modules.builtin" 2>/dev/null && return 0
    die "module $name is neither in $moddir nor built in"
  fi
  case $path in
    *.xz) xz -dc "$path" ;;
    *.zst) zstd -qdc "$path" ;;
    *.gz) gzip -dc "$path" ;;
    *) cat "$path" ;;
  esac >"$work/root/lib/mod/$name.ko"
  objcopy -O binary --only-section=.modinfo "$work/root/lib/mod/$name.ko" "$work/modinfo"
  deps=$(tr '\0' '\n' <"$work/modinfo" | sed -n 's/^depends=//p' | tr ',' ' ')
  for dep in $deps; do add_module "$dep"; done
  echo "$name" >>"$work/root/lib/mod/order"
}
: >"$work/root/lib/mod/order"
add_module loop
add_module squashfs

# The image, the checker, busybox and an init that runs the check.
"$here/readahead_tail_past_eof.sh" --image-only "$work/root/img.sqfs" ||
  die "cannot build the test image"
gcc -static -O2 -Wall -o "$work/root/last_page_check" "$here/last_page_check.c" ||
  die "cannot build last_page_check statically (libc6-dev has libc.a)"
mkdir -p "$work/root/bin" "$work/root/dev" "$work/root/proc" "$work/root/sys" "$work/root/mnt"
cp "$busybox" "$work/root/bin/busybox"
cat >"$work/root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
for m in $(cat /lib/mod/order); do
  insmod /lib/mod/$m.ko || echo "squashlab-qemu: insmod $m failed"
done
echo "squashlab-qemu: uname -r $(uname -r)"
if mount -o loop,ro -t squashfs /img.sqfs /mnt; then
  for f in a b; do
    other=b; [ $f = b ] && other=a
    /last_page_check /mnt/$f /mnt/$other
    echo "squashlab-qemu: result $f $?"
  done
else
  echo "squashlab-qemu: mount failed"
  dmesg | tail -n 20
fi
echo "squashlab-qemu: done"
poweroff -f
EOF
chmod +x "$work/root/init"
(cd "$work/root" && find . | busybox cpio -o -H newc -R 0:0 2>/dev/null | gzip -1) >"$work/initrd"

# KVM where it can run a stock kernel; kvm_pvm (a paravirtual KVM found on
# some cloud guests) runs only kernels built for it, and a stock one hangs
# silently there, so that host emulates (tcg), as does one without KVM.
accel=${RUN_IN_QEMU_ACCEL:-kvm}
if [ -z "${RUN_IN_QEMU_ACCEL:-}" ]; then
  if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
    echo "run_in_qemu: /dev/kvm is not usable, emulating (tcg)" >&2
    accel=tcg
  elif [ -d /sys/module/kvm_pvm ]; then
    echo "run_in_qemu: this host's KVM is kvm_pvm, which cannot run a stock kernel: emulating (tcg)" >&2
    accel=tcg
  fi
fi
echo "run_in_qemu: booting ${vmlinuz##*/} with $accel ($(tr '\n' ' ' <"$work/root/lib/mod/order")loaded as modules)"
start=$(date +%s)
timeout "$timeout_s" qemu-system-x86_64 -accel "$accel" -m 512 -nographic -no-reboot \
  -pidfile "$work/qemu.pid" -kernel "$vmlinuz" -initrd "$work/initrd" \
  -append "console=ttyS0 panic=-1 quiet" </dev/null | tr -d '\r' | tee "$work/console" &
wait $! || true  # in the background so that a signal's trap runs at once
echo "run_in_qemu: the guest ran $(($(date +%s) - start)) s"

results=$(sed -n 's/^squashlab-qemu: result \([ab]\) \([0-9]*\)$/\1=\2/p' "$work/console" | paste -sd ' ')
case $results in
  *=1*) echo "run_in_qemu: AFFECTED ($results)"; exit 1 ;;
  "a=0 b=0") echo "run_in_qemu: not affected ($results)"; exit 0 ;;
  *) echo "run_in_qemu: the check did not run (results: ${results:-none})"; exit 2 ;;
esac
