#!/usr/bin/env bash
# The LBM benchmark's scaling on mppa256 in virtual time (benchmarks/lbm): MLUPS against
# compute clusters for pipeline depth 1 and 2 on one DDR and depth 2 on two, with the
# bandwidth bound from the board table. Writes benchmarks/results/lbm-mppa256-SIZE.{csv,md}
# and the figure lbm-mppa256-SIZE.png (gnuplot, when installed).
#   benchmarks/lbm-sweep.sh [SIZE [STEPS [BLOCK [THREADS]]]]   (defaults 32 4 8 8)
#   REPORT_ONLY=1 benchmarks/lbm-sweep.sh SIZE   the table and figure again from the CSV
# QEMU_LOCK=FILE runs each point under flock FILE (a host shared with other QEMU users).
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE=${1:-32} STEPS=${2:-4} BLOCK=${3:-8} THREADS=${4:-8}
CLUSTERS=${CLUSTERS:-"1 2 4 8 16"}
CONFIGS=${CONFIGS:-"1:1 2:1 4:1 2:2"}   # depth:ddrs
out=benchmarks/results/lbm-mppa256-$SIZE
run() {
    local cmd=(scripts/nvx-run --board mppa256 -np "$1" --timeout 900 build/user/lbm/lbm_ipc.elf
               --size "$SIZE" --steps "$STEPS" --block "$BLOCK" --depth "$2" --ddrs "$3" --threads "$THREADS")
    if [ -n "${QEMU_LOCK:-}" ]; then flock "$QEMU_LOCK" "${cmd[@]}"; else "${cmd[@]}"; fi
}
sweep() {
expected=$(build/tools/lbm-ref --size "$SIZE" --steps "$STEPS")
echo "clusters,depth,ddrs,size,steps,block,threads,cycles,mlups,bytes,wait_percent,verified" >"$out.csv"
for c in $CLUSTERS; do
    for cfg in $CONFIGS; do
        d=${cfg%:*} k=${cfg#*:}
        log=$(run "$c" "$d" "$k" 2>&1 | tr -d '\r') || { echo "run failed: $c clusters depth $d ddrs $k" >&2; echo "$log" | tail -5 >&2; exit 1; }
        line=$(grep -m1 '^lbm-run:' <<<"$log")
        verified=no
        grep -qxF -- "$expected" <<<"$log" && verified=yes
        field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$line"; }
        echo "$c,$d,$k,$SIZE,$STEPS,$BLOCK,$THREADS,$(field cycles),$(field mlups),$(field bytes),$(field wait),$verified" | tee -a "$out.csv"
    done
done
}
[ -n "${REPORT_ONLY:-}" ] || sweep
python3 - "$out.csv" "$out.md" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
# The DDR bounds: a DDR is its server's node link, 4 B/cycle each way at 400 MHz (board
# table kMppaNoc, kCoreHz). Its server moves one transfer at a time, so reads and writes
# share it (bytes_per_update / 4 cycles per update); the NoC model lets a write's data use
# the input link while the server still sends, so the reads alone are the other bound.
# Two DDRs split every lattice and serve twice that.
hz, link = 400e6, 4
configs = sorted({(int(r['depth']), int(r['ddrs'])) for r in rows}, key=lambda c: (c[1], c[0]))
clusters = sorted({int(r['clusters']) for r in rows})
by = {(int(r['clusters']), int(r['depth']), int(r['ddrs'])): r for r in rows}
r0 = rows[0]
updates = int(r0['size']) ** 3 * int(r0['steps'])
with open(sys.argv[2], 'w') as f:
    f.write(f"# LBM D3Q19 on mppa256, virtual time: cavity {r0['size']}^3, {r0['steps']} steps, "
            f"blocks {r0['block']}^3, {r0['threads']} threads per cluster\n\n")
    f.write("MLUPS (share of the clusters' time waiting for transfers); every run's lattice hash "
            "equals build/tools/lbm-ref's.\n\n")
    f.write("| clusters | " + " | ".join(f"depth {d}, {k} DDR{'s' if k > 1 else ''}" for d, k in configs) + " |\n")
    f.write("|---" * (len(configs) + 1) + "|\n")
    for c in clusters:
        cells = []
        for d, k in configs:
            r = by.get((c, d, k))
            cells.append(f"{float(r['mlups']):.2f} ({float(r['wait_percent']):.0f} %)" if r else "")
        f.write(f"| {c} | " + " | ".join(cells) + " |\n")
    bytes_per_update = int(by[(clusters[-1], configs[0][0], configs[0][1])]['bytes']) / updates
    read_bytes = bytes_per_update - 76  # the put is the block's 19 floats per node
    bound = hz * link / bytes_per_update / 1e6
    read_bound = hz * link / read_bytes / 1e6
    f.write(f"\nBytes moved per lattice update: {bytes_per_update:.0f} ({read_bytes:.0f} fetched with the halo, "
            f"76 put). DDR bound from the board table ({link} B/cycle per link direction x {hz/1e6:.0f} MHz): "
            f"{bound:.1f} MLUPS for one DDR when its reads and writes share the link "
            f"({link} x {hz/1e6:.0f} M / {bytes_per_update:.0f}), {read_bound:.1f} when only the reads bound it "
            f"({link} x {hz/1e6:.0f} M / {read_bytes:.0f}); twice that for two DDRs.\n")
    f.write("Not verified: " + (", ".join(f"{r['clusters']}/{r['depth']}/{r['ddrs']}" for r in rows if r['verified'] != 'yes') or "none") + "\n")
# gnuplot's data and script, beside the table.
with open(sys.argv[2].replace('.md', '.dat'), 'w') as f:
    f.write("# clusters " + " ".join(f"d{d}x{k}" for d, k in configs) + " bound1 bound2\n")
    for c in clusters:
        f.write(f"{c} " + " ".join(by[(c, d, k)]['mlups'] if (c, d, k) in by else "?" for d, k in configs)
                + f" {bound:.3f} {2*bound:.3f}\n")
with open(sys.argv[2].replace('.md', '.gp'), 'w') as f:
    base = sys.argv[2].replace('.md', '')
    f.write('set terminal png size 800,500\nset output "%s.png"\nset datafile missing "?"\n' % base)
    f.write('set logscale x 2\nset xtics (%s)\n' % ", ".join('"%d" %d' % (c, c) for c in clusters))
    f.write('set xrange [%g:%g]\nset yrange [0:*]\nset grid\nset key top left box opaque\n' % (clusters[0] / 1.25, clusters[-1] * 1.25))
    f.write('set title "LBM D3Q19 %s^3 on mppa256 (virtual time)"\nset xlabel "compute clusters"\nset ylabel "MLUPS"\n' % r0['size'])
    curves = ['"%s.dat" using 1:%d with linespoints title "depth %d, %d DDR%s"' % (base, i + 2, d, k, "s" if k > 1 else "")
              for i, (d, k) in enumerate(configs)]
    n = len(configs)
    curves += ['"%s.dat" using 1:%d with lines dashtype 2 title "bound, 1 DDR"' % (base, n + 2),
               '"%s.dat" using 1:%d with lines dashtype 2 title "bound, 2 DDRs"' % (base, n + 3)]
    f.write("plot " + ", ".join(curves) + "\n")
PY
if command -v gnuplot >/dev/null; then gnuplot "$out.gp"; fi
cat "$out.md"
