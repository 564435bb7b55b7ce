#!/usr/bin/env bash
# Where the instructions of a run go, by function: runs a program with the instruction
# counter's profile (nvx-run --count-insns, NVX_COUNT_PROFILE=1) and names the firmware and
# kernel functions that executed most, from the symbols of the board's images.
#   benchmarks/icount-profile.sh BOARD TOP nvx-run-arguments...
#   e.g. benchmarks/icount-profile.sh small 25 -np 1 build/user/calls_bench.elf 20000
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ $# -ge 3 ] || { echo "usage: icount-profile.sh BOARD TOP nvx-run-arguments..." >&2; exit 2; }
board=$1 top=$2
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/icount-profile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
NVX_COUNT_PROFILE=1 scripts/nvx-run --board "$board" --count-insns "$tmp/count" "$@" >"$tmp/log" 2>&1 ||
    { cat "$tmp/log" >&2; exit 1; }
# Function symbols of firmware and kernel, sorted by address: "ADDR NAME".
{ riscv64-unknown-elf-nm -C --defined-only "build/$board/nvx.elf"; riscv64-unknown-elf-nm -C --defined-only "build/$board/kernel/kernel.elf"; } |
    awk '$2 ~ /^[tTwW]$/ { $2 = ""; sub(/^0+/, "", $1); print }' >"$tmp/syms"
# Firmware (0x80000000...) and kernel (0xffffffffc0000000...) differ in their low 32 bits,
# which awk's doubles hold exactly; user code lies below 0x80000000.
awk 'function low32(s,   i, v) { s = substr(s, length(s) > 8 ? length(s) - 7 : 1); v = 0
                                 for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
                                 return v }
     FNR == NR { n++; av[n] = low32($1); name[n] = substr($0, index($0, " ") + 2); next }
     $2 == "profile" { p[++m] = $3; c[m] = $4; total += $4 }
     END {
         for (i = 2; i <= n; i++) for (j = i; j > 1 && av[j - 1] > av[j]; j--) { t = av[j]; av[j] = av[j - 1]; av[j - 1] = t; t = name[j]; name[j] = name[j - 1]; name[j - 1] = t }
         for (k = 1; k <= m; k++) {
             v = low32(p[k]); lo = 1; hi = n; f = 0
             while (lo <= hi) { mid = int((lo + hi) / 2); if (av[mid] <= v) { f = mid; lo = mid + 1 } else hi = mid - 1 }
             fn = (length(p[k]) >= 8 && v >= 2147483648 && f) ? name[f] : "(user)"
             by[fn] += c[k]
         }
         for (fn in by) printf "%12d %6.2f%%  %s\n", by[fn], 100 * by[fn] / total, fn
     }' "$tmp/syms" "$tmp/count" | sort -rn | head -n "$top"
