set terminal png size 800,500
set output "benchmarks/results/lbm-mppa256-48.png"
set datafile missing "?"
set logscale x 2
set xtics ("1" 1, "2" 2, "4" 4, "8" 8, "16" 16)
set xrange [0.8:20]
set yrange [0:*]
set grid
set key top left box opaque
set title "LBM D3Q19 48^3 on mppa256 (virtual time)"
set xlabel "compute clusters"
set ylabel "MLUPS"
plot "benchmarks/results/lbm-mppa256-48.dat" using 1:2 with linespoints title "depth 1, 1 DDR", "benchmarks/results/lbm-mppa256-48.dat" using 1:3 with linespoints title "depth 2, 1 DDR", "benchmarks/results/lbm-mppa256-48.dat" using 1:4 with linespoints title "depth 4, 1 DDR", "benchmarks/results/lbm-mppa256-48.dat" using 1:5 with linespoints title "depth 2, 2 DDRs", "benchmarks/results/lbm-mppa256-48.dat" using 1:6 with lines dashtype 2 title "bound, 1 DDR", "benchmarks/results/lbm-mppa256-48.dat" using 1:7 with lines dashtype 2 title "bound, 2 DDRs"
