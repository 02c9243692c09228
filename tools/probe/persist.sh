#!/usr/bin/env bash
# What survives QEMU killed with SIGKILL and started again, on each board: the
# experiments behind docs/port-guide.md, "The non-volatile store", re-run with
# the installed qemu-system-arm (run it again after a QEMU upgrade). Builds the
# probe (tools/probe/persist.c) for each board, prints every QEMU command and
# what the probe saw. Files go to a temporary directory, QEMU's working one.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
cd "$tmp" || exit 1

declare -A flash=([netduinoplus2]=0x08000000 [mps2-an385]=0x00000000)
declare -A cpu=([netduinoplus2]=cortex-m4 [mps2-an385]=cortex-m3)
for b in netduinoplus2 mps2-an385; do
	cat >"$b.ld" <<EOF
ENTRY(Reset_Handler)
MEMORY { FLASH (rx) : ORIGIN = ${flash[$b]}, LENGTH = 256K
         RAM (rwx) : ORIGIN = 0x20000000, LENGTH = 64K }
SECTIONS { .isr_vector : { KEEP(*(.isr_vector)) } > FLASH
           .text : { *(.text*) *(.rodata*) } > FLASH
           .bss (NOLOAD) : { *(.bss*) *(COMMON) } > RAM
           _estack = ORIGIN(RAM) + LENGTH(RAM); }
EOF
	arm-none-eabi-gcc -std=c11 -Wall -Wextra -Werror -mcpu="${cpu[$b]}" -mthumb -Os -ffreestanding \
		-fno-tree-loop-distribute-patterns -nostdlib -nostartfiles -T "$b.ld" "$here/persist.c" -lgcc \
		-o "$b.elf" || exit 1
done

Q=(qemu-system-arm -display none -serial none -monitor none)
SH=enable=on,target=native

# run BOARD [QEMU OPTIONS...] -- STEPS...: one QEMU run; killed with SIGKILL by its PID if the
# steps end in spin.
run() {
	local b=$1 opts=() args=arg=firmware
	shift
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	for s in "$@"; do args+=",arg=$s"; done
	local cmd=("${Q[@]}" -M "$b" "${opts[@]}" -semihosting-config "$SH,$args" -kernel "$b.elf")
	echo "\$ ${cmd[*]}"
	"${cmd[@]}" >out 2>&1 &
	local pid=$! i
	for ((i = 0; i < 100; i++)); do
		grep -q spinning out && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if grep -q spinning out && kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		{ wait "$pid"; } 2>/dev/null
		echo "[SIGKILL to QEMU, PID $pid: status $?]" >>out
	else
		wait "$pid"
		echo "[QEMU exited: status $?]" >>out
	fi
	grep -v '^cmdline' out | sed 's/^/    /'
}

echo "## (a) netduinoplus2: the flash at 0x08000000, the flash interface, the SRAM, across SIGKILL"
run netduinoplus2 -d unimp -- r 0x080F0000 w 0x080F0000 0x12345678 r 0x080F0000 \
	w 0x40023C04 0x45670123 w 0x40023C04 0xCDEF89AB w 0x40023C10 1 w 0x080F0000 0 r 0x080F0000 \
	w 0x2002F000 0xCAFEBABE r 0x2002F000 w 0x40024000 0x99 r 0x40024000 spin
run netduinoplus2 -- r 0x080F0000 r 0x2002F000

echo "## (b) mps2-an385: SSRAM1 (code), block RAM, SSRAM2/3 (data), the 16 MiB machine RAM, across SIGKILL"
run mps2-an385 -- w 0x003F0000 0x11111111 w 0x01000000 0x22222222 w 0x203F0000 0x33333333 \
	w 0x21000000 0x44444444 spin
run mps2-an385 -- r 0x003F0000 r 0x01000000 r 0x203F0000 r 0x21000000

echo "## (c) semihosting files: fopen modes, then a write, SIGKILL before any close, and a restart"
run netduinoplus2 -- open sf.bin 3 errno open sf.bin 11 write abcdef seek 0 write Z flen close
echo "    host: $(cat sf.bin)"
run netduinoplus2 -- open sf.bin 3 seek 2 write XY seek 12 write Q flen spin
echo "    host: $(od -An -c sf.bin | tr -s ' ')"
run netduinoplus2 -- open sf.bin 1 flen read 13
cp sf.bin sf2.bin
run mps2-an385 -- open sf2.bin 7 flen close

echo "## (c) the firmware's command line (SYS_GET_CMDLINE): a second -semihosting-config adds to the port.mk's;"
echo "## arg= in both repeats the first's; without arg=, it is the -kernel path and -append"
echo "\$ ${Q[*]} -M mps2-an385 -semihosting-config $SH -semihosting-config arg=firmware,arg=--store,arg=x.bin -kernel mps2-an385.elf"
"${Q[@]}" -M mps2-an385 -semihosting-config "$SH" -semihosting-config arg=firmware,arg=--store,arg=x.bin \
	-kernel mps2-an385.elf 2>&1 | grep '^cmdline' | sed 's/^/    /'
echo "\$ ${Q[*]} -M mps2-an385 -semihosting-config $SH,arg=one -semihosting-config arg=two -kernel mps2-an385.elf"
"${Q[@]}" -M mps2-an385 -semihosting-config "$SH,arg=one" -semihosting-config arg=two \
	-kernel mps2-an385.elf 2>&1 | grep '^cmdline' | sed 's/^/    /'
echo "\$ ${Q[*]} -M mps2-an385 -semihosting-config $SH -append '--store x.bin' -kernel mps2-an385.elf"
"${Q[@]}" -M mps2-an385 -semihosting-config "$SH" -append '--store x.bin' -kernel mps2-an385.elf 2>&1 |
	grep '^cmdline' | sed 's/^/    /'

echo "## (d) a file behind the machine's RAM: mps2-an385 maps it at 0x21000000; share=on writes it through"
mb=(-object 'memory-backend-file,id=m,size=16M,mem-path=psram.bin,share=on' -machine memory-backend=m)
run mps2-an385 "${mb[@]}" -- r 0x21000000 w 0x21000000 0x44444444 spin
echo "    host: $(od -An -tx4 -N4 psram.bin)"
run mps2-an385 "${mb[@]}" -- r 0x21000000
mb=(-object 'memory-backend-file,id=m,size=16M,mem-path=private.bin,share=off' -machine memory-backend=m)
run mps2-an385 "${mb[@]}" -- w 0x21000000 0x44444444 spin
run mps2-an385 "${mb[@]}" -- r 0x21000000
echo "## (d) netduinoplus2 takes memory-backend= but maps it nowhere (the SoC's SRAM is its own)"
mb=(-object 'memory-backend-file,id=m,size=192K,mem-path=nd.bin,share=on' -machine memory-backend=m)
run netduinoplus2 "${mb[@]}" -- w 0x20000100 0x77777777 spin
echo "    host: nd.bin bytes other than zero: $(tr -d '\0' <nd.bin | wc -c)"

echo "## (d) flash or disk images"
truncate -s 1M img.bin
for b in netduinoplus2 mps2-an385; do
	for d in if=pflash if=mtd if=sd; do
		run "$b" -drive "$d,file=img.bin,format=raw" --
	done
done
