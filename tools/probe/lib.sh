# Sourced by the probe scripts that measure a patched core (not run).
# probe_clone DIFF: clone this repository into a temporary directory, apply
# tools/probe/DIFF there, build replay and wlgen, and cd into the clone; the
# tree itself is never touched. Sets tmp (removed on exit).
probe_clone() {
	local here
	here=$(git rev-parse --show-toplevel)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	git clone -q "$here" "$tmp/repo"
	cd "$tmp/repo" || exit 2
	git apply "$here/tools/probe/$1"
	make -s -j2 build/replay build/wlgen >/dev/null
}
