# SPDX-License-Identifier: MIT
# One plain GNU Makefile. Objects go under build/obj/<variant>/, programs under build/.
#   make            build/replay (optimised)
#   make run        replay the bundled KTH SP2 trace under FCFS, EASY and conservative
#   make test       every test, under ASan/UBSan; installs what it needs (as root)
#   make bench      benchmarks into docs/benchmarks.md and docs/gang-cost.md
#   make backfill-report   EASY vs conservative on KTH (Feitelson and Mu'alem Weil 1998) into docs/backfill-results.md
#   make check-freestanding   the core for Cortex-M3, and its symbol check

BUILD   := build
CC      ?= gcc
ARM_CC  ?= arm-none-eabi-gcc
ARM_NM  ?= arm-none-eabi-nm

WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -fno-common
# The core is freestanding and held to -Wconversion as well.
# -fno-tree-loop-distribute-patterns: GCC would turn the byte loops of util.h back into
# memset/memcpy calls, which a freestanding core must not reference.
CORE_WARN := $(WARN) -Wconversion -ffreestanding -fno-tree-loop-distribute-patterns
INC     := -Icore/include -Iport -Itrace -Isim_host -Itools -Ifirmware -Itests/harness
# Unit tests also reach the core's private headers.
TEST_INC := -Icore/src

# Host variants: rel (what users run) and san (what the tests run).
CFLAGS_rel := -O2 -g
CFLAGS_san := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
              -fno-sanitize-recover=all -DSCHED_DEBUG -DSCHED_FAILPOINTS
LDFLAGS_rel :=
LDFLAGS_san := -fsanitize=address,undefined

CORE_SRC := $(wildcard core/src/*.c)
PORT_SRC := port/host/port_host.c
# The trace library: SWF and fixture files, time zones, site files, the cleaning conventions.
TRACE_LIB_SRC := trace/swf.c trace/fixture_io.c trace/tz.c trace/site.c trace/workload.c
# The replayer's own library: the host replay loops and the reports.
SIM_LIB_SRC := sim_host/replay.c sim_host/report.c sim_host/gang_replay.c sim_host/pictures.c
SIM_MAIN_SRC := sim_host/main.c sim_host/options.c sim_host/policy_opts.c sim_host/run.c
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_NAMES := $(patsubst tests/unit/%.c,%,$(UNIT_SRC))

TOOLS := swf2fix fix2swf fixinfo wlgen console

obj = $(patsubst %.c,$(BUILD)/obj/$(1)/%.o,$(2))

.PHONY: all run test test-build oracle bench check-freestanding deps clean help fuzz fuzz-build fixtures trace-report backfill-report priorities-report dynp-report gang-report gang-bench firmware firmware-all size bench-target
all: $(BUILD)/replay $(addprefix $(BUILD)/,$(TOOLS))

help:
	@sed -n '2,9p' Makefile | sed 's/^# \{0,1\}//'

# --- compile rules, one set per host variant -------------------------------
define VARIANT
$(BUILD)/obj/$(1)/core/%.o: core/%.c $(wildcard core/include/sched/*.h core/src/*.h) Makefile
	@mkdir -p $$(@D)
	$$(CC) $(CORE_WARN) $(CFLAGS_$(1)) $(INC) -c $$< -o $$@
$(BUILD)/obj/$(1)/%.o: %.c $(wildcard core/include/sched/*.h core/src/*.h port/*.h trace/*.h sim_host/*.h tools/*.h tests/harness/*.h tests/unit/*.h tests/prop/*.h firmware/*.h)
	@mkdir -p $$(@D)
	$$(CC) $(WARN) $(CFLAGS_$(1)) $(INC) $$(if $$(filter tests/unit/%,$$<),$(TEST_INC)) -c $$< -o $$@
$(BUILD)/$(1)/libsched.a: $(call obj,$(1),$(CORE_SRC) $(PORT_SRC))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/libtrace.a: $(call obj,$(1),$(TRACE_LIB_SRC))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/libsim.a: $(call obj,$(1),$(SIM_LIB_SRC))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/replay: $(call obj,$(1),$(SIM_MAIN_SRC)) $(BUILD)/$(1)/libsim.a $(BUILD)/$(1)/libtrace.a \
		$(BUILD)/$(1)/libsched.a
	$$(CC) $(LDFLAGS_$(1)) $$^ -lz -lm -o $$@
$(BUILD)/$(1)/checker $(BUILD)/$(1)/gang_checker: \
		$(BUILD)/$(1)/%: $(call obj,$(1),tests/prop/%.c tests/prop/violation.c) $(BUILD)/$(1)/libtrace.a \
		$(BUILD)/$(1)/libsched.a
	$$(CC) $(LDFLAGS_$(1)) $$^ -lz -lm -o $$@
$(BUILD)/$(1)/libfw.a: $(call obj,$(1),firmware/durable.c)
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/libtools.a: $(call obj,$(1),tools/trace_stats.c)
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
$(BUILD)/$(1)/swf2fix $(BUILD)/$(1)/fix2swf $(BUILD)/$(1)/fixinfo $(BUILD)/$(1)/wlgen: \
		$(BUILD)/$(1)/%: $(call obj,$(1),tools/%.c) $(BUILD)/$(1)/libtools.a $(BUILD)/$(1)/libtrace.a $(BUILD)/$(1)/libsched.a
	$$(CC) $(LDFLAGS_$(1)) $$^ -lz -lm -o $$@
$(BUILD)/$(1)/killrestart: $(call obj,$(1),tests/store/killrestart.c)
	$$(CC) $(LDFLAGS_$(1)) $$^ -o $$@
$(BUILD)/$(1)/randwl: $(call obj,$(1),tests/prop/randwl.c)
	$$(CC) $(LDFLAGS_$(1)) $$^ -o $$@
$(BUILD)/$(1)/test_%: $(call obj,$(1),tests/unit/test_%.c tests/harness/harness.c) $(BUILD)/$(1)/libsim.a $(BUILD)/$(1)/libfw.a $(BUILD)/$(1)/libtrace.a \
		$(BUILD)/$(1)/libsched.a
	$$(CC) $(LDFLAGS_$(1)) $$^ -lz -lm -o $$@
endef
$(eval $(call VARIANT,rel))
$(eval $(call VARIANT,san))

$(BUILD)/replay $(addprefix $(BUILD)/,$(TOOLS)): $(BUILD)/%: $(BUILD)/rel/%
	cp $< $@

# --- the core for the target: freestanding, Cortex-M3 ----------------------
ARM_FLAGS := -mcpu=cortex-m3 -mthumb -ffreestanding -nostdlib -Os -ffunction-sections
$(BUILD)/obj/arm/%.o: %.c $(wildcard core/include/sched/*.h core/src/*.h) Makefile
	@mkdir -p $(@D)
	$(ARM_CC) $(CORE_WARN) $(ARM_FLAGS) -Icore/include -c $< -o $@
$(BUILD)/arm/libsched.a: $(call obj,arm,$(CORE_SRC))
	@mkdir -p $(@D)
	rm -f $@ && arm-none-eabi-ar rcs $@ $^

check-freestanding: $(BUILD)/arm/libsched.a
	ARM_NM=$(ARM_NM) tests/freestanding.sh $<

# --- main job, tests, benchmarks ------------------------------------------
KTH := fixtures/KTH-SP2-1996-2.1-cln.fix
run: $(BUILD)/replay
	$(BUILD)/replay --policy fcfs,easy,cons $(KTH)

deps:
	@tests/ensure-deps.sh

test-build: $(addprefix $(BUILD)/san/,$(UNIT_NAMES) replay checker gang_checker randwl killrestart $(TOOLS)) $(BUILD)/replay \
	$(BUILD)/fixinfo fuzz-build \
	firmware-all

test: deps
	$(MAKE) --no-print-directory -j2 test-build $(BUILD)/arm/libsched.a
	BUILD=$(BUILD) tests/run.sh

# The regression oracle, every row (make test checks the quick ones): tests/oracle/.
oracle: $(BUILD)/replay $(BUILD)/fixinfo
	BUILD=$(BUILD) tests/oracle/oracle.sh --check

bench: $(BUILD)/replay $(BUILD)/wlgen
	BUILD=$(BUILD) tools/bench.sh
	BUILD=$(BUILD) tools/gang_bench.sh

gang-bench: $(BUILD)/replay $(BUILD)/wlgen
	BUILD=$(BUILD) tools/gang_bench.sh

clean:
	rm -rf $(BUILD)

# --- fuzzing (clang's libFuzzer) ---------------------------------------------
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(INC)
$(BUILD)/fuzz/fuzz_fixture: tests/fuzz/fuzz_fixture.c core/src/fixture.c $(wildcard core/include/sched/*.h)
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) tests/fuzz/fuzz_fixture.c core/src/fixture.c -o $@
$(BUILD)/fuzz/fuzz_swf: tests/fuzz/fuzz_swf.c trace/swf.c trace/swf.h
	@mkdir -p $(@D)
	clang $(FUZZ_FLAGS) tests/fuzz/fuzz_swf.c trace/swf.c -lz -lm -o $@
# make fuzz builds the targets and runs each for FUZZ_SECONDS (default 60 here; make test gives
# each 20, tests/fuzz/fuzz.sh); fuzz-build only builds them.
FUZZ_TARGETS := $(BUILD)/fuzz/fuzz_fixture $(BUILD)/fuzz/fuzz_swf $(BUILD)/fuzz/fuzz_console
fuzz-build: $(FUZZ_TARGETS)
fuzz: fuzz-build
	FUZZ_SECONDS=$${FUZZ_SECONDS:-60} BUILD=$(BUILD) tests/fuzz/fuzz.sh

# --- fixtures: regenerated from their sources on demand; a test checks the committed copies
fixtures: $(BUILD)/swf2fix $(BUILD)/fixinfo
	BUILD=$(BUILD) tools/mkfixtures.sh

trace-report: $(BUILD)/fixinfo $(BUILD)/wlgen
	BUILD=$(BUILD) tools/trace_report.sh

backfill-report: $(BUILD)/replay
	BUILD=$(BUILD) tools/backfill_report.sh

priorities-report: $(BUILD)/replay
	BUILD=$(BUILD) tools/priorities_report.sh

dynp-report: $(BUILD)/replay $(BUILD)/wlgen
	BUILD=$(BUILD) tools/dynp_report.sh

gang-report: $(BUILD)/replay $(BUILD)/wlgen
	BUILD=$(BUILD) tools/gang_report.sh

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
# file and one line of firmware/commands.h, no edit here.
CONSOLE_SRC := firmware/console.c firmware/line.c firmware/view.c $(sort $(wildcard firmware/cmd_*.c)) \
               firmware/fmt.c firmware/bench.c firmware/fixtures.c firmware/durable.c firmware/persist.c
FW_APP_SRC := $(CONSOLE_SRC) firmware/main.c port/cortex-m/startup.c port/cortex-m/port_cortex_m.c \
              port/cortex-m/store_semihost.c
FW_FIXTURES := fixtures/KTH-SP2-1996-2.1-cln.fix fixtures/peek.fix
FW_INC := -Icore/include -Iport -Iport/cortex-m -Ifirmware
FW_OPT := -O2 -g -ffunction-sections -fdata-sections
FW_HDRS := $(wildcard core/include/sched/*.h core/src/*.h port/*.h port/cortex-m/*.h firmware/*.h) Makefile

define FIRMWARE
$(BUILD)/fw/$(1)/core/%.o: core/%.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$(ARM_CC) $(CORE_WARN) $(FW_CPU_$(1)) $(FW_OPT) $(FW_INC) -c $$< -o $$@
$(BUILD)/fw/$(1)/%.o: %.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$(ARM_CC) $(WARN) -ffreestanding $(FW_CPU_$(1)) $(FW_OPT) $(FW_INC) -c $$< -o $$@
$(BUILD)/fw/$(1)/firmware/fixtures_blob.o: firmware/fixtures_blob.S $(FW_FIXTURES)
	@mkdir -p $$(@D)
	$(ARM_CC) $(FW_CPU_$(1)) -c $$< -o $$@
$(BUILD)/fw/$(1)/firmware.elf: $(patsubst %.c,$(BUILD)/fw/$(1)/%.o,$(CORE_SRC) $(FW_APP_SRC) $(FW_SRC_$(1))) \
		$(BUILD)/fw/$(1)/firmware/fixtures_blob.o $(FW_LD_$(1)) port/cortex-m/sections.ld
	$(ARM_CC) $(FW_CPU_$(1)) -nostdlib -nostartfiles -Wl,--gc-sections -Wl,-Map=$$@.map \
		-T $(FW_LD_$(1)) $$(filter %.o,$$^) -lgcc -o $$@
endef
$(foreach p,$(PORTS),$(eval $(call FIRMWARE,$(p))))

firmware: $(BUILD)/fw/$(PORT)/firmware.elf
firmware-all: $(foreach p,$(PORTS),$(BUILD)/fw/$(p)/firmware.elf)

# The host twin: the same console over stdin/stdout.
$(BUILD)/obj/%/firmware/fixtures_blob.o: firmware/fixtures_blob.S $(FW_FIXTURES)
	@mkdir -p $(@D)
	$(CC) -c $< -o $@
TWIN_SRC := $(CONSOLE_SRC) firmware/twin_main.c
$(BUILD)/rel/console: $(call obj,rel,$(TWIN_SRC)) $(BUILD)/obj/rel/firmware/fixtures_blob.o $(BUILD)/rel/libsched.a
	$(CC) $(LDFLAGS_rel) $^ -o $@
$(BUILD)/san/console: $(call obj,san,$(TWIN_SRC)) $(BUILD)/obj/san/firmware/fixtures_blob.o $(BUILD)/san/libsched.a
	$(CC) $(LDFLAGS_san) $^ -o $@
# The board's line with its non-volatile store in STORE (docs/port-guide.md): the firmware's semihosting
# command line becomes "firmware --store STORE". A second -semihosting-config adds to the port.mk's (QEMU
# merges them), so a port.mk line must carry no arg= of its own: QEMU would repeat it.
comma := ,
print-qemu-store:
	$(if $(STORE),,$(error print-qemu-store needs STORE=FILE))
	@echo $(QEMU_$(PORT)) -semihosting-config arg=firmware$(comma)arg=--store$(comma)arg=$(subst $(comma),$(comma)$(comma),$(STORE))
# The console under libFuzzer: the twin's code with the fuzz port (output captured, no store) and
# small fixtures in place of the image's (KTH takes seconds to replay). A job table of 64, not 864:
# every input starts with sched_init, O(max_jobs), so it runs 1.7 times as many inputs a second, and
# an input of libFuzzer's size can fill it. Here, below CONSOLE_SRC and FW_HDRS, because a rule's
# prerequisites are expanded where it is read.
FUZZ_CONSOLE_SRC := tests/fuzz/fuzz_console.c tests/fuzz/port_fuzz.c $(filter-out firmware/fixtures.c,$(CONSOLE_SRC)) \
                    $(CORE_SRC)
$(BUILD)/fuzz/fuzz_console: $(FUZZ_CONSOLE_SRC) tests/fuzz/port_fuzz.h tests/fuzz/fuzz_fixtures.S $(FW_HDRS) \
		fixtures/peek.fix $(wildcard tests/data/corrupt/*.fix)
	@mkdir -p $(@D)
	clang $(WARN) $(FUZZ_FLAGS) -DSCHED_DEBUG -DCONSOLE_MAX_JOBS=64u -DCONSOLE_SCRATCH_JOBS=32u -Itests/fuzz $(FUZZ_CONSOLE_SRC) tests/fuzz/fuzz_fixtures.S -o $@
print-qemu:
	@echo $(QEMU_$(PORT))
print-ports:
	@echo $(PORTS)

bench-target: $(BUILD)/fw/netduinoplus2/firmware.elf
	BUILD=$(BUILD) tools/bench_target.sh

size: firmware-all
	BUILD=$(BUILD) tools/size.sh
print-var-%:
	@echo $($*)
