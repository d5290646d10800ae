#!/bin/bash
# The explanation tools: dlink-dump --res-usage on a linked cubin, a host
# object and an archive (stored outputs in testdata/explain/*.res-usage),
# tools/resource-report-diff on a report and a grown copy, and the stored
# resource reports against docs/resource-report.schema.json (skipped, with
# the reason, when python3's jsonschema module is missing).
#   tools.sh DLINK_DUMP REPO_ROOT   (DLINK_UPDATE_EXPLAIN=1 rewrites the stored outputs)
set -u
dump=$1 root=$2
job=$root/testdata/golden/dlink_devlib/sm_90
stored=$root/testdata/explain
fail=0
check() { # name, expected file, actual text
  if [ -n "${DLINK_UPDATE_EXPLAIN:-}" ]; then printf '%s\n' "$3" > "$2"; return; fi
  if ! diff -u "$2" <(printf '%s\n' "$3"); then echo "FAIL: $1"; fail=1; fi
}
cd "$job" || exit 1
for f in expected.cubin main.o libdev.a; do
  out=$("$dump" --res-usage "$f") || { echo "FAIL: dlink-dump --res-usage $f exited $?"; fail=1; }
  check "res-usage $f" "$stored/dlink_devlib.sm_90.$f.res-usage" "$out"
done
# The full dump of an archive reaches every member's cubin.
n=$("$dump" libdev.a | grep -c '^ELF header:')
[ "$n" = 3 ] || { echo "FAIL: dlink-dump libdev.a dumped $n cubins, not 3"; fail=1; }

tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
python3 - "$stored/cub_reduce.sm_90.json" "$tmp/new.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
k = r["arches"][0]["kernels"][1]
k["registers"] += 8
k["max_stack_bytes"] = 32
k["max_stack_path"] = [{"function": k["name"], "frame_bytes": 16}, {"function": "f", "frame_bytes": 16}]
del r["arches"][0]["kernels"][0]
json.dump(r, open(sys.argv[2], "w"))
PY
diffout=$("$root/tools/resource-report-diff" "$stored/cub_reduce.sm_90.json" "$tmp/new.json" --fail-on-growth)
rc=$?
[ $rc = 1 ] || { echo "FAIL: resource-report-diff --fail-on-growth exited $rc, not 1"; fail=1; }
check "resource-report-diff" "$stored/cub_reduce.sm_90.report-diff" "$diffout"
same=$("$root/tools/resource-report-diff" "$stored/cub_reduce.sm_90.json" "$stored/cub_reduce.sm_90.json" --fail-on-growth)
[ $? = 0 ] && [ "$same" = "no change" ] || { echo "FAIL: resource-report-diff of a report with itself: $same"; fail=1; }

if python3 -c 'import jsonschema' 2>/dev/null; then
  python3 - "$root/docs/resource-report.schema.json" "$stored"/*.json <<'PY' || fail=1
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
for f in sys.argv[2:]:
    try:
        jsonschema.validate(json.load(open(f)), schema)
    except jsonschema.ValidationError as e:
        print(f"FAIL: {f}: {e.message}")
        sys.exit(1)
PY
else
  echo "schema check skipped: python3 has no jsonschema module"
fi
exit $fail
