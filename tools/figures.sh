#!/usr/bin/env bash
# make figures: the papers' figures that the reports reproduce, drawn by gnuplot as SVG.
#   tools/figures.sh [DATA [OUT]]   (defaults docs/figures/data and docs/figures)
# The data are small CSVs that the report scripts write beside their documents
# (tools/backfill_report.sh, tools/relaxed_sweep.sh, tools/dynp_report.sh,
# tools/gang_report.sh), committed, so the figures are redrawn in a second
# without replaying anything; each report's Markdown links its figure. Every
# CSV starts with a '#' line saying what it holds (gnuplot skips it) and a
# header line: the plots skip both (skip 2), so the row index (column 0) starts at the first row.
set -eu
DATA=${1:-docs/figures/data}
OUT=${2:-docs/figures}
command -v gnuplot >/dev/null 2>&1 || { echo "figures.sh: needs gnuplot (Debian package gnuplot-nox)" >&2; exit 1; }
for f in backfill-bsld-by-month dynp-artww gang-turnaround relaxed-ef-by-class; do
	[ -s "$DATA/$f.csv" ] || { echo "figures.sh: $DATA/$f.csv missing: run the report that writes it (make help)" >&2; exit 1; }
done
mkdir -p "$OUT"

# Shared settings: a white background (the SVG is shown on dark pages too), no enhanced text (the
# labels hold underscores), comma-separated data, a light grid.
common="set datafile separator ','; set grid lc rgb '#dddddd'; set key box opaque; set border lw 1.2;
	set style line 1 lc rgb '#1f77b4' lw 2 pt 7 ps 0.8; set style line 2 lc rgb '#d62728' lw 2 pt 5 ps 0.8;
	set style line 3 lc rgb '#2ca02c' lw 2 pt 9 ps 0.9; set style line 4 lc rgb '#9467bd' lw 2 pt 11 ps 0.9;
	set style line 5 lc rgb '#ff7f0e' lw 2 pt 13 ps 0.9; set style line 6 lc rgb '#000000' lw 2 pt 6 ps 0.9;"
term() { echo "set terminal svg size $1,$2 font 'Sans,13' background rgb 'white' noenhanced; set output '$3';"; }

# Feitelson and Mu'alem Weil 1998, Table 2: average bounded slowdown per month, EASY and conservative,
# ours (solid) beside the paper's (dashed); months equally spaced, labelled by name.
gnuplot -e "$(term 1000 560 "$OUT/backfill-bsld-by-month.svg") $common
	set title \"Feitelson and Mu'alem Weil 1998, Table 2: average bounded slowdown per month, KTH SP2 (100 processors)\";
	set xlabel 'month of submission (each replayed on its own)'; set ylabel 'average bounded slowdown (10 s threshold)';
	set xtics rotate by -30; set yrange [0:*]; set key top right; set offsets 0.4, 0.4, 0, 0; set rmargin 8;
	f = '$DATA/backfill-bsld-by-month.csv';
	plot f skip 2 using 0:2:xticlabels(1) with linespoints ls 1 title 'EASY (ours)',
	     f skip 2 using 0:3 with linespoints ls 2 title 'conservative (ours)',
	     f skip 2 using 0:4 with linespoints ls 1 dt 2 pt 6 title 'EASY (paper)',
	     f skip 2 using 0:5 with linespoints ls 2 dt 2 pt 4 title 'conservative (paper)'"

# Streit 2002, Figures 2 (the deciders) and 4 (the orders): ARTwW against the shrinking factor, one panel per job set, one line per
# policy; the factor falls to the right (a smaller factor is a higher load, as the paper plots it).
gnuplot -e "$(term 1500 560 "$OUT/dynp-artww.svg") $common
	set multiplot layout 1,3 title \"Streit 2002, Figures 2 and 4: ARTwW against the shrinking factor (our synthetic job sets; lower is better)\" font ',15';
	set xlabel 'shrinking factor (smaller: higher load)'; set ylabel 'ARTwW (1000 s)'; set xrange [*:*] reverse; set yrange [0:*];
	f = '$DATA/dynp-artww.csv';
	sel(s, c) = strcol(1) eq s ? column(c) / 1000 : NaN;
	x(s) = strcol(1) eq s ? column(2) : NaN;
	do for [s in 'CTC_syn KTH_syn SDSC_syn'] {
		set title s; if (s eq 'KTH_syn') { set key top left } else { unset key };
		plot f skip 2 using (x(s)):(sel(s, 3)) with linespoints ls 1 title 'FCFS', f skip 2 using (x(s)):(sel(s, 4)) with linespoints ls 2 title 'SJF',
		     f skip 2 using (x(s)):(sel(s, 5)) with linespoints ls 3 title 'LJF', f skip 2 using (x(s)):(sel(s, 6)) with linespoints ls 5 title 'basic dynP',
		     f skip 2 using (x(s)):(sel(s, 7)) with linespoints ls 4 title 'dynP, simple decider', f skip 2 using (x(s)):(sel(s, 8)) with linespoints ls 6 title 'dynP, advanced decider'
	};
	unset multiplot"

# Zhou, Walsh and Brent 2000, Fig. 3: average turnaround t_ta against rho, one line per scheme, ours
# (solid) and the paper's Tables 1 and 2 (dashed); a row per table layout, a column per reading of
# the sizes. The y axis is logarithmic: the 20,000-job sets span three decades at rho 0.9.
gnuplot -e "$(term 1300 960 "$OUT/gang-turnaround.svg") $common
	set multiplot layout 2,2 title \"Zhou, Walsh and Brent 2000, Fig. 3 (Tables 1 and 2): average turnaround against the load, 128 processors\" font ',15';
	set xlabel 'offered load rho'; set ylabel 'average turnaround t_ta (slots of 5 s)'; set logscale y; set xrange [0.15:0.95]; set xtics 0.2,0.1,0.9;
	set key top left;
	f = '$DATA/gang-turnaround.csv';
	sel(t, z, sc, c) = (column(1) == t && strcol(2) eq z && strcol(4) eq sc) ? column(c) : NaN;
	do for [t in '1 2'] { do for [z in 'log pow2'] {
		set title sprintf('%s, %s sizes', t eq '1' ? 'Table 1 layout: 200 jobs x 20 sets' : 'Table 2 layout: 20,000 jobs x 5 sets', z eq 'log' ? 'whole' : 'power-of-two');
		plot for [i = 1:4] f skip 2 using 3:(sel(t + 0, z, word('bc br brms brmms', i), 5)) with linespoints ls i title sprintf('%s (ours)', word('BC BR BRMS BRMMS', i)),
		     for [i = 1:4] f skip 2 using 3:(sel(t + 0, z, word('bc br brms brmms', i), 6)) with linespoints ls i dt 2 pt 6 title sprintf('%s (paper)', word('BC BR BRMS BRMMS', i))
	} };
	unset multiplot"

# Spear and McGalliard 2007, Exhibit 11's size classes: the expansion factor against the tolerance
# of relaxed backfilling on KTH, a panel per class (their scales differ tenfold) and one for all jobs.
gnuplot -e "$(term 1500 520 "$OUT/relaxed-ef-by-class.svg") $common
	set multiplot layout 1,4 title \"Spear and McGalliard 2007, Exhibit 11's size classes: expansion factor against the tolerance (relaxed backfilling, KTH SP2)\" font ',15';
	set xlabel 'tolerance T (not to scale)'; set ylabel 'expansion factor'; set offsets 0.3, 0.3, 0, 0; unset key;
	f = '$DATA/relaxed-ef-by-class.csv';
	array name[4] = ['1-32 processors', '33-64 processors', '65-120 processors', 'all jobs'];
	array col[4] = [4, 5, 6, 3];
	array style[4] = [1, 2, 3, 6];
	do for [i = 1:4] {
		set title name[i];
		plot f skip 2 using 0:(column(col[i])):xticlabels(2) with linespoints ls style[i]
	};
	unset multiplot"
echo "wrote $OUT/backfill-bsld-by-month.svg $OUT/dynp-artww.svg $OUT/gang-turnaround.svg $OUT/relaxed-ef-by-class.svg" >&2
