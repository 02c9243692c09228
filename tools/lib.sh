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
