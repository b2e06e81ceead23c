#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs every RapidCheck property with a larger budget: the properties of
# proptests/ scaled by SQUASHLAB_PROP_SCALE (default 10: ten times the
# cases of ./test.sh), then the model's and hw_emul's properties with
# RC_PARAMS="max_success=100*SCALE" (RapidCheck's default is 100). Prints
# each property's configuration line (its seed), result and time.
#   proptests/long_run.sh [SCALE]
set -uo pipefail
cd "$(dirname "$0")/.."
scale=${1:-10}
status=0
show() {
  for t in "$@"; do
    log="bazel-testlogs/${t#//}"
    log="${log/://}/test.log"
    echo "== $t"
    grep -E 'Using configuration|SQUASHLAB_PROP_SCALE|OK, passed|Falsifiable|Gave up|shrunk in|^\[ +(OK|FAILED) +\]' "$log"
  done
}
props=(//proptests:reader_roundtrip_prop_test //proptests:reader_corruption_prop_test
       //proptests:variants_prop_test)
others=(//model/kernel/tests:page_lifecycle_proptest //model/kernel/tests:buffer_lifecycle_proptest
        //hw_emul:device_property_test)
bazel test --test_timeout=7200 --nocache_test_results --test_env=SQUASHLAB_PROP_SCALE="$scale" \
  "${props[@]}" || status=1
show "${props[@]}"
bazel test --test_timeout=7200 --nocache_test_results \
  --test_env=RC_PARAMS="max_success=$((100 * scale))" "${others[@]}" || status=1
show "${others[@]}"
exit $status
