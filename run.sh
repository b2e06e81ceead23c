#!/usr/bin/env bash
# squashlab's main job. With no arguments: builds everything, shows what the
# reader sees in the embedded test image, then runs `squashlab verify` — every
# read-path variant x decompressor strategy explored on the embedded default
# image, with a verdict table. With arguments: runs `squashlab ARGS...`.
set -euo pipefail
caller_dir=$(pwd)
cd "$(dirname "$0")"
source tools/install_deps.sh

bazel build //cli:squashlab //testdata:tree_zstd >&2
# The bazel-bin symlink follows the last build's configuration; ask instead.
bin=$(bazel info bazel-bin 2>/dev/null)
squashlab=$bin/cli/squashlab
if [ $# -gt 0 ]; then
  cd "$caller_dir"  # relative image paths are the caller's
  exec "$squashlab" "$@"
fi
cd "$bin"  # so that the image's path reads short
image=testdata/tree_zstd.sqfs
echo "== squashlab info $image"
"$squashlab" info "$image"
echo
echo "== squashlab ls -l -R $image (first 12 lines)"
("$squashlab" ls -l -R "$image" || true) | head -n 12
echo
echo "== squashlab verify (every variant x decompressor on the embedded image)"
"$squashlab" verify
