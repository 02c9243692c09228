#!/usr/bin/env bash
# The pictures as a person sees them. Prints TEST lines (and note: lines for what this machine cannot run).
#  - make figures' drawing (tools/figures.sh) on the committed data: each SVG well-formed, with plotted lines;
#  - a Gantt chart of build/san/replay rendered by headless Chromium to PNG, decoded by build/san/pngstat
#    (tests/tools/pngstat.c): not blank. First a page whose pixels are known, so pngstat is checked too.
set -u
B=${BUILD:-build}
R=$B/san/replay
PNGSTAT=$B/san/pngstat
tmp=$(mktemp -d)
pg=""
cleanup() {
	# Chromium forks helpers: what is left of its process group (its own session) goes with it.
	[ -n "$pg" ] && kill -KILL -- "-$pg" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

result() {
	if [ "$2" -eq 0 ]; then echo "TEST pictures.$1 PASS"; else echo "TEST pictures.$1 FAIL $3"; fi
}

# --- make figures on the committed data ---------------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
	tools/figures.sh docs/figures/data "$tmp/fig" 2>"$tmp/fig.err"
	st=$?
	bad=""
	for f in backfill-bsld-by-month dynp-artww gang-turnaround relaxed-ef-by-class; do
		svg=$tmp/fig/$f.svg
		if ! xmllint --noout "$svg" 2>/dev/null; then
			bad="$bad $f:not-well-formed"
			continue
		fi
		# A plotted line: a path of at least three segments inside one of gnuplot's plot groups
		# (the frame, grid and key are outside them). Every figure draws at least four series.
		lines=$(awk '/id="gnuplot_plot_/ { on = 1 } on && /<path / && /d=.M/ { if (gsub(/ L/, "&") >= 3) n++ } END { print n + 0 }' "$svg")
		[ "$lines" -ge 4 ] || bad="$bad $f:$lines-lines"
	done
	result figures_drawn "$([ $st -eq 0 ] && [ -z "$bad" ] && echo 0 || echo 1)" "exit $st:$bad $(head -1 "$tmp/fig.err")"
else
	echo "note: pictures.figures_drawn not run: gnuplot is not installed (Debian package gnuplot-nox; make deps)"
fi

# --- Chromium: SVG to PNG -------------------------------------------------------------------------
# render SVG PNG W H: a screenshot by headless Chromium, in its own session and profile, at most 60 s.
# As root Chromium needs --no-sandbox; --disable-gpu keeps it off a GPU the machine may not have.
render() {
	setsid timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$tmp/profile" --screenshot="$2" --window-size="$3,$4" "file://$1" \
		>"$tmp/chromium.log" 2>&1 </dev/null &
	pg=$!
	wait "$pg"
	local st=$?
	kill -KILL -- "-$pg" 2>/dev/null
	pg=""
	return $st
}
if ! command -v chromium >/dev/null 2>&1; then
	echo "note: pictures.render_* not run: chromium is not installed (Debian package chromium; make deps)"
	exit 0
fi
# A page whose pixels are known: a 40 x 30 red rectangle on white, on pixel boundaries, in a
# 400 x 200 window (Chromium clips a viewport much smaller than that: 200 x 100 showed 3 rows of the
# rectangle). It must draw exactly 1200 pixels of one colour besides the white.
cat >"$tmp/known.svg" <<'SVG'
<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#fff"/><rect x="20" y="10" width="40" height="30" fill="#f00"/></svg>
SVG
if ! render "$tmp/known.svg" "$tmp/known.png" 400 200 || [ ! -s "$tmp/known.png" ]; then
	echo "note: pictures.render_* not run: chromium could not render here: $(grep -v '^\s*$' "$tmp/chromium.log" | tail -1)"
	exit 0
fi
got=$("$PNGSTAT" "$tmp/known.png" 2>&1)
result render_known_page "$([ "$got" = "400 200 1200 2" ] && echo 0 || echo 1)" \
	"pngstat says '$got', expected '400 200 1200 2' (width height inked colours)"

# The Gantt chart of the random 120-job trace under EASY (W = 80 + 1400 + 70 pixels; H = 56 + 300 +
# 90 for 32 processors: pictures.c): coloured job rectangles on a light plot area. A blank or
# unrendered page has one colour; a readable chart has jobs over much of it and a hue per job.
"$R" --policy easy --gantt "$tmp/gantt.svg" tests/data/rand120.swf >/dev/null 2>"$tmp/gantt.err"
if ! render "$tmp/gantt.svg" "$tmp/gantt.png" 1550 446 || [ ! -s "$tmp/gantt.png" ]; then
	result render_gantt 1 "chromium rendered the known page but not the Gantt chart: $(tail -1 "$tmp/chromium.log")"
	exit 0
fi
read -r w h inked colours < <("$PNGSTAT" "$tmp/gantt.png" 2>&1)
share=$(awk -v i="${inked:-0}" -v w="${w:-1}" -v h="${h:-1}" 'BEGIN { printf "%d", 100 * i / (w * h) }')
result render_gantt "$([ "${w:-0}" = 1550 ] && [ "$share" -ge 40 ] && [ "${colours:-0}" -ge 100 ] && echo 0 || echo 1)" \
	"${w}x$h: $share% of the pixels drawn, $colours colours (want >= 40% and >= 100)"
if [ -n "${KEEP_PNG:-}" ]; then cp "$tmp/gantt.png" "$KEEP_PNG"; fi
