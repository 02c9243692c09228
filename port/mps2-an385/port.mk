# ARM MPS2 AN385 under QEMU: the plain Cortex-M3, and the proof that a board is a folder of its own.
PORTS += mps2-an385
FW_CPU_mps2-an385  := -mcpu=cortex-m3 -mthumb \
                      -DPERSIST_REPLAY_BUDGET=2500000u # TIMER0 ticks of the 25 MHz clock: 0.1 s
FW_LD_mps2-an385   := port/mps2-an385/link.ld
FW_SRC_mps2-an385  := port/mps2-an385/board.c
QEMU_mps2-an385    := qemu-system-arm -M mps2-an385 -display none -serial stdio -monitor none \
                      -semihosting-config enable=on,target=native
