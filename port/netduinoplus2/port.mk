# Netduino Plus 2 under QEMU: the primary target (read-only flash, 128 KiB RAM, exact instruction counter).
PORTS += netduinoplus2
FW_CPU_netduinoplus2  := -mcpu=cortex-m4 -mthumb -mfloat-abi=soft \
                         -DPERSIST_REPLAY_BUDGET=20000000u # a restore replays at most 20 M instructions of journal (0.12 s at 168 MHz)
FW_LD_netduinoplus2   := port/netduinoplus2/link.ld
FW_SRC_netduinoplus2  := port/netduinoplus2/board.c
# -icount shift=0 makes TIM2 count instructions exactly, and runs identical twice.
QEMU_netduinoplus2    := qemu-system-arm -M netduinoplus2 -display none -serial stdio -monitor none \
                         -semihosting-config enable=on,target=native -icount shift=0,align=off,sleep=off
