#!/usr/bin/env bash
# Progress that never goes silent (issue 29, item 1): build/san/slowprog counts 2000 units of 0.5 ms,
# then 25 units of 0.3 s, under --progress semantics. A stride tuned from the fast start once left
# the slow part without a line. Each line is stamped when it arrives (wall time, by Python: the
# gaps measure the progress code, never the CPU: the run is all sleep). Prints TEST lines.
set -u
B=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # NAME OK [REASON]
	if [ "$2" = 1 ]; then echo "TEST progress.$1 PASS"; else echo "TEST progress.$1 FAIL ${3:-}"; fi
}

# The stamper: seconds since it started, then the line.
stamp() {
	python3 -u -c '
import sys, time
t0 = time.monotonic()
for line in sys.stdin:
    sys.stdout.write("%.3f %s" % (time.monotonic() - t0, line))'
}

"$B/san/slowprog" 2000 25 2>&1 >/dev/null | stamp >"$tmp/lines"
st=${PIPESTATUS[0]}
check exit "$([ "$st" = 0 ] && echo 1)" "slowprog exited $st"

# Gaps: the period is 1 s (PROGRESS_LINE_S); 1.6 s leaves room for a loaded machine's scheduling,
# and a silent stretch (what the stride did) is 3 s and more. The first line is due 1 s in.
gaps=$(awk 'NR > 1 { g = $1 - prev; if (g > max) max = g } { prev = $1 } END { printf "%.2f %d", max, NR }' "$tmp/lines")
max=${gaps% *} n=${gaps#* }
# 1 s of fast units and 7.5 s of slow ones: about eight lines, and the last.
check lines "$([ "$n" -ge 7 ] && echo 1)" "$n lines: $(tr '\n' '|' <"$tmp/lines")"
check gaps "$(awk -v m="$max" 'BEGIN { print (m <= 1.6) ? 1 : 0 }')" "a gap of $max s between lines: $(tr '\n' '|' <"$tmp/lines")"

# The rate is the recent one: in the slow part about 3 units/s, where the average since the start is
# hundreds. The last line before the final one must say under 20 units/s.
slow=$(grep 'phase slow' "$tmp/lines" | tail -1)
rate=$(printf '%s\n' "$slow" | sed -n 's/.*), \([0-9.]*\) units\/s.*/\1/p')
check recent_rate "$([ -n "$rate" ] && awk -v r="$rate" 'BEGIN { exit !(r < 20) }' && echo 1)" "last slow line: '$slow'"
check eta "$(printf '%s\n' "$slow" | grep -q 'ETA [0-9]*:[0-9][0-9], phase slow' && echo 1)" "last slow line: '$slow'"
# The end: one last line with the total and the time, as before.
check final "$(tail -1 "$tmp/lines" | grep -Eq 'slowprog: 2025/2025 units \(100%\), [0-9.]+ units/s, [0-9.]+ s$' && echo 1)" \
	"last line: '$(tail -1 "$tmp/lines")'"
