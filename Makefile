# SPDX-License-Identifier: MIT
# One plain GNU Makefile. Objects go under build/obj/<variant>/, programs under build/.
# make help lists the user-facing targets: each carries a "## text" comment on its rule's line,
# which help prints, so the list is the Makefile itself (tests/cli/cli.sh checks every .PHONY
# target has one).

BUILD   := build
CC      ?= gcc
ARM_CC  ?= arm-none-eabi-gcc
ARM_NM  ?= arm-none-eabi-nm

WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -fno-common
# The core is freestanding and held to -Wconversion as well.
# -fno-tree-loop-distribute-patterns: GCC would turn the byte loops of util.h back into
# memset/memcpy calls, which a freestanding core must not reference.
CORE_WARN := $(WARN) -Wconversion -ffreestanding -fno-tree-loop-distribute-patterns
INC     := -Icore/include -Ifixture/include -Iport -Itrace -Icommon -Isim_host -Itools -Ifirmware -Itests/harness
# Unit tests also reach the core's private headers.
TEST_INC := -Icore/src

# The program version the replayer's CSV and JSON record (run_version): the commit it was built from.
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

# The host's profile (docs/design.md, The flat profile): PROFILE=flat (the default) keeps the
# live profile as arrays searched with vectors; PROFILE=list is the board's list alone.
# SIMD=scalar|sse2|avx2|avx512 forces the flat search's path (default: chosen at run time,
# AVX2 else SSE2). A build with other values wants its own BUILD=dir.
PROFILE ?= flat
SIMD ?=
SIMD_LEVEL := $(if $(SIMD),$(or $(if $(filter scalar,$(SIMD)),0),$(if $(filter sse2,$(SIMD)),1),$(if $(filter avx2,$(SIMD)),2),$(if $(filter avx512,$(SIMD)),3),$(error SIMD=$(SIMD): one of scalar sse2 avx2 avx512)))
PROFILE_DEFS := $(if $(filter flat,$(PROFILE)),-DSCHED_PROFILE_FLAT,$(if $(filter list,$(PROFILE)),,$(error PROFILE=$(PROFILE): list or flat))) \
                $(if $(SIMD),-DSCHED_PROFILE_SIMD=$(SIMD_LEVEL))

# Host variants: rel (what users run) and san (what the tests run).
CFLAGS_rel := -O2 -g $(PROFILE_DEFS)
CFLAGS_san := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
              -fno-sanitize-recover=all -DSCHED_DEBUG -DSCHED_FAILPOINTS $(PROFILE_DEFS)
LDFLAGS_rel :=
LDFLAGS_san := -fsanitize=address,undefined

CORE_SRC := $(wildcard core/src/*.c)
# The fixture codec: a module beside the core (malloc-free and freestanding like it, held to the
# same warnings), which the host tools, the replayer and the board's firmware link.
FIX_SRC := $(wildcard fixture/src/*.c)
FIX_HDRS := $(wildcard fixture/include/fixture/*.h)
PORT_SRC := port/host/port_host.c
# The trace library: SWF and fixture files, time zones, site files, the cleaning conventions.
TRACE_LIB_SRC := trace/swf.c trace/fixture_io.c trace/tz.c trace/site.c trace/workload.c trace/clean.c
# The replayer's own library: the host replay loops and the reports.
SIM_LIB_SRC := sim_host/replay.c sim_host/report.c sim_host/gang_replay.c sim_host/pictures.c sim_host/pyss_stats.c sim_host/dist.c sim_host/jobs_csv.c
# What the replayer and the tools share without a tool including the replayer's headers: the CSV and
# JSON field writers, the progress line.
COMMON_SRC := common/fields.c common/progress.c common/outpaths.c
SIM_MAIN_SRC := sim_host/main.c sim_host/options.c sim_host/policy_opts.c sim_host/run.c
# The bridge (docs/bridge.md): the controller's decisions as local processes.
BRIDGE_SRC := $(wildcard bridge/*.c)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_NAMES := $(patsubst tests/unit/%.c,%,$(UNIT_SRC))

TOOLS := swf2fix fix2swf fixinfo wlgen console sweep bridge

obj = $(patsubst %.c,$(BUILD)/obj/$(1)/%.o,$(2))

.PHONY: all run test test-build oracle bench bench-bridge check-freestanding deps clean help fuzz fuzz-build fixtures trace-report backfill-report priorities-report dynp-report gang-report fidelity figures gang-bench bench-load firmware firmware-all size bench-target \
        print-qemu print-qemu-store print-ports
all: $(BUILD)/replay $(addprefix $(BUILD)/,$(TOOLS)) ## build/replay, build/sweep, the tools (swf2fix, fix2swf, fixinfo, wlgen), build/console and build/bridge, optimised (the default)

help: ## this list, from the "## " comment on each target's line
	@echo "make [TARGET] [PORT=board] (default target: all)"
	@awk -F ':[^#]*## ' '/^[a-z][a-z%-]*:[^=].*## / { sub(/%/, "NAME", $$1); printf "  %-19s %s\n", $$1, $$2 }' Makefile

# --- compile rules, one set per host variant -------------------------------
define VARIANT
$(BUILD)/obj/$(1)/core/%.o: core/%.c $(wildcard core/include/sched/*.h core/src/*.h) Makefile
	@mkdir -p $$(@D)
	$$(CC) $(CORE_WARN) $(CFLAGS_$(1)) $(INC) -c $$< -o $$@
$(BUILD)/obj/$(1)/fixture/%.o: fixture/%.c $(wildcard core/include/sched/*.h) $(FIX_HDRS) Makefile
	@mkdir -p $$(@D)
	$$(CC) $(CORE_WARN) $(CFLAGS_$(1)) $(INC) -c $$< -o $$@
$(BUILD)/obj/$(1)/%.o: %.c $(wildcard core/include/sched/*.h core/src/*.h) $(FIX_HDRS) $(wildcard port/*.h trace/*.h sim_host/*.h common/*.h tools/*.h tests/harness/*.h tests/unit/*.h tests/prop/*.h firmware/*.h bridge/*.h)
	@mkdir -p $$(@D)
	$$(CC) $(WARN) $(CFLAGS_$(1)) $$(CPPFLAGS_RUN) $(INC) $$(if $$(filter tests/unit/%,$$<),$(TEST_INC)) -c $$< -o $$@
# run.o carries the version: rebuilt whenever the stamp below changes.
$(BUILD)/obj/$(1)/sim_host/run.o: $(BUILD)/version.stamp
$(BUILD)/obj/$(1)/sim_host/run.o: CPPFLAGS_RUN = -DREPLAY_VERSION='"$(VERSION)"'
$(BUILD)/$(1)/libsched.a: $(call obj,$(1),$(CORE_SRC) $(PORT_SRC))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/libfixture.a: $(call obj,$(1),$(FIX_SRC))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/libtrace.a: $(call obj,$(1),$(TRACE_LIB_SRC))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/libsim.a: $(call obj,$(1),$(SIM_LIB_SRC))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/libcommon.a: $(call obj,$(1),$(COMMON_SRC))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/replay: $(call obj,$(1),$(SIM_MAIN_SRC)) $(BUILD)/$(1)/libsim.a $(BUILD)/$(1)/libcommon.a $(BUILD)/$(1)/libtrace.a \
		$(BUILD)/$(1)/libfixture.a $(BUILD)/$(1)/libsched.a
	$$(CC) $(LDFLAGS_$(1)) $$^ -lz -lm -o $$@
$(BUILD)/$(1)/checker $(BUILD)/$(1)/gang_checker: \
		$(BUILD)/$(1)/%: $(call obj,$(1),tests/prop/%.c tests/prop/violation.c) $(BUILD)/$(1)/libtrace.a \
		$(BUILD)/$(1)/libfixture.a $(BUILD)/$(1)/libsched.a
	$$(CC) $(LDFLAGS_$(1)) $$^ -lz -lm -o $$@
$(BUILD)/$(1)/libfw.a: $(call obj,$(1),firmware/durable.c)
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/libtools.a: $(call obj,$(1),tools/trace_stats.c)
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/swf2fix $(BUILD)/$(1)/fix2swf $(BUILD)/$(1)/fixinfo $(BUILD)/$(1)/wlgen: \
		$(BUILD)/$(1)/%: $(call obj,$(1),tools/%.c) $(BUILD)/$(1)/libtools.a $(BUILD)/$(1)/libtrace.a \
		$(BUILD)/$(1)/libfixture.a $(BUILD)/$(1)/libsched.a
	$$(CC) $(LDFLAGS_$(1)) $$^ -lz -lm -o $$@
$(BUILD)/$(1)/sweep: $(call obj,$(1),tools/sweep.c tools/sweep_exp.c tools/sweep_sum.c) $(BUILD)/$(1)/libcommon.a $(BUILD)/$(1)/libsched.a
	$$(CC) $(LDFLAGS_$(1)) $$^ -lm -o $$@
$(BUILD)/$(1)/bridge: $(call obj,$(1),$(BRIDGE_SRC)) $(BUILD)/$(1)/libsched.a
	$$(CC) $(LDFLAGS_$(1)) $$^ -o $$@
$(BUILD)/$(1)/bridge_check $(BUILD)/$(1)/slurm_check: $(BUILD)/$(1)/%: $(call obj,$(1),tests/bridge/%.c)
	$$(CC) $(LDFLAGS_$(1)) $$^ -o $$@
$(BUILD)/$(1)/killrestart: $(call obj,$(1),tests/store/killrestart.c)
	$$(CC) $(LDFLAGS_$(1)) $$^ -o $$@
$(BUILD)/$(1)/randwl: $(call obj,$(1),tests/prop/randwl.c)
	$$(CC) $(LDFLAGS_$(1)) $$^ -o $$@
$(BUILD)/$(1)/pngstat: $(call obj,$(1),tests/tools/pngstat.c)
	$$(CC) $(LDFLAGS_$(1)) $$^ -lz -o $$@
$(BUILD)/$(1)/slowprog: $(call obj,$(1),tests/tools/slowprog.c) $(BUILD)/$(1)/libcommon.a
	$$(CC) $(LDFLAGS_$(1)) $$^ -o $$@
$(BUILD)/$(1)/test_%: $(call obj,$(1),tests/unit/test_%.c tests/harness/harness.c) $(BUILD)/$(1)/libsim.a $(BUILD)/$(1)/libcommon.a \
		$(BUILD)/$(1)/libfw.a $(BUILD)/$(1)/libtrace.a \
		$(BUILD)/$(1)/libfixture.a $(BUILD)/$(1)/libsched.a
	$$(CC) $(LDFLAGS_$(1)) $$^ -lz -lm -o $$@
endef
$(eval $(call VARIANT,rel))
$(eval $(call VARIANT,san))

# Rewritten only when the version changes, so run.o is rebuilt then and only then.
$(BUILD)/version.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' >$@
FORCE:

$(BUILD)/replay $(addprefix $(BUILD)/,$(TOOLS)): $(BUILD)/%: $(BUILD)/rel/%
	cp $< $@

# --- the core for the target: freestanding, Cortex-M3 ----------------------
ARM_FLAGS := -mcpu=cortex-m3 -mthumb -ffreestanding -nostdlib -Os -ffunction-sections
$(BUILD)/obj/arm/%.o: %.c $(wildcard core/include/sched/*.h core/src/*.h) Makefile
	@mkdir -p $(@D)
	$(ARM_CC) $(CORE_WARN) $(ARM_FLAGS) -Icore/include -c $< -o $@
$(BUILD)/obj/arm/fixture/%.o: fixture/%.c $(wildcard core/include/sched/*.h) $(FIX_HDRS) Makefile
	@mkdir -p $(@D)
	$(ARM_CC) $(CORE_WARN) $(ARM_FLAGS) -Icore/include -Ifixture/include -c $< -o $@
$(BUILD)/arm/libsched.a: $(call obj,arm,$(CORE_SRC))
	@mkdir -p $(@D)
	rm -f $@ && arm-none-eabi-ar rcs $@ $^
$(BUILD)/arm/libfixture.a: $(call obj,arm,$(FIX_SRC))
	@mkdir -p $(@D)
	rm -f $@ && arm-none-eabi-ar rcs $@ $^

check-freestanding: $(BUILD)/arm/libsched.a $(BUILD)/arm/libfixture.a ## the core and the fixture codec built for Cortex-M3, and their check that they call no libc
	ARM_NM=$(ARM_NM) tests/freestanding.sh $^

# --- main job, tests, benchmarks ------------------------------------------
KTH := fixtures/KTH-SP2-1996-2.1-cln.fix
run: all ## replay the bundled KTH SP2 trace under FCFS, EASY and conservative (builds what make does)
	$(BUILD)/replay --policy fcfs,easy,cons $(KTH)

deps: ## install the Debian packages the tests need (as root), or name them
	@tests/ensure-deps.sh

# What the tests run: the san builds, the fuzz targets, the firmware, and what make builds (the
# tests read build/replay and build/fixinfo, and the tools are there after make test as after make).
TEST_BUILD := $(addprefix $(BUILD)/san/,$(UNIT_NAMES) replay checker gang_checker randwl killrestart pngstat slowprog bridge_check slurm_check $(TOOLS)) \
              all fuzz-build firmware-all
test-build: $(TEST_BUILD) ## build everything make test runs, without running it

test: deps ## every test, under ASan/UBSan; installs what it needs (as root); ends with "N passed, N failed"
	$(MAKE) --no-print-directory -j2 test-build $(BUILD)/arm/libsched.a $(BUILD)/arm/libfixture.a
	BUILD=$(BUILD) tests/run.sh

# The regression oracle, every row (make test checks the quick ones): tests/oracle/.
oracle: $(BUILD)/replay $(BUILD)/fixinfo ## every row of the regression oracle (make test checks the quick ones): tests/oracle/
	BUILD=$(BUILD) tests/oracle/oracle.sh --check

bench: $(BUILD)/replay $(BUILD)/wlgen $(BUILD)/fixinfo $(BUILD)/swf2fix ## host benchmarks into docs/benchmarks.md (the replayer's overhead and peak memory too; BASE=old/replay compares), docs/bench-load.md and docs/gang-cost.md
	BUILD=$(BUILD) tools/bench.sh
	BUILD=$(BUILD) tools/bench_overhead.sh
	BUILD=$(BUILD) tools/bench_memory.sh
	BUILD=$(BUILD) tools/bench_load.sh
	BUILD=$(BUILD) tools/gang_bench.sh

bench-load: $(BUILD)/replay ## the planning policies under load (shrink x policy x trace, CPU per job, mean queue) into docs/bench-load.md; CAP=600 seconds a cell
	BUILD=$(BUILD) tools/bench_load.sh

bench-bridge: $(BUILD)/bridge $(BUILD)/console $(BUILD)/fw/netduinoplus2/firmware.elf ## the bridge's latencies, submit rate and reset cost (host twin and board under QEMU), into docs/bridge-bench.md
	BUILD=$(BUILD) tools/bench_bridge.sh

gang-bench: $(BUILD)/replay $(BUILD)/wlgen ## the gang-scheduling cost alone, into docs/gang-cost.md
	BUILD=$(BUILD) tools/gang_bench.sh

clean: ## remove build/
	rm -rf $(BUILD)

# --- fuzzing (clang's libFuzzer) ---------------------------------------------
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(INC)
$(BUILD)/fuzz/fuzz_fixture: tests/fuzz/fuzz_fixture.c $(FIX_SRC) $(wildcard core/include/sched/*.h) $(FIX_HDRS)
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) tests/fuzz/fuzz_fixture.c $(FIX_SRC) -o $@
$(BUILD)/fuzz/fuzz_swf: tests/fuzz/fuzz_swf.c trace/swf.c trace/swf.h
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) tests/fuzz/fuzz_swf.c trace/swf.c -lz -lm -o $@
# make fuzz builds the targets and runs each for FUZZ_SECONDS (default 60 here; make test gives
# each 20, tests/fuzz/fuzz.sh); fuzz-build only builds them.
FUZZ_TARGETS := $(BUILD)/fuzz/fuzz_fixture $(BUILD)/fuzz/fuzz_swf $(BUILD)/fuzz/fuzz_console
fuzz-build: $(FUZZ_TARGETS) ## build the libFuzzer targets (clang)
fuzz: fuzz-build ## run each libFuzzer target for FUZZ_SECONDS (default 60)
	FUZZ_SECONDS=$${FUZZ_SECONDS:-60} BUILD=$(BUILD) tests/fuzz/fuzz.sh

# --- fixtures: regenerated from their sources on demand; a test checks the committed copies
fixtures: $(BUILD)/swf2fix $(BUILD)/fixinfo ## regenerate the binary fixtures and fixtures/README.md from the SWF traces
	BUILD=$(BUILD) tools/mkfixtures.sh

trace-report: $(BUILD)/fixinfo $(BUILD)/wlgen ## the traces against Streit 2002 Table 2, into docs/traces.md
	BUILD=$(BUILD) tools/trace_report.sh

backfill-report: $(BUILD)/replay ## EASY vs conservative on KTH (Feitelson and Mu'alem Weil 1998), into docs/backfill-results.md
	BUILD=$(BUILD) tools/backfill_report.sh

priorities-report: $(BUILD)/replay $(BUILD)/sweep ## relaxed and slack-based backfilling (Talby and Feitelson 1999; Spear and McGalliard 2007), into docs/priorities-results.md
	BUILD=$(BUILD) tools/priorities_report.sh

dynp-report: $(BUILD)/replay $(BUILD)/sweep $(BUILD)/wlgen $(BUILD)/fixinfo ## the dynP family (Streit 2002), into docs/dynp-results.md
	BUILD=$(BUILD) tools/dynp_report.sh

gang-report: $(BUILD)/replay $(BUILD)/sweep $(BUILD)/wlgen ## gang scheduling (Zhou, Walsh and Brent 2000), into docs/gang-results.md
	BUILD=$(BUILD) tools/gang_report.sh

fidelity: $(BUILD)/replay ## docs/fidelity.md: every paper's claims and verdicts and the tallies, from the four reports (run them first), and the starts that conservative's compress-at moves
	B=$(BUILD) tools/fidelity.sh

# The reports above write their figures' data into docs/figures/data/ (committed); this draws them.
figures: ## the papers' figures the reports reproduce, drawn by gnuplot from docs/figures/data/*.csv into docs/figures/*.svg
	tools/figures.sh

# --- the firmware: one folder per board under port/, each with a port.mk ----------
# A port.mk adds its name to PORTS and sets FW_CPU_<name>, FW_LD_<name>,
# FW_SRC_<name> and QEMU_<name>; nothing here names a board.
PORTS :=
include $(sort $(wildcard port/*/port.mk))
PORT ?= netduinoplus2
ifeq ($(filter $(PORT),$(PORTS)),)
$(error unknown PORT '$(PORT)': one of $(PORTS))
endif
# The console, the same on every board and in the host twin: a new command is one firmware/cmd_*.c
# file and one line of firmware/commands.h, no edit here. Its replay cleans a fixture's jobs with the
# host's rule, trace/clean.c (freestanding).
CONSOLE_SRC := firmware/console.c firmware/console_err.c firmware/line.c firmware/view.c $(sort $(wildcard firmware/cmd_*.c)) \
               firmware/fmt.c firmware/bench.c firmware/fixtures.c firmware/durable.c firmware/persist.c \
               trace/clean.c
FW_APP_SRC := $(CONSOLE_SRC) firmware/main.c port/cortex-m/startup.c port/cortex-m/port_cortex_m.c \
              port/cortex-m/store_semihost.c
FW_FIXTURES := fixtures/KTH-SP2-1996-2.1-cln.fix fixtures/peek.fix
FW_INC := -Icore/include -Ifixture/include -Iport -Iport/cortex-m -Ifirmware -Itrace
FW_OPT := -O2 -g -ffunction-sections -fdata-sections
FW_HDRS := $(wildcard core/include/sched/*.h core/src/*.h port/*.h port/cortex-m/*.h firmware/*.h) $(FIX_HDRS) trace/clean.h \
           Makefile

define FIRMWARE
$(BUILD)/fw/$(1)/core/%.o: core/%.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$(ARM_CC) $(CORE_WARN) $(FW_CPU_$(1)) $(FW_OPT) $(FW_INC) -c $$< -o $$@
$(BUILD)/fw/$(1)/fixture/%.o: fixture/%.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$(ARM_CC) $(CORE_WARN) $(FW_CPU_$(1)) $(FW_OPT) $(FW_INC) -c $$< -o $$@
$(BUILD)/fw/$(1)/%.o: %.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$(ARM_CC) $(WARN) -ffreestanding $(FW_CPU_$(1)) $(FW_OPT) $(FW_INC) -c $$< -o $$@
$(BUILD)/fw/$(1)/firmware/fixtures_blob.o: firmware/fixtures_blob.S $(FW_FIXTURES)
	@mkdir -p $$(@D)
	$(ARM_CC) $(FW_CPU_$(1)) -c $$< -o $$@
$(BUILD)/fw/$(1)/firmware.elf: $(patsubst %.c,$(BUILD)/fw/$(1)/%.o,$(CORE_SRC) $(FIX_SRC) $(FW_APP_SRC) $(FW_SRC_$(1))) \
		$(BUILD)/fw/$(1)/firmware/fixtures_blob.o $(FW_LD_$(1)) port/cortex-m/sections.ld
	$(ARM_CC) $(FW_CPU_$(1)) -nostdlib -nostartfiles -Wl,--gc-sections -Wl,-Map=$$@.map \
		-T $(FW_LD_$(1)) $$(filter %.o,$$^) -lgcc -o $$@
endef
$(foreach p,$(PORTS),$(eval $(call FIRMWARE,$(p))))

firmware: $(BUILD)/fw/$(PORT)/firmware.elf ## the console firmware for PORT (default netduinoplus2): build/fw/PORT/firmware.elf
firmware-all: $(foreach p,$(PORTS),$(BUILD)/fw/$(p)/firmware.elf) ## the firmware for every board under port/

# The host twin: the same console over stdin/stdout.
$(BUILD)/obj/%/firmware/fixtures_blob.o: firmware/fixtures_blob.S $(FW_FIXTURES)
	@mkdir -p $(@D)
	$(CC) -c $< -o $@
TWIN_SRC := $(CONSOLE_SRC) firmware/twin_main.c
$(BUILD)/rel/console: $(call obj,rel,$(TWIN_SRC)) $(BUILD)/obj/rel/firmware/fixtures_blob.o $(BUILD)/rel/libfixture.a \
		$(BUILD)/rel/libsched.a
	$(CC) $(LDFLAGS_rel) $^ -o $@
$(BUILD)/san/console: $(call obj,san,$(TWIN_SRC)) $(BUILD)/obj/san/firmware/fixtures_blob.o $(BUILD)/san/libfixture.a \
		$(BUILD)/san/libsched.a
	$(CC) $(LDFLAGS_san) $^ -o $@
# The board's line with its non-volatile store in STORE (docs/port-guide.md): the firmware's semihosting
# command line becomes "firmware --store STORE". A second -semihosting-config adds to the port.mk's (QEMU
# merges them), so a port.mk line must carry no arg= of its own: QEMU would repeat it.
comma := ,
print-qemu-store: ## the QEMU command line for PORT with its store in STORE=FILE
	$(if $(STORE),,$(error print-qemu-store needs STORE=FILE))
	@echo $(QEMU_$(PORT)) -semihosting-config arg=firmware$(comma)arg=--store$(comma)arg=$(subst $(comma),$(comma)$(comma),$(STORE))
# The console under libFuzzer: the twin's code with the fuzz port (output captured, no store) and
# small fixtures in place of the image's (KTH takes seconds to replay). A job table of 64, not 864:
# every input starts with sched_init, O(max_jobs), so it runs 1.7 times as many inputs a second, and
# an input of libFuzzer's size can fill it. Here, below CONSOLE_SRC and FW_HDRS, because a rule's
# prerequisites are expanded where it is read.
FUZZ_CONSOLE_SRC := tests/fuzz/fuzz_console.c tests/fuzz/port_fuzz.c $(filter-out firmware/fixtures.c,$(CONSOLE_SRC)) \
                    $(CORE_SRC) $(FIX_SRC)
$(BUILD)/fuzz/fuzz_console: $(FUZZ_CONSOLE_SRC) tests/fuzz/port_fuzz.h tests/fuzz/fuzz_fixtures.S $(FW_HDRS) \
		fixtures/peek.fix $(wildcard tests/data/corrupt/*.fix)
	@mkdir -p $(@D)
	clang $(WARN) $(FUZZ_FLAGS) -DSCHED_DEBUG -DCONSOLE_MAX_JOBS=64u -DCONSOLE_SCRATCH_JOBS=32u -Itests/fuzz $(FUZZ_CONSOLE_SRC) tests/fuzz/fuzz_fixtures.S -o $@
print-qemu: ## the QEMU command line for PORT (then -kernel build/fw/PORT/firmware.elf)
	@echo $(QEMU_$(PORT))
print-ports: ## the boards (PORT values)
	@echo $(PORTS)

bench-target: $(BUILD)/fw/netduinoplus2/firmware.elf ## instructions per operation on the Netduino Plus 2 under QEMU, into docs/bench-target.md
	BUILD=$(BUILD) tools/bench_target.sh

size: firmware-all ## flash and RAM of every board, into docs/size.md
	BUILD=$(BUILD) tools/size.sh
print-var-%: ## the value of a Makefile variable, e.g. make print-var-CC
	@echo $($*)
