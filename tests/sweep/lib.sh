# shellcheck shell=bash
# What the sweep tests share. Source it, then:
#   sweep_workloads DIR         two small synthetic workloads, DIR/a.swf (300 jobs) and DIR/b.swf (200),
#                               from KTH's matrix: a cell costs milliseconds
#   sweep_big_experiment DIR    DIR/big.exp: 2 traces x 3 policies x 3 estimate models x 6 seeds = 108 cells
sweep_workloads() {
	"$B/wlgen" --model matrix --from fixtures/KTH-SP2-1996-2.1-cln.fix --jobs 300 --seed 3 -o "$1/a.swf" >/dev/null &&
		"$B/wlgen" --model matrix --from fixtures/KTH-SP2-1996-2.1-cln.fix --jobs 200 --seed 4 -o "$1/b.swf" >/dev/null
}

sweep_big_experiment() {
	cat >"$1/big.exp" <<EXP
# the tests' sweep: more than 100 cells
name big
trace $1/a.swf $1/b.swf
policy fcfs easy cons
vary --estimates trace f=2 \\
     f=5
seeds 1-6
set --procs 64
EXP
}
