#!/usr/bin/env bash
# The reports' verdict rules (tools/lib.sh, issue 28) against values worked out by hand: a reversed
# direction is NOT REPRODUCED whatever the magnitude, a paired interval that holds zero is the noise
# word, a CALIBRATED row is left out of the tally, and nonsense is an error. Prints TEST lines.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/lib.sh
. "$here/../../tools/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # NAME GOT WANT
	if [ "$2" = "$3" ]; then echo "TEST verdicts.$1 PASS"; else echo "TEST verdicts.$1 FAIL got '$2', want '$3'"; fi
}

# Direction first: the paper says A's wait is lower than B's by about a third.
a=900 b=1000 # ours: lower, but by a tenth
check direction_right_magnitude_off "$(directed "$a < $b" "$a < 0.75 * $b")" "PARTLY"
a=600
check direction_and_magnitude "$(directed "$a < $b" "$a < 0.75 * $b")" "REPRODUCED"
a=5000 # reversed, and by a lot: the magnitude test alone would pass (|a - b| is large)
check direction_reversed "$(directed "$a < $b" "($a - $b) ^ 2 > 0.0625 * $b ^ 2")" "NOT REPRODUCED"

# Noise: 2,3,4,3,2 has mean 2.8 and sample sd sqrt(0.7) = 0.83666; t(0.975, 4) = 2.776, so the
# half width is 2.776 * 0.83666 / sqrt(5) = 1.03868: [1.76132, 3.83868], all above zero.
r=$(paired '>0' 2 3 4 3 2)
check paired_on_the_papers_side "${r%%|*}" "REPRODUCED"
check paired_interval "$(echo "$r" | awk -F'|' '{ printf "%.4f %.4f %.4f %d", $2, $3, $4, $5 }')" "2.8000 1.7613 3.8387 5"
r=$(paired '<0' 2 3 4 3 2)
check paired_on_the_other_side "${r%%|*}" "NOT REPRODUCED"
# 1,2,3: mean 2, sd 1, half width 4.303 / sqrt(3) = 2.48434: [-0.48434, 4.48434] holds zero.
r=$(paired '>0' 1 2 3)
check paired_tie_within_noise "${r%%|*}" "WITHIN NOISE"
check paired_tie_interval "$(echo "$r" | awk -F'|' '{ printf "%.4f %.4f", $3, $4 }')" "-0.4843 4.4843"
r=$(paired '>0' 7)
check paired_one_seed "${r%%|*}" "WITHIN NOISE"
(paired '>0' 1 x 3) >/dev/null 2>&1
check paired_not_a_number $? 2
(paired '=0' 1 2) >/dev/null 2>&1
check paired_bad_side $? 2

# The tally: a CALIBRATED row is shown and not counted; each verdict word has its count.
CLAIMS=$tmp/claims
claim "s. 1" "a" "1" "REPRODUCED" "x"
claim "s. 1" "b" "2" "CALIBRATED" "fitted to the paper's number"
claim "s. 2" "c" "3" "WITHIN NOISE" "y"
claim "s. 2" "d" "4" "NOT REPRODUCED" "z"
claim "s. 3" "e" "5" "PARTLY" "w"
check tally_leaves_out_calibrated "$(tally "$CLAIMS")" \
	"4 claims: 1 reproduced, 1 partly, 1 within noise, 1 not reproduced; 1 calibrated rows left out."
check table_has_every_row "$(claims_table | grep -c '^| s\. ')" 5

(verdict '1 <' '0') >/dev/null 2>&1
check verdict_bad_expression $? 2

# docs/fidelity.md from four small reports: rows go to the paper their "where" names (else the
# report's), and the tallies are tally's. Expected counts by hand from the rows below.
mkdir -p "$tmp/docs"
cp "$here/../../docs/references.md" "$tmp/docs/"
row() { printf '| %s | c | o | **%s** | w |\n' "$1" "$2"; }
hdr() { printf '# r\n\n| where | the paper'"'"'s claim | ours | verdict | why |\n|---|---|---|---|---|\n'; }
{ hdr; row "s. 3" "REPRODUCED"; row "s. 4" "NOT REPRODUCED"; } >"$tmp/docs/backfill-results.md"
{ hdr; row "Talby and Feitelson 1999, s. 3" "PARTLY"; row "Spear and McGalliard 2007, s. 2" "REPRODUCED"; } \
	>"$tmp/docs/priorities-results.md"
{ hdr; row "s. 4.3" "WITHIN NOISE"; row "Tables 1-2" "CALIBRATED"; } >"$tmp/docs/gang-results.md"
{ hdr; row "Table 5" "REPRODUCED"; } >"$tmp/docs/dynp-results.md"
DOCS=$tmp/docs FIXTURES=$here/../../fixtures/peek.fix B=${BUILD:-build} "$here/../../tools/fidelity.sh" >/dev/null 2>"$tmp/err"
check fidelity_runs $? 0
check fidelity_total "$(grep '^| \*\*all five' "$tmp/docs/fidelity.md")" \
	"| **all five** | | **6** | **3** | **1** | **1** | **1** | **1** |"
check fidelity_by_author "$(grep -c '^| Talby and Feitelson 1999' "$tmp/docs/fidelity.md")" 1
check fidelity_gang "$(grep '^| Zhou' "$tmp/docs/fidelity.md" | head -1)" \
	"| Zhou, Walsh and Brent, 2000 | [gang-results.md](gang-results.md) | 1 | 0 | 0 | 1 | 0 | 1 |"

# Over cells: every cell on the paper's side; one cell within noise (the claim could still hold);
# one cell on the other side with the rest reproduced (PARTLY when PART allows it); the best of three.
R=REPRODUCED N="NOT REPRODUCED" W=$NOISE_WORD
check over_cells_all "$(over_cells 3 2 "$R" "$R" "$R")" "REPRODUCED|3|0|0"
check over_cells_noise "$(over_cells 3 2 "$R" "$W" "$R")" "WITHIN NOISE|2|1|0"
check over_cells_partly "$(over_cells 3 2 "$R" "$N" "$R")" "PARTLY|2|0|1"
check over_cells_refuted "$(over_cells 3 3 "$R" "$N" "$R")" "NOT REPRODUCED|2|0|1"
check over_cells_most "$(over_cells 4 2 "$R" "$R" "$R" "$R" "$W")" "REPRODUCED|4|1|0"
(over_cells 1 1 "$R" maybe) >/dev/null 2>&1
check over_cells_not_a_verdict $? 2
# Paired with a magnitude: 2,3,4,3,2 lies above zero with mean 2.8 (above); a threshold of 2.5 on
# the mean holds, one of 3 does not (PARTLY); on the other side the magnitude is never looked at.
check paired_directed_full "$(paired_directed '>0' 'm >= 2.5' 2 3 4 3 2 | cut -d'|' -f1)" "REPRODUCED"
check paired_directed_partly "$(paired_directed '>0' 'm >= 3' 2 3 4 3 2 | cut -d'|' -f1)" "PARTLY"
check paired_directed_reversed "$(paired_directed '<0' 'm >= 0' 2 3 4 3 2 | cut -d'|' -f1)" "NOT REPRODUCED"
check paired_directed_noise "$(paired_directed '>0' 'm >= 0' 1 2 3)" "WITHIN NOISE|2|-0.484338|4.48434|3"
(paired_directed '>0' 'm >=' 2 3 4 3 2) >/dev/null 2>&1
check paired_directed_bad_expression $? 2

# All of: one part on the other side decides; then noise; then a part at another magnitude.
check all_of_every_part "$(all_of "$R" "$R")" "REPRODUCED"
check all_of_one_reversed "$(all_of "$R" PARTLY "$W" "$N")" "NOT REPRODUCED"
check all_of_one_noisy "$(all_of "$R" PARTLY "$W")" "WITHIN NOISE"
check all_of_one_short "$(all_of "$R" PARTLY)" "PARTLY"
(all_of "$R" yes) >/dev/null 2>&1
check all_of_not_a_verdict $? 2
