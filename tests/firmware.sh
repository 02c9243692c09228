#!/usr/bin/env bash
# The firmware images: no heap (a stray malloc fails to link), the linker's
# overflow assertion works, the vector table sits at the start of flash, and
# no libc or allocator symbol is linked in. Prints TEST lines.
set -u
B=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
result() {
	if [ "$2" -eq 0 ]; then echo "TEST firmware.$1 PASS"; else echo "TEST firmware.$1 FAIL $3"; fi
}
var() { make -s --no-print-directory "print-var-$1"; }

objs_of() { # every object of a board's firmware but main's own
	ls "$B/fw/$1"/core/src/*.o "$B/fw/$1"/fixture/src/*.o "$B/fw/$1"/trace/*.o "$B/fw/$1"/firmware/*.o \
		"$B/fw/$1"/port/*/*.o
}

for p in $(var PORTS); do
	cpu=$(var "FW_CPU_$p")
	ld=$(var "FW_LD_$p")
	elf=$B/fw/$p/firmware.elf
	# 1. A stray malloc cannot link: there is no heap and no libc.
	printf '#include <stddef.h>\nvoid *malloc(size_t);\nvoid *stray(void) { return malloc(16); }\n' >"$tmp/stray.c"
	arm-none-eabi-gcc $cpu -ffreestanding -c "$tmp/stray.c" -o "$tmp/stray.o"
	arm-none-eabi-gcc $cpu -nostdlib -nostartfiles -Wl,--gc-sections -Wl,--undefined=stray -T "$ld" \
		$(objs_of "$p") "$tmp/stray.o" -lgcc -o "$tmp/stray.elf" 2>"$tmp/err"
	st=$?
	grep -q "undefined reference to .malloc'" "$tmp/err"
	result "${p}_stray_malloc_does_not_link" "$([ $st -ne 0 ] && grep -q "undefined reference to .malloc'" "$tmp/err" && echo 0 || echo 1)" \
		"linked, or failed otherwise: $(head -2 "$tmp/err" | tr '\n' ' ')"
	# 2. The RAM overflow assertion of the linker script fires.
	printf 'char hog[1 << 30];\nchar *use_hog(void) { return hog; }\n' >"$tmp/hog.c"
	arm-none-eabi-gcc $cpu -ffreestanding -c "$tmp/hog.c" -o "$tmp/hog.o"
	arm-none-eabi-gcc $cpu -nostdlib -nostartfiles -Wl,--gc-sections -Wl,--undefined=use_hog -T "$ld" \
		$(objs_of "$p") "$tmp/hog.o" -lgcc -o "$tmp/hog.elf" 2>"$tmp/err"
	st=$?
	result "${p}_ram_overflow_is_caught" "$([ $st -ne 0 ] && grep -qi "overflow" "$tmp/err" && echo 0 || echo 1)" \
		"$(head -2 "$tmp/err" | tr '\n' ' ')"
	# 3. The vector table is first in flash, and its reset vector points at Reset_Handler.
	flash=$(sed -n 's/.*FLASH (rx) *: ORIGIN = \(0x[0-9A-Fa-f]*\).*/\1/p' "$ld")
	vec=$(arm-none-eabi-objdump -h "$elf" | awk '$2 == ".isr_vector" { print "0x" $4 }')
	result "${p}_vectors_at_flash_start" "$([ $((vec)) -eq $((flash)) ] && echo 0 || echo 1)" \
		".isr_vector at $vec, flash at $flash"
	# 4. No allocator, stdio or libc symbol in the image.
	bad=$(arm-none-eabi-nm "$elf" | awk '{print $NF}' | grep -Ex '(malloc|calloc|realloc|free|_sbrk|printf|sprintf|snprintf|puts|putchar|fwrite|_impure_ptr)' | tr '\n' ' ')
	result "${p}_no_libc_symbols" "$([ -z "$bad" ] && echo 0 || echo 1)" "found: $bad"
done
