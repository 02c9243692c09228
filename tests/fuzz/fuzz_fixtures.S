/* SPDX-License-Identifier: MIT */
/*
 * The fuzz target's linked fixtures, in place of firmware/fixtures_blob.S:
 * KTH's 28,476 jobs take seconds to replay, too slow for a fuzzer that
 * must run thousands of inputs a second, so it gets small ones: peek (three
 * jobs), the codec tests' valid fixture, and corrupt ones whose errors (CRC,
 * truncation, bad magic, no bytes at all) must reach the reply as err 20-28.
 */
	.section .rodata.fixtures, "a"
	.balign 4
	.global fuzz_fx_peek
	.global fuzz_fx_peek_end
fuzz_fx_peek:
	.incbin "fixtures/peek.fix"
fuzz_fx_peek_end:
	.balign 4
	.global fuzz_fx_valid
	.global fuzz_fx_valid_end
fuzz_fx_valid:
	.incbin "tests/data/corrupt/valid.fix"
fuzz_fx_valid_end:
	.balign 4
	.global fuzz_fx_crc
	.global fuzz_fx_crc_end
fuzz_fx_crc:
	.incbin "tests/data/corrupt/crc_mismatch.fix"
fuzz_fx_crc_end:
	.balign 4
	.global fuzz_fx_truncated
	.global fuzz_fx_truncated_end
fuzz_fx_truncated:
	.incbin "tests/data/corrupt/truncated_record.fix"
fuzz_fx_truncated_end:
	.balign 4
	.global fuzz_fx_magic
	.global fuzz_fx_magic_end
fuzz_fx_magic:
	.incbin "tests/data/corrupt/bad_magic.fix"
fuzz_fx_magic_end:
	.balign 4
#if defined(__linux__) && !defined(__arm__)
	/* The linker wants to know the stack need not be executable. */
	.section .note.GNU-stack, "", @progbits
#endif
