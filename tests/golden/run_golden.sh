#!/bin/bash
# Golden test: run dlink exactly as nvlink was run and demand identical behaviour.
#
# Stored mode (default):
#   run_golden.sh --dlink BIN/dlink --golden testdata/golden/<case>/<arch>
# Live mode (recompile with nvcc, compare with a fresh nvlink run):
#   run_golden.sh --live --dlink BIN/dlink --make-golden tools/make-golden \
#                 --src testdata/src --case <case> --arch <arch> [--golden <stored dir>]
#
# dlink is invoked through a symlink named `nvlink` (nvlink records basename(argv[0])
# in its output) with the argument list from the golden directory's `cmd` file, inside
# a scratch directory holding copies of the inputs (every file of the golden directory
# except cmd, compile, sources.sha256, requires, nvcc-dlink and expected.*). The test
# passes when the exit status, stdout, stderr and the output file (bytes, or its
# absence) all match, and, for jobs whose cmd has --register-link-binaries=reg.c, the
# registration file too (expected.reg.c; "@CWD@" in it stands for the mangled scratch
# directory). A `requires` file lists toolkit files ("<path> <sha256>") the expected
# output depends on (libcudadevrt.a): the test is SKIPPED, saying why, when one is
# missing or differs.
#
# Exit codes: 0 pass, 1 mismatch/failure, 77 skipped (ctest SKIP_RETURN_CODE).
# Environment:
#   DLINK_LIVE=1          enable live mode tests (otherwise they report SKIPPED)
#   CUDA_HOME             toolkit for live mode (default /usr/local/cuda)
#   DLINK_GOLDEN_KEEP=1   keep the scratch directory and print its path
#   DLINK_GOLDEN_TIMEOUT  seconds dlink may run (default 60)
#   DLINK_GOLDEN_EXTRA_ARGS  options added after the stored ones (dlink-only: -j N)

set -u
SKIP=77
self_cmd="bash $(printf '%q' "$0")$(printf ' %q' "$@")"

dlink="" golden="" live=0 make_golden="" src="" case_name="" arch=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dlink) dlink="$2"; shift 2 ;;
    --golden) golden="$2"; shift 2 ;;
    --live) live=1; shift ;;
    --make-golden) make_golden="$2"; shift 2 ;;
    --src) src="$2"; shift 2 ;;
    --case) case_name="$2"; shift 2 ;;
    --arch) arch="$2"; shift 2 ;;
    *) echo "run_golden.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

die() { echo "ERROR: $*"; exit 1; }
skip() { echo "SKIPPED: $*"; exit $SKIP; }

[ -n "$dlink" ] || die "--dlink is required"
[ -x "$dlink" ] || die "dlink binary '$dlink' does not exist; build it first (cmake --build build)"
dlink=$(cd "$(dirname "$dlink")" && pwd)/$(basename "$dlink")
bindir=$(dirname "$dlink")
dlink_diff="$bindir/dlink-diff"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/dlink-golden.XXXXXX") || die "mktemp failed"
cleanup() {
  if [ "${DLINK_GOLDEN_KEEP:-0}" = 1 ]; then
    echo "(scratch directory kept: $scratch)"
  else
    rm -rf "$scratch"
  fi
}
trap cleanup EXIT

# Print at most $2 lines of file $1, then a note with how many were cut.
show() {
  local file=$1 max=$2 n
  n=$(wc -l <"$file")
  head -n "$max" "$file"
  [ "$n" -gt "$max" ] && echo "... ($((n - max)) more lines)"
  return 0
}

# Run dlink on the job stored in directory $1 and compare. Prints a report; returns 0/1.
compare_job() {
  local gdir=$1 run="$scratch/run" status expected_status fail=0 f
  [ -f "$gdir/cmd" ] || { echo "ERROR: $gdir/cmd missing (regenerate with tools/make-golden)"; return 1; }
  if [ -f "$gdir/requires" ]; then
    local req_path req_sum
    while read -r req_path req_sum; do
      [ -n "$req_path" ] || continue
      [ -f "$req_path" ] || { echo "SKIPPED: this golden needs $req_path (nvlink linked it), which is missing here"; return $SKIP; }
      if command -v sha256sum >/dev/null && [ "$(sha256sum "$req_path" | cut -d' ' -f1)" != "$req_sum" ]; then
        echo "SKIPPED: $req_path differs from the one this golden was made with (sha256 $req_sum)"
        return $SKIP
      fi
    done <"$gdir/requires"
  fi
  rm -rf "$run" && mkdir -p "$run"
  for f in "$gdir"/*; do
    case "$(basename "$f")" in
      cmd | compile | sources.sha256 | requires | nvcc-dlink | expected.*) ;;
      *) cp "$f" "$run/" ;;
    esac
  done
  ln -s "$dlink" "$run/nvlink"
  local -a args
  mapfile -t args <"$gdir/cmd"
  # DLINK_GOLDEN_EXTRA_ARGS: dlink-only options appended (run_determinism.sh: -j N).
  if [ -n "${DLINK_GOLDEN_EXTRA_ARGS:-}" ]; then
    local -a extra
    read -ra extra <<<"$DLINK_GOLDEN_EXTRA_ARGS"
    args+=("${extra[@]}")
  fi

  echo "golden:  $gdir"
  echo "command: (cd <scratch> && ./nvlink ${args[*]})   [./nvlink -> $dlink]"
  (cd "$run" && exec timeout "${DLINK_GOLDEN_TIMEOUT:-60}" ./nvlink "${args[@]}") \
    >"$scratch/actual.stdout" 2>"$scratch/actual.stderr"
  status=$?
  expected_status=$(tr -d '[:space:]' <"$gdir/expected.status")

  if [ "$status" != "$expected_status" ]; then
    fail=1
    local why=""
    [ "$status" = 124 ] && why=" (timed out after ${DLINK_GOLDEN_TIMEOUT:-60}s)"
    [ "$status" -gt 128 ] && [ "$status" != 255 ] && why=" (killed by signal $((status - 128)))"
    echo "MISMATCH exit status: expected $expected_status, got $status$why"
  fi
  for f in stdout stderr; do
    if ! cmp -s "$gdir/expected.$f" "$scratch/actual.$f"; then
      fail=1
      echo "MISMATCH $f (--- nvlink, +++ dlink):"
      diff -u --label "nvlink $f" --label "dlink $f" "$gdir/expected.$f" "$scratch/actual.$f" >"$scratch/diff.$f"
      show "$scratch/diff.$f" 60
    fi
  done

  local exp="$gdir/expected.cubin" act="$run/expected.cubin"
  if [ -f "$exp" ] && [ ! -f "$act" ]; then
    fail=1
    echo "MISMATCH output: nvlink wrote expected.cubin ($(stat -c %s "$exp") bytes), dlink wrote nothing"
  elif [ ! -f "$exp" ] && [ -f "$act" ]; then
    fail=1
    echo "MISMATCH output: nvlink wrote no output file, dlink wrote expected.cubin ($(stat -c %s "$act") bytes)"
  elif [ -f "$exp" ] && ! cmp -s "$exp" "$act"; then
    fail=1
    echo "MISMATCH output bytes: nvlink $(stat -c %s "$exp") bytes, dlink $(stat -c %s "$act") bytes"
    local shown=0
    if [ -x "$dlink_diff" ]; then
      echo "--- dlink-diff expected actual:"
      "$dlink_diff" "$exp" "$act" >"$scratch/dlink-diff.out" 2>&1
      local drc=$?
      show "$scratch/dlink-diff.out" 200
      # Exit status 0/1 means it ran (same/different); anything else: fall back to cmp.
      [ "$drc" -le 1 ] && shown=1 || echo "(dlink-diff exited with $drc)"
    fi
    if [ "$shown" = 0 ]; then
      echo "--- first differing bytes (cmp -l: offset(1-based, decimal) nvlink dlink, octal):"
      cmp -l "$exp" "$act" 2>&1 | head -n 20
      echo "($(cmp -l "$exp" "$act" 2>/dev/null | wc -l) differing bytes in the common prefix)"
    fi
  fi

  # --register-link-binaries (nvcc-dlink jobs): same presence, same bytes.
  if grep -qx -- '--register-link-binaries=reg.c' "$gdir/cmd"; then
    local exp_reg="$gdir/expected.reg.c" act_reg="$run/reg.c"
    if [ -f "$exp_reg" ] && [ ! -f "$act_reg" ]; then
      fail=1
      echo "MISMATCH registration file: nvlink wrote reg.c, dlink wrote nothing"
    elif [ ! -f "$exp_reg" ] && [ -f "$act_reg" ]; then
      fail=1
      echo "MISMATCH registration file: nvlink wrote no reg.c, dlink wrote one"
    elif [ -f "$exp_reg" ]; then
      local cwd_id
      cwd_id=$(cd "$run" && pwd -P | sed 's/[^A-Za-z0-9]/_/g')
      sed "s/@CWD@/$cwd_id/g" "$exp_reg" >"$scratch/expected.reg.c"
      if ! cmp -s "$scratch/expected.reg.c" "$act_reg"; then
        fail=1
        echo "MISMATCH registration file (--- nvlink, +++ dlink):"
        diff -u --label "nvlink reg.c" --label "dlink reg.c" "$scratch/expected.reg.c" "$act_reg" | head -n 40
      fi
    fi
  fi

  if [ "$fail" = 0 ]; then
    echo "PASS"
    return 0
  fi
  echo "FAILED. To reproduce by hand, keep the scratch directory and cd into its run/ subdirectory:"
  echo "  DLINK_GOLDEN_KEEP=1 $self_cmd"
  return 1
}

if [ "$live" = 0 ]; then
  [ -n "$golden" ] || die "--golden is required"
  [ -d "$golden" ] || die "golden directory '$golden' does not exist"
  compare_job "$golden"
  exit $?
fi

# ---- live mode ----
[ "${DLINK_LIVE:-0}" = 1 ] || skip "live golden tests run only with DLINK_LIVE=1 (they recompile with nvcc)"
cuda=${CUDA_HOME:-/usr/local/cuda}
for tool in nvcc nvlink; do
  [ -x "$cuda/bin/$tool" ] || skip "$cuda/bin/$tool not found; live mode needs the CUDA toolkit (set CUDA_HOME)"
done
command -v python3 >/dev/null || skip "python3 not found (needed by tools/make-golden)"
[ -n "$make_golden" ] && [ -n "$src" ] && [ -n "$case_name" ] && [ -n "$arch" ] ||
  die "live mode needs --make-golden, --src, --case and --arch"

fresh="$scratch/fresh"
echo "live: compiling $case_name for $arch with $cuda/bin/nvcc and linking with nvlink"
CUDA_HOME="$cuda" python3 "$make_golden" --cuda "$cuda" --src "$src" --case "$case_name" --arch "$arch" \
  --dest "$fresh"
mg_status=$?
# 77: the recipe's "arches:" line excludes this arch (e.g. clusters need sm_90), or the
# job is an -dlto link and the toolkit has no libnvvm.so for nvlink (make-golden said which).
[ "$mg_status" = $SKIP ] && skip "case $case_name is not built for $arch (case.txt 'arches:'), or it needs libNVVM, which this toolkit lacks (see above)"
[ "$mg_status" = 0 ] || die "tools/make-golden failed for $case_name/$arch (see above)"

# Informational: does the fresh toolchain reproduce the stored golden?
if [ -n "$golden" ] && [ -d "$golden" ]; then
  stale=""
  for f in "$fresh"/*; do
    b=$(basename "$f")
    [ "$b" = compile ] && continue
    cmp -s "$f" "$golden/$b" || stale="$stale $b"
  done
  if [ -n "$stale" ]; then
    echo "NOTE: the stored golden $golden differs from this toolchain's output in:$stale"
    echo "      (different CUDA version? regenerate with tools/make-golden)"
  else
    echo "note: stored golden is identical to the fresh nvcc/nvlink output"
  fi
fi
compare_job "$fresh"
