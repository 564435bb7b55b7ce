#!/usr/bin/env bash
# Where the instructions of a run go, by function: runs a program with the instruction
# counter's profile (nvx-run --count-insns) and names the firmware, kernel and user
# functions that executed most, from the symbols of the board's images and the program.
# Functions of the clock's own code (README, "The virtual clock"), and whatever ran inside
# a clock call (a kernel call the program's clock code makes), are tagged [model]: no
# benchmark figure counts them.
#   benchmarks/icount-profile.sh [--window M] [--per N] BOARD TOP nvx-run-arguments...
#   e.g. benchmarks/icount-profile.sh small 25 -np 1 build/user/calls_bench.elf 20000
# --window M counts only between the program's M-th instruction-counter mark and the next
# (one measured window of benchmarks/icount.sh); --per N divides every count by N (the
# operations in that window), so the rows read as instructions per operation.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
usage() { echo "usage: icount-profile.sh [--window M] [--per N] BOARD TOP nvx-run-arguments..." >&2; exit 2; }
window="" per=1
while [ $# -gt 0 ]; do
    case "$1" in
    --window) [ $# -ge 2 ] && [[ $2 =~ ^[0-9]+$ ]] || usage; window=$2; shift 2 ;;
    --per) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage; per=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -ge 3 ] || usage
board=$1 top=$2
shift 2
program=""
for arg in "$@"; do
    case "$arg" in *.elf) program=$arg; break ;; esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/icount-profile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
profile=(NVX_COUNT_PROFILE=1)
[ -n "$window" ] && profile=(NVX_COUNT_PROFILE_WINDOW="$window")
env "${profile[@]}" scripts/nvx-run --board "$board" --count-insns "$tmp/count" "$@" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log" >&2; exit 1; }
# Function symbols, sorted by address: "ADDR NAME". Firmware (0x80000000...) and kernel
# (0xffffffffc0000000...) differ in their low 32 bits, which awk's doubles hold exactly;
# user code lies below 0x80000000.
images=("build/$board/nvx.elf" "build/$board/kernel/kernel.elf")
[ -n "$program" ] && images+=("$program")
for image in "${images[@]}"; do riscv64-unknown-elf-nm -C --defined-only "$image"; done |
    awk '$2 ~ /^[tTwW]$/ { $2 = ""; sub(/^0+/, "", $1); print }' >"$tmp/syms"
# The clock's windows: the board's (firmware, kernel) and every program's fixed one.
user_model=$(awk '/#define NVX_USER_MODEL_TEXT / { s = $3 } /#define NVX_USER_MODEL_TEXT_MAX / { m = $3 }
                  END { sub(/ull$/, "", s); sub(/ull$/, "", m); print s "+" m }' kernel/abi/nvx_abi.h)
awk -v per="$per" -v user_model="$user_model" '
     function low32(s,   i, v) { s = tolower(s); sub(/^0x/, "", s); s = substr(s, length(s) > 8 ? length(s) - 7 : 1); v = 0
                                 for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
                                 return v }
     FILENAME == ARGV[1] { split($0, w, "-"); mlo[++nm] = low32(w[1]); mhi[nm] = low32(w[2]); next }
     FILENAME == ARGV[2] { n++; av[n] = low32($1); name[n] = substr($0, index($0, " ") + 2); next }
     $2 == "profile" { p[++m] = $3; c[m] = $4; total += $4 }
     END {
         split(user_model, u, "+"); mlo[++nm] = low32(u[1]); mhi[nm] = mlo[nm] + low32(u[2])
         for (i = 2; i <= n; i++) for (j = i; j > 1 && av[j - 1] > av[j]; j--) { t = av[j]; av[j] = av[j - 1]; av[j - 1] = t; t = name[j]; name[j] = name[j - 1]; name[j - 1] = t }
         for (k = 1; k <= m; k++) {
             v = low32(p[k]); lo = 1; hi = n; f = 0
             while (lo <= hi) { mid = int((lo + hi) / 2); if (av[mid] <= v) { f = mid; lo = mid + 1 } else hi = mid - 1 }
             fn = f ? name[f] : "(unknown)"
             if (v % 2 == 1) fn = fn " [model]"  # run inside a clock call (nvxcount.cpp)
             else for (i = 1; i <= nm; i++) if (v >= mlo[i] && v < mhi[i]) { fn = fn " [model]"; break }
             by[fn] += c[k]
         }
         for (fn in by) printf "%12.0f %6.2f%%  %s\n", by[fn] / per, 100 * by[fn] / total, fn
     }' <(tr -s " \n" "\n\n" <"build/$board/model-text") "$tmp/syms" "$tmp/count" | sort -rn | head -n "$top"
