#!/usr/bin/env bash
# vramcalc: coverage-guided fuzzing of the engine's entry points (docs/fuzzing.md).
# Builds build/fuzz with clang (libFuzzer + AddressSanitizer + UndefinedBehaviorSanitizer) and runs
# each harness tests/fuzz/<name>_fuzz.cpp for SECONDS (default 60) over a copy of its corpus
# (tests/fuzz/corpus/<name>/; new inputs libFuzzer finds stay in build/fuzz/corpus/<name>/).
# Prints per harness the executions, exec/s and any crash (the input is kept in build/fuzz/crashes/).
# Usage: scripts/fuzz.sh [SECONDS] [HARNESS...]
#   VRAMCALC_FUZZ_ARGS  extra libFuzzer arguments, e.g. "-runs=1000000" (with SECONDS 0: no time limit)
#   VRAMCALC_JOBS       build parallelism (default 2)
#   ASAN_OPTIONS        default quarantine_size_mb=16:malloc_context_size=0 (AddressSanitizer's 256 MB
#                       quarantine of freed memory made the runs about 30% slower and 5x larger for
#                       inputs this small; a stack kept per allocation cost about 25% more)
# Exit status 1 when any harness crashed or broke a property.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
shift || true
jobs=${VRAMCALC_JOBS:-2}
cd "$root"

# clang and its runtime (libFuzzer, sanitizers) from Debian, like scripts/setup.sh installs the rest.
need=()
command -v clang++ >/dev/null || need+=(clang)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
if [ ${#need[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "fuzz: installing ${need[*]} (apt)"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
    for f in tests/fuzz/*_fuzz.cpp; do
        n=$(basename "$f" _fuzz.cpp)
        harnesses+=("$n")
    done
fi
targets=()
for n in "${harnesses[@]}"; do targets+=("fuzz_$n"); done

CC=clang CXX=clang++ cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVRAMCALC_FUZZ=ON \
    -DVRAMCALC_NATIVE_SHELL=OFF >/dev/null
cmake --build build/fuzz -j"$jobs" --target "${targets[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16:malloc_context_size=0}
time_args=()
[ "$seconds" != 0 ] && time_args=(-max_total_time="$seconds")
status=0
summary=()
mkdir -p build/fuzz/crashes
for n in "${harnesses[@]}"; do
    work=build/fuzz/corpus/$n
    mkdir -p "$work"
    cp -n tests/fuzz/corpus/"$n"/* "$work"/ 2>/dev/null || true
    log=build/fuzz/$n.log
    echo "fuzz: $n for ${seconds}s ${VRAMCALC_FUZZ_ARGS:-} (log $log)"
    rc=0
    # shellcheck disable=SC2086
    build/fuzz/tests/fuzz/fuzz_"$n" "${time_args[@]}" -print_final_stats=1 -artifact_prefix=build/fuzz/crashes/"$n"- \
        ${VRAMCALC_FUZZ_ARGS:-} "$work" > "$log" 2>&1 || rc=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    if [ -z "$runs" ]; then  # a crash stops libFuzzer before the final stats: its last status line
        runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
    fi
    if [ "$rc" -eq 0 ]; then
        finding="none"
    else
        status=1
        finding=$(grep -m1 -E 'ERROR: |runtime error|fuzz property failed|deadly signal' "$log" || echo "exit $rc")
        finding="$finding; input: $(grep -o 'build/fuzz/crashes/[^ ]*' "$log" | tail -1)"
    fi
    summary+=("$(printf '%-8s executions %-10s exec/s %-7s findings: %s' "$n" "${runs:-?}" "${rate:-?}" "$finding")")
done
printf '%s\n' "${summary[@]}"
exit $status
