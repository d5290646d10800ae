#!/bin/bash
# Runs the C example (link_from_memory) on stored golden jobs: its image, made from
# inputs handed over in memory and returned in memory, must be nvlink's stored output
# byte for byte; a failing link must give nvlink's messages as records, its status,
# and no image.
#   run.sh LINK_FROM_MEMORY GOLDEN_DIR
set -u
exe=$1 golden=$2
fail=0
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for job in call_2tu/sm_90 call_3tu/sm_75 err_undefined/sm_90; do
  dir=$golden/$job
  if [ ! -d "$dir" ]; then echo "FAIL: $dir missing"; fail=1; continue; fi
  rm -rf "$work/job"; mkdir "$work/job"
  cp "$dir"/*.cubin "$work/job/" 2>/dev/null; rm -f "$work/job/expected.cubin"
  mapfile -t args < "$dir/cmd"
  (cd "$work/job" && "$exe" "${args[@]}" > messages.txt 2> stderr.txt); status=$?
  want=$(cat "$dir/expected.status")
  if [ "$status" != "$want" ]; then echo "FAIL $job: status $status, nvlink $want"; fail=1; continue; fi
  if [ "$want" = 0 ]; then
    if cmp -s "$dir/expected.cubin" "$work/job/expected.cubin"; then echo "ok   $job: image identical"
    else echo "FAIL $job: image differs"; fail=1; fi
  else
    # nvlink's stderr lines "nvlink error   : MSG" become records "error: MSG".
    sed -E 's/^nvlink (info|warning|error|fatal) *: /\1: /' "$dir/expected.stderr" > "$work/want.txt"
    if [ -e "$work/job/expected.cubin" ]; then echo "FAIL $job: an image after a failed link"; fail=1
    elif cmp -s "$work/want.txt" "$work/job/messages.txt"; then echo "ok   $job: status $status, records as nvlink's messages"
    else echo "FAIL $job: records differ"; diff "$work/want.txt" "$work/job/messages.txt"; fail=1; fi
    if [ -s "$work/job/stderr.txt" ]; then echo "FAIL $job: messages printed although only recorded"; fail=1; fi
  fi
done
exit $fail
