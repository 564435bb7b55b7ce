#!/usr/bin/env bash
# W^X (no QEMU): every program the build produces (runtime/user.ld, mpicc) has no loadable
# segment that is both writable and executable, so the kernel's exec check never refuses
# one of ours. build/user/wx_segment.elf is the one deliberate exception (test wx_segment).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/launcher/result.sh

has_wx_segment() {  # elf: a LOAD segment's flags (R, W, E in three columns) hold W and E
    riscv64-unknown-elf-readelf -lW "$1" | grep -Eq '^ *LOAD .* [R ]WE +0x[0-9a-f]+$'
}

checked=0
reason=""
while IFS= read -r elf; do
    [ "$elf" = build/user/wx_segment.elf ] && continue
    checked=$((checked + 1))
    has_wx_segment "$elf" && reason="$reason $elf has a writable and executable segment;"
done < <(find build/user -name '*.elf' | sort)
[ "$checked" -gt 0 ] || reason="no programs in build/user: run make first"
result wx-clean-programs "$reason"
# The deliberate exception really is W+X (else test wx_segment proves nothing).
if [ -f build/user/wx_segment.elf ]; then
    has_wx_segment build/user/wx_segment.elf && result wx-segment-is-rwx "" || result wx-segment-is-rwx "build/user/wx_segment.elf has no RWE segment"
fi
finish "wx ($checked programs)"
