#!/usr/bin/env bash
# Test-only stand-in for scripts/nvx-run (tests/launcher/weak_scaling_test.sh points the
# driver at it with --runner): takes nvx-run's arguments and prints what a CAP Bench, A2A or
# LBM program would, with times that grow with the clusters and differ per build (LBM: per
# pipeline depth).
#   FAKE_FAIL="km_unopt:8:3 gf_ipc:4:124"  app_build:ranks:status points that fail
#   FAKE_CALLS=FILE                        one line appended per call
#   FAKE_CLUSTERS=N                        compute clusters scatter spreads over (default 4)
#   FAKE_HANG=app_build:ranks FAKE_FIFO=F  that point starts a long child (as QEMU), writes
#                                          the child's pid to the FIFO and waits for it
set -euo pipefail
ranks=1 map=scatter ppc=0 klass=test
while [ $# -gt 0 ]; do
    case "$1" in
    --board|--kernel-opts|--timeout) shift 2 ;;
    -np) ranks=$2; shift 2 ;;
    --map-by) map=$2; shift 2 ;;
    --ppc) ppc=$2; shift 2 ;;
    -*) echo "fake-nvx-run: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
name=$(basename "$1" .elf); shift
[ "$1" = --class ] && klass=$2
depth=1
while [ $# -gt 0 ]; do [ "$1" = --depth ] && depth=$2; shift; done
app=${name%_*} build=${name#*_}
[ -n "${FAKE_CALLS:-}" ] && echo "$name $ranks $map" >>"$FAKE_CALLS"
if [ "$map" = compact ]; then clusters=$(( (ranks + ppc - 1) / ppc )); else
    clusters=$(( ranks < ${FAKE_CLUSTERS:-4} ? ranks : ${FAKE_CLUSTERS:-4} )); fi
if [ "${FAKE_HANG:-}" = "$name:$ranks" ]; then
    sleep 600 &
    echo $! >"$FAKE_FIFO"
    wait
fi
status=0
for f in ${FAKE_FAIL:-}; do [ "$f" = "$name:$ranks:124" ] && { echo "qemu hangs" >&2; exit 124; }
                            [ "${f%:*}" = "$name:$ranks" ] && status=${f##*:}; done
verified=yes; [ "$status" = 0 ] || verified=no
case $build in ipc) factor=3 ;; unopt) factor=2 ;; *) factor=1 ;; esac
[ "$app" = lbm ] && factor=$(( depth > 1 ? 1 : 2 ))
cycles=$(( (1000000 + 100000 * clusters) * factor ))
case $app in
fn) echo "fn: numbers 1000001..$((1000000 + 1536 * clusters)), sigma sum $((7 * clusters + status)), friendly pairs 0" ;;
gf) echo "gf: images $((2 * clusters)), output hash 0x00000000000000$((10 + clusters + status))" ;;
km) echo "km: points $((13440 * clusters)), centroids 128, iterations 2, centroid hash 0x0000000000000$((100 + clusters + status))" ;;
a2a) spread=3; [ "$map" = compact ] && spread=1
     for s in 128 256 512 1024 2048 4096 8192 16384 32768; do
         c=$(( (s + 1000) * spread * factor ))
         echo "a2a: size $s, iterations 4, cycles $c, seconds $(printf '0.%07d' "$c"), verified yes"; done ;;
lbm) echo "lbm: cavity 16^3, steps 2, lattice hash 00000000000000$((10 + status))"
     bytes=$(( 210 * 16 * 16 * 16 * 2 )) ;;   # 210 bytes a lattice update
esac
echo "capbench: app=$app build=$build ranks=$ranks clusters=$clusters class=$klass cycles=$cycles" \
     "seconds=$(printf '0.%07d' "$cycles") comm_cycles=$((cycles / 10)) bytes=${bytes:-$((1000 * ranks))} messages=$ranks verified=$verified"
exit "$status"
