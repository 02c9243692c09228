#!/usr/bin/env bash
# The core (and the fixture codec beside it), compiled for Cortex-M3 freestanding,
# reference nothing but the core's assertion hook and libgcc's helpers: no
# malloc/calloc/realloc/free, no printf or any other stdio/libc symbol. Prints
# TEST lines for tests/run.sh.
set -u
: "${1:?usage: freestanding.sh build/arm/libsched.a [build/arm/libfixture.a ...]}"
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

# 2. Each library (the core, the fixture codec beside it), linked into one relocatable object.
# Its TEST names: core_* for libsched.a (as they always were), fixture_* for libfixture.a.
for lib in "$@"; do
	name=$(basename "$lib" .a)
	name=${name#lib}
	[ "$name" = sched ] && name=core
	if ! "$LD" -r --whole-archive "$lib" -o "$tmp/$name.o"; then
		echo "TEST freestanding.${name}_links_relocatable FAIL ld -r failed"
		continue
	fi
	echo "TEST freestanding.${name}_links_relocatable PASS"
	bad=$(forbidden "$tmp/$name.o" | tr '\n' ' ')
	if [ -z "$bad" ]; then
		echo "TEST freestanding.${name}_references_no_libc PASS"
	else
		echo "TEST freestanding.${name}_references_no_libc FAIL undefined: $bad"
	fi
	# 3. No writable global state: every object lives in the caller's memory.
	data=$("$NM" "$tmp/$name.o" | awk '$2 ~ /^[bBdDcC]$/ {print $3}' | tr '\n' ' ')
	if [ -z "$data" ]; then
		echo "TEST freestanding.${name}_has_no_mutable_globals PASS"
	else
		echo "TEST freestanding.${name}_has_no_mutable_globals FAIL: $data"
	fi
done
