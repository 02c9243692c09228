#!/usr/bin/env bash
# The measurement behind docs/dynp.md "When the step runs and what a submit
# does": self-tuning dynP's behaviour at submit under three readings of
# Streit 2002 (seed 004) sections 3.2 and 5, on the paper's CTC_syn and
# KTH_syn sets (as make dynp-report builds them). dynp_submit.diff adds
# DYNP_SUBMIT to a temporary clone's core; the tree itself is untouched.
#   replan  (the default): the step decides and the live schedule is re-planned in the chosen order
#   insert  the step decides, the new job stays where it was inserted; the re-plan waits for a job end
#   none    no step at submit (decisions at job ends only)
set -eu
. "$(dirname "$0")/lib.sh"
probe_clone dynp_submit.diff
build/wlgen --model matrix --from fixtures/CTC-SP2-1996-3.1-cln.fix --procs 430 --weibull 0.35,60 --jobs 10000 --seed 1 -o "$tmp/CTC_syn.fix" >/dev/null
build/wlgen --model matrix --from fixtures/KTH-SP2-1996-2.1-cln.fix --procs 100 --weibull 0.35,200 --jobs 10000 --seed 1 -o "$tmp/KTH_syn.fix" >/dev/null
echo "| set | at submit | ARTwW simple | ARTwW advanced | gap | tries (advanced) | case 6b (advanced) |"
echo "|---|---|---:|---:|---:|---:|---:|"
for s in CTC_syn KTH_syn; do
	for m in replan insert none; do
		DYNP_SUBMIT=$m build/replay --policy dynp --decider simple,advanced --quality artww --format csv "$tmp/$s.fix" |
			awk -F, -v s=$s -v m=$m 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				{ a[$c["policy"]] = $c["artww"]; if ($c["policy"] ~ /adv/) { t = $c["decider_calls"]; b = $c["case_6b"] } }
				END { x = a["dynp-simple-artww"]; y = a["dynp-adv-artww"]
					printf "| %s | %s | %.0f | %.0f | %.1f%% | %d | %d |\n", s, m, x, y, 100 * (x - y) / x, t, b }'
	done
done
