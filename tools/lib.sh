# Shared by the benchmark scripts (sourced, not run).

# need PKG...: install missing Debian packages when root, else name them and fail.
need_packages() {
	[ $# -eq 0 ] && return 0
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
	else
		echo "$(basename "$0") needs: $* (apt-get install $*)" >&2
		exit 1
	fi
}

# commas N: N rounded, with thousands separators.
commas() {
	awk -v n="$1" 'BEGIN { s = sprintf("%.0f", n); r = ""; while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) } print s r }'
}

# publish OUT: move OUT.tmp over OUT, keeping OUT's hand-written notes
# (everything from its first "## " heading on).
publish() {
	local out=$1
	if [ -f "$out" ] && grep -q '^## ' "$out"; then
		echo >>"$out.tmp"
		sed -n '/^## /,$p' "$out" >>"$out.tmp"
	fi
	mv "$out.tmp" "$out"
	echo "wrote $out" >&2
}

# replace_section TITLE SECTION_FILE OUT: put SECTION_FILE (which starts with the heading
# "## TITLE") in place of OUT's section of that title, up to its next "## " heading, or append
# it when OUT has none. TITLE is matched literally.
replace_section() {
	local title=$1 sec=$2 out=$3
	awk -v title="## $title" -v sec="$sec" '
		$0 == title { while ((getline l < sec) > 0) print l; skip = 1; done = 1; next }
		skip && /^## / { skip = 0; print "" }
		!skip { print }
		END { if (!done) { print ""; while ((getline l < sec) > 0) print l } }
	' "$out" >"$out.section.tmp"
	mv "$out.section.tmp" "$out"
}

# Claim tables (issue 12): every report ends with the paper's claims, our
# measurement and a verdict computed from the numbers, never typed by hand.
#   verdict 'FULL' ['PARTLY']: REPRODUCED when the awk expression FULL holds
#     (numbers substituted in by the caller), else PARTLY when PARTLY holds,
#     else NOT REPRODUCED. An expression that does not parse is an error, not a verdict.
#   claim SECTION CLAIM OURS VERDICT REASON: one row, kept in $CLAIMS (a file).
#   claims_table: the rows as a Markdown table, in the order they were added.
verdict() {
	local v
	v=$(awk "BEGIN { if ($1) print \"REPRODUCED\"; else if (${2:-0}) print \"PARTLY\"; else print \"NOT REPRODUCED\" }") || {
		echo "verdict: cannot evaluate '$1' / '${2:-0}'" >&2
		exit 2
	}
	[ -n "$v" ] || { echo "verdict: cannot evaluate '$1' / '${2:-0}'" >&2; exit 2; }
	echo "$v"
}
claim() {
	: "${CLAIMS:?claim: set CLAIMS to a file}"
	printf '| %s | %s | %s | **%s** | %s |\n' "$1" "$2" "$3" "$4" "$5" >>"$CLAIMS"
}
claims_table() {
	echo "| where | the paper's claim | ours | verdict | why |"
	echo "|---|---|---|---|---|"
	cat "$CLAIMS"
	echo
	awk -F'|' '{ v = $5; gsub(/[ *]/, "", v); n[v]++ } END {
		printf "%d claims: %d reproduced, %d partly, %d not reproduced.\n",
			NR, n["REPRODUCED"], n["PARTLY"], n["NOTREPRODUCED"] }' "$CLAIMS"
}

# The report targets' replays run through build/sweep from experiment files
# (tools/experiments/*.exp): on ${WORKERS:-every processor} here, or as a
# Slurm array elsewhere (build/sweep --slurm) into the same OUT, which a report
# then finds done. OUT is kept (with OUT.cells/): an interrupted report
# resumes, and a re-run replays only the cells whose replayer, arguments or
# input files changed.
#   sweep_run EXP OUT: run EXP into OUT; SWEEP_REUSED is then the number of
#     its cells that were done already (their CPU time is not this run's),
#     SWEEP_CELLS and SWEEP_REUSED_ALL the cells and those done already over
#     every sweep_run of the script; with SWEEP_LEDGER set to a file, each
#     sweep_run also appends "CELLS REUSED" there (for a calling script).
#   sweep_reused [LEDGER]: ", except the N of M that build/sweep kept from an
#     earlier run" when some were (over this script's sweeps, or those in LEDGER), for a
#     sentence on what the CPU time counts; else nothing.
#   sweep_rows OUT AXIS=LABEL...: the replayer's CSV of the rows of OUT whose
#     sweep_AXIS column is LABEL (each pair must hold), without the sweep_
#     columns: the file a direct `replay --format csv` of that cell writes,
#     read by column name. Fails when no row matches.
SWEEP_CELLS=0 SWEEP_REUSED_ALL=0
sweep_run() {
	local exp=$1 out=$2 list
	mkdir -p "$(dirname "$out")"
	list=$("${B:-build}/sweep" "$exp" -o "$out" --list)
	SWEEP_REUSED=$(printf '%s\n' "$list" | awk '$3 == "done"' | wc -l)
	SWEEP_CELLS=$((SWEEP_CELLS + $(printf '%s\n' "$list" | wc -l)))
	SWEEP_REUSED_ALL=$((SWEEP_REUSED_ALL + SWEEP_REUSED))
	[ -z "${SWEEP_LEDGER:-}" ] || printf '%s\n' "$list" | awk '$3 == "done" { d++ } END { print NR, d + 0 }' >>"$SWEEP_LEDGER"
	"${B:-build}/sweep" "$exp" -o "$out" --workers "${WORKERS:-$(nproc)}"
}
sweep_reused() {
	local cells=$SWEEP_CELLS kept=$SWEEP_REUSED_ALL
	[ -z "${1:-}" ] || read -r cells kept <<<"$(awk '{ c += $1; d += $2 } END { print c + 0, d + 0 }' "$1")"
	[ "$kept" -eq 0 ] || printf ', except the %d of %d that build/sweep kept from an earlier run' "$kept" "$cells"
}
sweep_rows() {
	local out=$1
	shift
	awk -v want="$(printf '%s\n' "$@")" '
		# take(s): the first CSV field of s (RFC 4180) unquoted into F, what follows its comma into REST.
		function take(s,   i, c, v) {
			if (substr(s, 1, 1) != "\"") {
				i = index(s, ",")
				if (i == 0) { F = s; REST = ""; return }
				F = substr(s, 1, i - 1); REST = substr(s, i + 1); return
			}
			v = ""
			for (i = 2; i <= length(s); i++) {
				c = substr(s, i, 1)
				if (c == "\"" && substr(s, i + 1, 1) == "\"") { v = v c; i++; continue }
				if (c == "\"") break
				v = v c
			}
			F = v; REST = substr(s, i + 2)
		}
		BEGIN { nw = split(want, w, "\n")
			for (k = 1; k <= nw; k++) { e = index(w[k], "="); key[k] = "sweep_" substr(w[k], 1, e - 1); val[k] = substr(w[k], e + 1) } }
		NR == 1 { s = $0
			for (n = 0; ; n++) { take(s); if (F !~ /^sweep_/) break; name[n + 1] = F; s = REST }
			for (k = 1; k <= nw; k++) { col[k] = 0; for (j = 1; j <= n; j++) if (name[j] == key[k]) col[k] = j
				if (!col[k]) { print "sweep_rows: no column " key[k] > "/dev/stderr"; bad = 1; exit 1 } }
			print s; next }
		{ s = $0; ok = 1
		  for (j = 1; j <= n; j++) { take(s); got[j] = F; s = REST }
		  for (k = 1; k <= nw; k++) if (got[col[k]] != val[k]) ok = 0
		  if (ok) { print s; rows++ } }
		END { if (!bad && !rows) { print "sweep_rows: no row with " want > "/dev/stderr"; exit 1 } }' "$out"
}
