/* SPDX-License-Identifier: MIT */
/* The fixtures linked into the image (flash on a board): the bytes of the committed files. */
	.section .rodata.fixtures, "a"
	.balign 4
	.global fixture_kth
	.global fixture_kth_end
fixture_kth:
	.incbin "fixtures/KTH-SP2-1996-2.1-cln.fix"
fixture_kth_end:
	.balign 4
	.global fixture_peek
	.global fixture_peek_end
fixture_peek:
	.incbin "fixtures/peek.fix"
fixture_peek_end:
	.balign 4
#if defined(__linux__) && !defined(__arm__)
	/* The host twin's linker wants to know the stack need not be executable. */
	.section .note.GNU-stack, "", @progbits
#endif
