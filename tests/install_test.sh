#!/usr/bin/env bash
# What a packager does with the build: `cmake --install` puts the program and its documents under
# a prefix (and under DESTDIR), and the installed program runs from anywhere (it needs no file of
# the source or build tree). And a program built for a processor's instructions (-march=native,
# DAMBIT_MARCH) started on a processor without them says which ones, exit status 1, instead of
# dying of SIGILL: checked under qemu-x86_64's `qemu64` model (SSE2 and SSE3, without SSSE3,
# SSE4.2, POPCNT, AVX or BMI), when qemu-user is installed and the build is not instrumented.
# Usage: install_test.sh path/to/dambit BUILD_DIR CXX MARCH SANITIZED
set -u
dambit=$1
build=$2
cxx=$3
march=$4
sanitized=$5
source "$(dirname "$0")/shell_helpers.sh"

version=$("$dambit" --version)
cmake --install "$build" --prefix "$dir/usr" >"$dir/install.log" 2>&1 || bad "cmake --install: $(tail -3 "$dir/install.log")"
if [ -x "$dir/usr/bin/dambit" ] && [ -f "$dir/usr/share/doc/dambit/README.md" ] &&
   [ -f "$dir/usr/share/doc/dambit/docs/commands.md" ]; then ok; else
  bad "install: want bin/dambit, share/doc/dambit/README.md and docs/ under the prefix"; find "$dir/usr" | head; fi
# Run from another directory, with nothing of the environment: the same program (Russian perft
# 6 from the start is 37986: ../shared/perft-reference.md, the Russian table).
if [ "$(cd / && env -i "$dir/usr/bin/dambit" --version)" = "$version" ] &&
   [ "$(cd / && env -i "$dir/usr/bin/dambit" perft --depth 6 | awk '$1 == 6 {print $2}')" = 37986 ]; then
  ok; else bad "the installed program does not run as the built one"; fi
DESTDIR="$dir/stage" cmake --install "$build" --prefix /usr >/dev/null 2>&1
if [ -x "$dir/stage/usr/bin/dambit" ]; then ok; else bad "install with DESTDIR"; fi

if [ "$sanitized" = ON ] || ! command -v qemu-x86_64 >/dev/null; then
  echo "note: the processor check under qemu-x86_64 is not run (sanitizer build, or no qemu-user)"
else
  # The instructions the build may use, as the compiler's predefined macros say; qemu64 has
  # none of these.
  flags=()
  [ -n "$march" ] && flags=("-march=$march")
  macros=$("$cxx" "${flags[@]}" -dM -E -x c++ /dev/null)
  want=""
  for pair in __POPCNT__:POPCNT __SSE4_2__:SSE4.2 __AVX__:AVX __AVX2__:AVX2 __BMI__:BMI \
              __BMI2__:BMI2 __AVX512F__:AVX-512F __AVX512VL__:AVX-512VL __AVX512BW__:AVX-512BW \
              __AVX512DQ__:AVX-512DQ; do
    grep -q "#define ${pair%%:*} 1" <<<"$macros" && want+="${want:+, }${pair#*:}"
  done
  out=$(qemu-x86_64 -cpu qemu64 "$dambit" --version 2>&1)
  status=$?
  if [ -z "$want" ]; then
    # A build for the compiler's default runs there.
    if [ $status -eq 0 ] && [ "$out" = "$version" ]; then ok; else bad "qemu64, default build: status $status, $out"; fi
  elif [ $status -eq 1 ] && [ "$out" = "dambit: this program was built for processors with $want, which this one lacks (-march=$march); build it on this machine (scripts/build), or for any x86-64 with cmake -DDAMBIT_MARCH=x86-64-v2 (docs/architecture.md)" ]; then
    ok
  else
    bad "qemu64: status $status (want 1), '$out' (want the missing $want named)"
  fi
fi

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
