#!/bin/bash
# The dlink command chooses mimalloc's large OS pages before anything
# allocates (src/main.cpp): on for a link whose input files bring 1 MiB or
# more, off below, and MIMALLOC_LARGE_OS_PAGES overrides the choice.
# mimalloc prints its options at start-up under MIMALLOC_VERBOSE=1.
# Usage: large_pages.sh DLINK
set -u
dlink=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
head -c $((1 << 20)) /dev/zero > "$dir/big"
head -c $(((1 << 20) - 1)) /dev/zero > "$dir/small"
head -c 4096 /dev/zero > "$dir/out"

option() { # the large_os_pages value mimalloc reports for a run of dlink with these arguments
  env "$@" 2>&1 | sed -n "s/^mimalloc: option 'large_os_pages': //p"
}
check() { # expected, description, command...
  local want=$1 what=$2
  shift 2
  local got
  got=$(option "$@")
  if [ "$got" != "$want" ]; then
    echo "FAIL: $what: large_os_pages '$got', expected '$want'"
    exit 1
  fi
  echo "ok: $what: $got"
}

if [ -z "$(option MIMALLOC_VERBOSE=1 "$dlink" --version)" ]; then
  echo "skipped: this dlink is not built with mimalloc (DLINK_MIMALLOC=OFF)"
  exit 77
fi
check 0 "no input" MIMALLOC_VERBOSE=1 "$dlink" --version
check 0 "input of 1 MiB - 1" MIMALLOC_VERBOSE=1 "$dlink" -arch=sm_90 "$dir/small" -o "$dir/x"
check 1 "input of 1 MiB" MIMALLOC_VERBOSE=1 "$dlink" -arch=sm_90 "$dir/big" -o "$dir/x"
check 1 "two inputs together over 1 MiB" MIMALLOC_VERBOSE=1 "$dlink" -arch=sm_90 "$dir/small" "$dir/out" -o "$dir/x"
check 0 "the output file does not count" MIMALLOC_VERBOSE=1 "$dlink" -arch=sm_90 "$dir/small" -o "$dir/big"
check 0 "a directory does not count" MIMALLOC_VERBOSE=1 "$dlink" -arch=sm_90 "$dir/small" "$dir"
check 0 "MIMALLOC_LARGE_OS_PAGES=0 wins" MIMALLOC_VERBOSE=1 MIMALLOC_LARGE_OS_PAGES=0 "$dlink" -arch=sm_90 "$dir/big" -o "$dir/x"
check 1 "MIMALLOC_LARGE_OS_PAGES=1 wins" MIMALLOC_VERBOSE=1 MIMALLOC_LARGE_OS_PAGES=1 "$dlink" -arch=sm_90 "$dir/small" -o "$dir/x"
