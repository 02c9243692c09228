# Shared by the benchmark scripts (sourced, not run).

# step WHAT: say on stderr which step a long script is in, numbered, with the seconds since it
# started ("dynp_report: step 3: the replays of ... (41 s in)"), so a report that runs for minutes
# never leaves its caller guessing; sweep_run says its own. Nothing on stdout.
step() {
	STEP_N=$((${STEP_N:-0} + 1))
	printf '%s: step %d: %s (%d s in)\n' "$(basename "$0" .sh)" "$STEP_N" "$*" "$SECONDS" >&2
}

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
#
# The rules a reviewer would sign (issue 28):
#   directed 'DIR' 'FULL': direction first. NOT REPRODUCED when the awk
#     expression DIR (the paper's direction: which side is better, or the
#     sign of a change) fails, whatever the magnitude; REPRODUCED when DIR and
#     FULL (the magnitude too) hold; PARTLY when only DIR does. A compound
#     claim is split into its parts by the caller, one row and verdict each.
#   paired 'SIDE' D1 D2 ...: noise. The D are the paired differences of one
#     comparison (the same seeds on both sides, one per seed); SIDE is '<0' or
#     '>0', the paper's side of zero. Prints "VERDICT|mean|lo|hi|k": the mean,
#     the 95% interval of the mean (Student's t, k-1 degrees of freedom) and
#     the number of seeds; VERDICT is REPRODUCED when the interval lies on the
#     paper's side, NOT REPRODUCED when on the other, else $NOISE_WORD. With
#     one seed the interval is unbounded: always $NOISE_WORD.
#   A row whose rule was fitted to the paper's own number has the verdict
#   CALIBRATED: it is shown, and left out of the tally.
NOISE_WORD="WITHIN NOISE"
directed() {
	verdict "($1) && ($2)" "$1"
}
paired() {
	local side=$1
	shift
	case $side in '<0' | '>0') ;; *) echo "paired: SIDE is '<0' or '>0', not '$side'" >&2; exit 2 ;; esac
	[ $# -ge 1 ] || { echo "paired: no differences" >&2; exit 2; }
	printf '%s\n' "$@" | awk -v side="$side" -v noise="$NOISE_WORD" '
		$1 !~ /^-?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)?$/ { print "paired: not a number: " $1 > "/dev/stderr"; bad = 1; exit 2 }
		{ d[++k] = $1; sum += $1 }
		END {
			if (bad) exit 2
			# t(0.975, df) for df = 1..30; beyond, 1.96 is within 2% of it.
			split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 " \
			      "2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
			mean = sum / k
			if (k < 2) { printf "%s|%.6g|-inf|inf|%d\n", noise, mean, k; exit 0 }
			for (i = 1; i <= k; i++) ss += (d[i] - mean) ^ 2
			half = (k - 1 <= 30 ? t[k - 1] : 1.96) * sqrt(ss / (k - 1) / k)
			lo = mean - half; hi = mean + half
			v = noise
			if ((side == "<0" && hi < 0) || (side == ">0" && lo > 0)) v = "REPRODUCED"
			else if ((side == "<0" && lo > 0) || (side == ">0" && hi < 0)) v = "NOT REPRODUCED"
			printf "%s|%.6g|%.6g|%.6g|%d\n", v, mean, lo, hi, k
		}'
}
claim() {
	: "${CLAIMS:?claim: set CLAIMS to a file}"
	printf '| %s | %s | %s | **%s** | %s |\n' "$1" "$2" "$3" "$4" "$5" >>"$CLAIMS"
}
# tally FILE: the verdicts of a claims file, one line (docs/fidelity.md reads it back).
tally() {
	awk -F'|' -v noise="$NOISE_WORD" '{ v = $5; gsub(/[ *]/, "", v); n[v]++ } END {
		w = noise; gsub(/ /, "", w)
		printf "%d claims: %d reproduced, %d partly, %d %s, %d not reproduced; %d calibrated rows left out.\n",
			NR - n["CALIBRATED"], n["REPRODUCED"], n["PARTLY"], n[w], tolower(noise), n["NOTREPRODUCED"],
			n["CALIBRATED"] }' "$1"
}
claims_table() {
	echo "| where | the paper's claim | ours | verdict | why |"
	echo "|---|---|---|---|---|"
	cat "$CLAIMS"
	echo
	tally "$CLAIMS"
	echo
	echo "Verdicts (tools/lib.sh): the direction first (a claim whose direction our numbers reverse is NOT"
	echo "REPRODUCED whatever the magnitude; PARTLY is the right direction at another magnitude); a"
	echo "comparison on synthetic workloads is decided by the 95% interval of its paired differences over"
	echo "the seeds, ${NOISE_WORD} when the interval holds zero; CALIBRATED rows (a rule fitted to the"
	echo "paper's number) are shown but not counted."
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
	step "the replays of $exp: $(printf '%s\n' "$list" | wc -l) cells, $SWEEP_REUSED kept from an earlier run"
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
#
# Claims over several cells or comparisons (issue 28, appended):
#   over_cells NEED PART V1 V2 ...: one verdict from the verdict words V of
#     the cells a claim covers (each decided by paired, say). With R of them
#     REPRODUCED, W $NOISE_WORD and N otherwise: REPRODUCED when R >= NEED;
#     $NOISE_WORD while the noisy cells could still make up NEED (R + W >=
#     NEED); else, the claim being refuted in enough cells, PARTLY when
#     R >= PART and NOT REPRODUCED otherwise. "X is the best of N" is
#     over_cells with NEED = PART + 1 = the number of comparisons, X against
#     each other one. Prints "VERDICT|R|W|N".
#   all_of V1 V2 ...: a claim that must hold in every one of its parts (at
#     every load, say), each part's verdict a V: NOT REPRODUCED when any part
#     is; else $NOISE_WORD when any part is; else PARTLY when any part is
#     (the right side at another magnitude); else REPRODUCED.
#   paired_directed SIDE 'FULL' D1 D2 ...: paired, then the magnitude: when
#     the interval lies on the paper's side, REPRODUCED if the awk expression
#     FULL holds (over m, lo and hi: the mean and the interval), else PARTLY;
#     otherwise paired's own verdict. Prints paired's "VERDICT|mean|lo|hi|k".
over_cells() {
	local need=$1 part=$2
	shift 2
	[ $# -ge 1 ] || { echo "over_cells: no verdicts" >&2; exit 2; }
	printf '%s\n' "$@" | awk -v need="$need" -v part="$part" -v noise="$NOISE_WORD" '
		$0 == "REPRODUCED" { r++; next }
		$0 == noise { w++; next }
		$0 == "NOT REPRODUCED" || $0 == "PARTLY" { n++; next }
		{ print "over_cells: not a verdict: " $0 > "/dev/stderr"; bad = 1; exit 2 }
		END {
			if (bad) exit 2
			v = r >= need ? "REPRODUCED" : r + w >= need ? noise : r >= part ? "PARTLY" : "NOT REPRODUCED"
			printf "%s|%d|%d|%d\n", v, r, w, n
		}'
}
paired_directed() {
	local side=$1 full=$2 r v m lo hi
	shift 2
	r=$(paired "$side" "$@") || exit 2
	IFS='|' read -r v m lo hi _ <<<"$r"
	if [ "$v" = REPRODUCED ]; then
		v=$(awk -v m="$m" -v lo="$lo" -v hi="$hi" "BEGIN { if ($full) print \"REPRODUCED\"; else print \"PARTLY\" }") || {
			echo "paired_directed: cannot evaluate '$full'" >&2
			exit 2
		}
		[ -n "$v" ] || { echo "paired_directed: cannot evaluate '$full'" >&2; exit 2; }
	fi
	echo "$v|${r#*|}"
}
all_of() {
	[ $# -ge 1 ] || { echo "all_of: no verdicts" >&2; exit 2; }
	printf '%s\n' "$@" | awk -v noise="$NOISE_WORD" '
		$0 == "REPRODUCED" { next }
		$0 == "NOT REPRODUCED" { n++; next }
		$0 == noise { w++; next }
		$0 == "PARTLY" { p++; next }
		{ print "all_of: not a verdict: " $0 > "/dev/stderr"; bad = 1; exit 2 }
		END { if (bad) exit 2; print n ? "NOT REPRODUCED" : w ? noise : p ? "PARTLY" : "REPRODUCED" }'
}
