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

# The first line: the second names the executable by its checksum, which the install changes
# (it rewrites the program's run path).
version=$("$dambit" --version | head -1)
cmake --install "$build" --prefix "$dir/usr" >"$dir/install.log" 2>&1 || bad "cmake --install: $(tail -3 "$dir/install.log")"
if [ -x "$dir/usr/bin/dambit" ] && [ -f "$dir/usr/share/doc/dambit/README.md" ] &&
   [ -f "$dir/usr/share/doc/dambit/docs/commands.md" ]; then ok; else
  bad "install: want bin/dambit, share/doc/dambit/README.md and docs/ under the prefix"; find "$dir/usr" | head; fi
# Run from another directory, with nothing of the environment: the same program (Russian perft
# 6 from the start is 37986: ../shared/perft-reference.md, the Russian table).
if [ "$(cd / && env -i "$dir/usr/bin/dambit" --version | head -1)" = "$version" ] &&
   [ "$(cd / && env -i "$dir/usr/bin/dambit" perft --depth 6 | awk '$1 == 6 {print $2}')" = 37986 ]; then
  ok; else bad "the installed program does not run as the built one"; fi
DESTDIR="$dir/stage" cmake --install "$build" --prefix /usr >/dev/null 2>&1
if [ -x "$dir/stage/usr/bin/dambit" ]; then ok; else bad "install with DESTDIR"; fi

if [ "$sanitized" = ON ] || ! command -v qemu-x86_64 >/dev/null; then
  echo "note: the processor check under qemu-x86_64 is not run (sanitizer build, or no qemu-user)"
else
  # The extensions the build may use, as the compiler's predefined macros say (the names as the
  # processor manuals give them). QEMU's qemu64 model has SSE3 beyond the x86-64 baseline and
  # none of the others; its TCG emulates no AVX-512 at all.
  flags=()
  [ -n "$march" ] && flags=("-march=$march")
  macros=$("$cxx" "${flags[@]}" -dM -E -x c++ /dev/null)
  want=()
  for pair in __SSSE3__:SSSE3 __FMA__:FMA __SSE4_1__:SSE4.1 __SSE4_2__:SSE4.2 __MOVBE__:MOVBE \
              __POPCNT__:POPCNT __AVX__:AVX __F16C__:F16C __BMI__:BMI __AVX2__:AVX2 __BMI2__:BMI2 \
              __LZCNT__:LZCNT __GFNI__:GFNI __VAES__:VAES __VPCLMULQDQ__:VPCLMULQDQ \
              __AVXVNNI__:AVX-VNNI __AVX512F__:AVX-512F __AVX512DQ__:AVX-512DQ \
              __AVX512IFMA__:AVX-512IFMA __AVX512CD__:AVX-512CD __AVX512BW__:AVX-512BW \
              __AVX512VL__:AVX-512VL __AVX512VBMI__:AVX-512VBMI __AVX512VBMI2__:AVX-512VBMI2 \
              __AVX512VNNI__:AVX-512VNNI __AVX512BITALG__:AVX-512BITALG \
              __AVX512VPOPCNTDQ__:AVX-512VPOPCNTDQ __AVX512VP2INTERSECT__:AVX-512VP2INTERSECT \
              __AVX512FP16__:AVX-512FP16 __AVX512BF16__:AVX-512BF16; do
    grep -q "#define ${pair%%:*} 1" <<<"$macros" && want+=("${pair#*:}")
  done
  out=$(qemu-x86_64 -cpu qemu64 "$dambit" --version 2>&1)
  status=$?
  if [ ${#want[@]} -eq 0 ]; then
    # A build for the compiler's default runs there.
    if [ $status -eq 0 ] && [ "$(head -1 <<<"$out")" = "$version" ]; then ok; else bad "qemu64, default build: status $status, $out"; fi
  else
    named=$(sed -nE 's/^dambit: this program was built for processors with (.*), which this one lacks \(-march=.*\); build it on this machine \(scripts\/build\), or for any x86-64 with cmake -DDAMBIT_MARCH= \(docs\/architecture.md\)$/\1/p' <<<"$out")
    if [ $status -eq 1 ] && [ -n "$named" ] &&
       [ "$(tr -d ' ' <<<"$named" | tr ',' '\n' | sort)" = "$(printf '%s\n' "${want[@]}" | sort)" ]; then
      ok
    else
      bad "qemu64: status $status (want 1), '$out' (want the missing ${want[*]} named)"
    fi
  fi
fi

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
