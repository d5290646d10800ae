#!/bin/bash
# Determinism across thread counts: each stored golden job is linked with
# --threads 1, 2 and 8 (the last twice), and every run must reproduce the stored nvlink
# result exactly (output bytes, stdout, stderr, exit status, reg.c; run_golden.sh), so
# that the runs are also identical to each other.
#
#   run_determinism.sh --dlink BIN/dlink --golden-root testdata/golden <case>/<arch> ...
#
# Exit codes: 0 pass, 1 a run differs, 77 every job skipped (a toolkit file missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
dlink="" root=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dlink) dlink="$2"; shift 2 ;;
    --golden-root) root="$2"; shift 2 ;;
    --) shift; break ;;
    -*) echo "run_determinism.sh: unknown argument '$1'" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ -n "$dlink" ] && [ -n "$root" ] && [ $# -gt 0 ] || { echo "usage: $0 --dlink BIN --golden-root DIR JOB..."; exit 2; }
fail=0 ran=0
for job in "$@"; do
  for threads in 1 2 8 8; do
    out=$(DLINK_GOLDEN_EXTRA_ARGS="-j $threads" bash "$here/run_golden.sh" --dlink "$dlink" --golden "$root/$job" 2>&1)
    rc=$?
    case $rc in
      0) ran=1; echo "PASS  $job -j $threads" ;;
      77) echo "SKIP  $job: $(echo "$out" | grep -m1 SKIPPED)"; break ;;
      *) fail=1; echo "FAIL  $job -j $threads"; echo "$out" | sed 's/^/    /' | head -n 80 ;;
    esac
  done
done
[ "$fail" = 1 ] && exit 1
[ "$ran" = 1 ] || exit 77
exit 0
