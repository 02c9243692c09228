#!/usr/bin/env bash
# The core, compiled for Cortex-M3 freestanding, references nothing but its
# assertion hook and libgcc's helpers: no malloc/calloc/realloc/free, no
# printf or any other stdio/libc symbol. Prints TEST lines for tests/run.sh.
set -u
lib=${1:?usage: freestanding.sh build/arm/libsched.a}
NM=${ARM_NM:-arm-none-eabi-nm}
LD=${ARM_LD:-arm-none-eabi-ld}
CC=${ARM_CC:-arm-none-eabi-gcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Undefined symbols of an object that are not allowed.
forbidden() {
	"$NM" -u "$1" | awk '{print $NF}' | grep -Ev '^(sched_assert_failed|__aeabi_[a-z0-9_]+)$'
}

# 1. The checker must reject an object that calls malloc and printf.
cat > "$tmp/canary.c" <<'C'
void *malloc(unsigned int n);
int printf(const char *f, ...);
void canary(void) { printf("%p", malloc(4)); }
C
if "$CC" -mcpu=cortex-m3 -mthumb -ffreestanding -c "$tmp/canary.c" -o "$tmp/canary.o" 2>/dev/null &&
	forbidden "$tmp/canary.o" | grep -qx malloc && forbidden "$tmp/canary.o" | grep -qx printf; then
	echo "TEST freestanding.checker_rejects_canary PASS"
else
	echo "TEST freestanding.checker_rejects_canary FAIL the symbol check did not flag malloc/printf"
fi

# 2. The whole core, linked into one relocatable object.
if ! "$LD" -r --whole-archive "$lib" -o "$tmp/core.o"; then
	echo "TEST freestanding.core_links_relocatable FAIL ld -r failed"
	exit 1
fi
echo "TEST freestanding.core_links_relocatable PASS"
bad=$(forbidden "$tmp/core.o" | tr '\n' ' ')
if [ -z "$bad" ]; then
	echo "TEST freestanding.core_references_no_libc PASS"
else
	echo "TEST freestanding.core_references_no_libc FAIL undefined: $bad"
fi
# 3. No writable global state in the core: every object lives in the caller's scheduler.
data=$("$NM" "$tmp/core.o" | awk '$2 ~ /^[bBdDcC]$/ {print $3}' | tr '\n' ' ')
if [ -z "$data" ]; then
	echo "TEST freestanding.core_has_no_mutable_globals PASS"
else
	echo "TEST freestanding.core_has_no_mutable_globals FAIL: $data"
fi
