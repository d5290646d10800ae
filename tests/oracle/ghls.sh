#!/bin/bash
# -ghls (host linker script): dlink against the real nvlink on this machine, byte for
# byte (the lcs-abs script depends on the host's ld and compiler, so it is compared
# live, not stored). Cases: lcs-aug/lcs-abs to a file, to stdout redirected to a file
# and to a pipe, an unwritable output, a host linker that fails, another --host-ccbin.
# Exits 77 (skipped, with the reason) when nvlink, ld or gcc are missing.
set -uo pipefail
dlink=$1
nvlink=${CUDA_HOME:-/usr/local/cuda}/bin/nvlink
for t in "$nvlink" ld gcc; do
  command -v "$t" >/dev/null || { echo "SKIP: $t not found (needed to compare -ghls live)"; exit 77; }
done
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/d" "$work/n" "$work/fakeld"
ln -s "$(realpath "$dlink")" "$work/d/nvlink"
ln -s "$nvlink" "$work/n/nvlink"
printf '#!/bin/sh\necho bogus\n' > "$work/fakeld/ld"; chmod +x "$work/fakeld/ld"
fail=0 n=0
# run NAME PATH-PREFIX ARGS...: run both linkers in their own directory, compare
# exit status, stdout, stderr and the file out.ld.
run() {
  local name=$1 pre=$2; shift 2
  local who
  for who in d n; do
    (cd "$work/$who" && rm -f out.ld && PATH="$pre$PATH" ./nvlink "$@" >stdout 2>stderr; echo $? >status
     [ -f out.ld ] && mv out.ld file || rm -f file)
  done
  n=$((n + 1))
  local f
  for f in status stdout stderr file; do
    if ! cmp -s "$work/d/$f" "$work/n/$f" 2>/dev/null && [ -e "$work/d/$f" -o -e "$work/n/$f" ]; then
      echo "FAIL $name: $f differs"; diff <(cat "$work/n/$f" 2>/dev/null) <(cat "$work/d/$f" 2>/dev/null) | head -5
      fail=$((fail + 1)); return
    fi
  done
  echo "ok   $name"
}
run aug-file "" -ghls=lcs-aug -o out.ld
run aug-stdout "" -ghls=lcs-aug
run abs-file "" -ghls=lcs-abs -o out.ld
run abs-bare "" -ghls -o out.ld
run abs-stdout "" -ghls=lcs-abs
run abs-ccbin "" -ghls=lcs-abs --host-ccbin g++ -o out.ld
run abs-unwritable "" -ghls=lcs-abs -o /nonexistent-dir/out.ld
run abs-bad-ld "$work/fakeld:" -ghls=lcs-abs -o out.ld
# stdout as a pipe: the script and the appended rules arrive in order
for who in d n; do (cd "$work/$who" && ./nvlink -ghls=lcs-abs | cat > piped); done
n=$((n + 1))
if cmp -s "$work/d/piped" "$work/n/piped"; then echo "ok   abs-pipe"; else echo "FAIL abs-pipe"; fail=$((fail + 1)); fi
echo "$((n - fail)) passed, $fail failed"
[ $fail = 0 ]
