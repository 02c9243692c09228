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
