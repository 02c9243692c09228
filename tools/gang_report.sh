#!/usr/bin/env bash
# make gang-report: docs/gang-results.md. Gang scheduling (seed 002) on the
# Downey model workload of its section 4.2 in the layout of its Tables 1 and 2:
# the four allocation schemes x rho 0.2/0.5/0.7/0.9, 20 sets of 200 jobs and
# 5 sets of 20,000 jobs, averaged; once with whole sizes uniform in log space
# (the model as written) and once with power-of-two sizes. The seed's figures
# are typed in below; the verdicts on its conclusions are computed, not written.
set -eu
B=${BUILD:-build}
R=$B/replay
W=$B/wlgen
out=docs/gang-results.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RHOS="0.2 0.5 0.7 0.9"
SCHEMES="bc br brms brmms"

# Seed 002 Table 1 (200 jobs x 20 sets) and Table 2 (20,000 jobs x 5 sets):
# table rho scheme r_a n_l n_a t_ta t_sa t_ma t_la (turnaround in slots).
cat >"$tmp/paper" <<'TXT'
1 0.2 bc 0.19 3 1.16 31.10 5.67 40.52 112.45
1 0.2 br 0.19 3 0.45 30.01 5.52 39.29 108.18
1 0.2 brms 0.19 4 0.57 29.25 5.37 37.86 106.56
1 0.2 brmms 0.19 3 0.44 28.66 5.24 37.09 104.68
1 0.5 bc 0.46 6 2.84 70.00 14.04 89.27 246.08
1 0.5 br 0.46 5 2.27 58.65 11.68 75.23 206.45
1 0.5 brms 0.45 15 6.11 57.28 15.99 73.83 184.98
1 0.5 brmms 0.47 5 2.06 44.05 8.77 55.82 159.75
1 0.7 bc 0.55 10 5.23 129.65 25.03 166.21 456.72
1 0.7 br 0.58 8 4.09 102.21 20.27 130.17 359.00
1 0.7 brms 0.53 30 14.39 96.95 35.78 128.23 271.12
1 0.7 brmms 0.61 7 3.58 66.23 13.96 83.19 234.05
1 0.9 bc 0.58 14 7.62 189.60 35.91 246.73 670.42
1 0.9 br 0.65 11 6.00 150.18 29.50 195.49 526.64
1 0.9 brms 0.56 43 20.17 120.53 51.84 170.61 356.94
1 0.9 brmms 0.68 10 5.51 98.51 20.80 124.69 345.48
2 0.2 bc 0.20 6 1.21 32.15 5.70 40.62 114.25
2 0.2 br 0.20 6 0.46 30.97 5.52 39.16 109.77
2 0.2 brms 0.20 7 1.20 30.99 5.51 39.11 110.15
2 0.2 brmms 0.20 6 0.45 29.58 5.21 37.20 105.60
2 0.5 bc 0.49 18 3.64 91.09 17.33 115.54 317.90
2 0.5 br 0.49 13 2.60 68.32 12.95 86.93 237.94
2 0.5 brms 0.49 17 3.78 78.78 15.64 99.75 272.78
2 0.5 brmms 0.49 12 2.30 48.93 9.47 61.25 172.04
2 0.7 bc 0.68 79 35.28 874.81 166.87 1097.78 3077.22
2 0.7 br 0.69 26 7.21 177.75 34.23 224.62 620.55
2 0.7 brms 0.69 64 23.37 441.42 91.33 551.02 1531.94
2 0.7 brmms 0.69 23 5.39 94.78 20.10 118.61 326.51
2 0.9 bc 0.69 645 346.33 8713.93 1603.65 10955.74 30834.47
2 0.9 br 0.85 123 62.48 1151.24 296.40 1952.93 5438.99
2 0.9 brms 0.82 357 202.71 3836.59 800.92 4830.35 13191.87
2 0.9 brmms 0.86 90 39.94 716.46 151.14 887.45 2490.94
TXT

# experiment TABLE JOBS SETS SIZES: one CSV row per (set, scheme) into $tmp/rows.
experiment() {
	local table=$1 jobs=$2 sets=$3 sizes=$4
	for rho in $RHOS; do
		for s in $(seq 1 "$sets"); do
			"$W" --model downey --jobs "$jobs" --procs 128 --load "$rho" --sizes "$sizes" --seed "$s" \
				-o "$tmp/w.swf" 2>/dev/null
			"$R" --format csv --policy gang --scheme bc,br,brms,brmms "$tmp/w.swf" |
				awk -F, -v t="$table" -v rho="$rho" -v sz="$sizes" '
					NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
					{ sub(/^gang-/, "", $c["policy"])
					  print t, sz, rho, $c["policy"], $c["gang_active_ratio"], $c["gang_max_slots"],
						$c["gang_avg_slots"], $c["gang_t_ta"], $c["gang_t_sa"], $c["gang_t_ma"],
						$c["gang_t_la"], $c["gang_rho"], $c["gang_queued"] }' >>"$tmp/rows"
		done
	done
}
: >"$tmp/rows"
for sizes in log pow2; do
	experiment 1 200 20 "$sizes"
	experiment 2 20000 5 "$sizes"
done

# Averages per (table, sizes, rho, scheme); an empty field (no job in a class) is left out of its mean.
awk '{ k = $1 " " $2 " " $3 " " $4
       for (i = 5; i <= 13; i++) if ($i != "") { s[k, i] += $i; n[k, i]++ }
       keys[k] = 1 }
     END { for (k in keys) { line = k
             for (i = 5; i <= 13; i++) line = line " " (n[k, i] ? s[k, i] / n[k, i] : "nan")
             print line } }' "$tmp/rows" >"$tmp/avg"

# table TABLE SIZES: the markdown table, ours beside the seed's r_a, n_a and t_ta.
table() {
	echo "| scheme | rho | rho measured | r_a | n_l | n_a | t_ta | t_sa | t_ma | t_la | waited | seed r_a | seed n_a | seed t_ta | seed t_sa |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for rho in $RHOS; do
		for sc in $SCHEMES; do
			awk -v t="$1" -v sz="$2" -v rho="$rho" -v sc="$sc" -v pf="$tmp/paper" '
				BEGIN { while ((getline l < pf) > 0) { split(l, p, " ")
						if (p[1] == t && p[2] == rho && p[3] == sc) { pr = p[4]; pn = p[6]; pt = p[7]; ps = p[8] } } }
				$1 == t && $2 == sz && $3 == rho && $4 == sc {
					printf "| %s | %s | %.3f | %.2f | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %s | %s | %s | %s |\n",
						toupper(sc), rho, $12, $5, $6, $7, $8, $9, $10, $11, $13, pr, pn, pt, ps }' "$tmp/avg"
		done
	done
}

# verdict TABLE SIZES: the seed's three conclusions, tested on these numbers at each rho.
verdict() {
	awk -v t="$1" -v sz="$2" '
		$1 == t && $2 == sz { ta[$3, $4] = $8; sa[$3, $4] = $9; na[$3, $4] = $7; rhos[$3] = 1 }
		function yes(c) { return c ? "yes" : "**no**" }
		END { n = split("0.2 0.5 0.7 0.9", r, " ")
		      printf "| rho | BR below BC in t_ta | BRMS above BR in t_sa (short jobs hurt) | BRMS above BR in n_a | BRMMS lowest t_ta of the four |\n"
		      printf "|---|---|---|---|---|\n"
		      for (i = 1; i <= n; i++) { x = r[i]
		        best = ta[x, "brmms"] <= ta[x, "bc"] && ta[x, "brmms"] <= ta[x, "br"] && ta[x, "brmms"] <= ta[x, "brms"]
		        printf "| %s | %s (%.1f vs %.1f) | %s (%.1f vs %.1f) | %s (%.2f vs %.2f) | %s (%.1f) |\n", x,
		          yes(ta[x, "br"] < ta[x, "bc"]), ta[x, "br"], ta[x, "bc"],
		          yes(sa[x, "brms"] > sa[x, "br"]), sa[x, "brms"], sa[x, "br"],
		          yes(na[x, "brms"] > na[x, "br"]), na[x, "brms"], na[x, "br"], yes(best), ta[x, "brmms"] } }' "$tmp/avg"
}

section() { # TABLE SIZES TITLE
	echo "### $3"
	echo
	table "$1" "$2"
	echo
	echo "The seed's conclusions on these numbers:"
	echo
	verdict "$1" "$2"
	echo
}

{
	cat <<'TXT'
# Gang scheduling results (seed 002 Tables 1 and 2)

Generated by `make gang-report` (tools/gang_report.sh); do not edit by hand.
What the schemes are and how the module works: [gang.md](gang.md).

The workload is seed 002's section 4.2 model from `build/wlgen --model downey`:
128 processors, run times of 1 to 120 slots of 5 s uniform in log space,
exponential interarrival times with the rate that gives the offered load rho,
sizes from 1 to 128 uniform in log space. Every set is replayed under the four
schemes with the defaults (quantum 5 s, at most 1024 slots):

    build/wlgen --model downey --jobs N --procs 128 --load RHO --sizes SIZES --seed S -o w.swf
    build/replay --format csv --policy gang --scheme bc,br,brms,brmms w.swf

Table 1 averages seeds 1 to 20 with N = 200; Table 2 seeds 1 to 5 with
N = 20,000. Turnaround times are in slots (5 s) from arrival to completion;
small jobs run 1-12 slots, medium 13-60, large more. "rho measured" is
lambda x mean(p) x mean(t) / P of the sets themselves (section 4.3), "waited"
the arrivals per set that found every one of the 1024 slots in use and had to
wait. The seed's own figures are in the last four columns.

Two readings of "sizes uniform in log space": **whole sizes** (every integer
size, as the model is written; a job of p processors holds a buddy block of
n, n/2 < p <= n, so about a third of every block stays idle and the machine
cannot run more than about 70% of its processors on job work however well it
packs) and **power-of-two sizes** (each exponent 0..7 equally likely: no
internal fragmentation). The seed's r_a of 0.85 at rho 0.9 under BR is out of
reach for the first reading, so its sizes must have been close to powers of
two; both are shown.

TXT
	section 1 log "Table 1 layout: 200 jobs x 20 sets, whole sizes"
	section 1 pow2 "Table 1 layout: 200 jobs x 20 sets, power-of-two sizes"
	section 2 log "Table 2 layout: 20,000 jobs x 5 sets, whole sizes"
	section 2 pow2 "Table 2 layout: 20,000 jobs x 5 sets, power-of-two sizes"
} >"$out"
echo "wrote $out"
