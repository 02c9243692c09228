#!/usr/bin/env python3
# Regenerates the corrupt-fixture corpus from valid.fix (run by hand; the
# outputs are committed, so tests and CI never need Python). Each file breaks
# one rule of docs/fixture-format.md; expected.txt names the error each must get.
import os, struct, zlib

here = os.path.dirname(os.path.abspath(__file__))
good = open(os.path.join(here, 'valid.fix'), 'rb').read()
hdr_len = struct.unpack_from('<H', good, 6)[0]
rec_len = struct.unpack_from('<I', good, 12)[0]

def recrc(b):
    body = bytes(b[:-4])
    return body + struct.pack('<I', zlib.crc32(body))

def patched(off, fmt, fn, fix_crc=True):
    b = bytearray(good)
    struct.pack_into(fmt, b, off, fn(struct.unpack_from(fmt, b, off)[0]))
    return recrc(b) if fix_crc else bytes(b)

cases = {
    'bad_magic': (b'X' + good[1:], 'bad magic'),
    'unknown_version': (patched(4, '<H', lambda v: 2), 'unknown format version'),
    'header_size': (patched(6, '<H', lambda v: v + 1), 'inconsistent header'),
    'unknown_field': (patched(38, '<I', lambda v: v | 4), 'inconsistent header'),
    'unknown_flag': (patched(36, '<H', lambda v: v | 4), 'inconsistent header'),
    'truncated_header': (good[:30], 'truncated'),
    'truncated_record': (good[:hdr_len + rec_len // 2], 'truncated'),
    'truncated_trailer': (good[:-2], 'truncated'),
    'empty': (b'', 'truncated'),
    'crc_mismatch': (good[:-1] + bytes([good[-1] ^ 0x40]), 'CRC mismatch'),
    'source_renamed': (good[:hdr_len - 1] + b'Z' + good[hdr_len:], 'CRC mismatch'),
    'count_too_high': (patched(8, '<I', lambda v: v + 1), 'job count mismatch'),
    'count_too_low': (patched(8, '<I', lambda v: v - 1), 'job count mismatch'),
    'trailing_data': (good + b'\x00', 'data after the trailer'),
}
with open(os.path.join(here, 'expected.txt'), 'w') as exp:
    exp.write('# file\texpected error (fix2swf and replay print it after the file name)\n')
    exp.write('valid.fix\tOK\n')
    for name, (data, msg) in sorted(cases.items()):
        open(os.path.join(here, name + '.fix'), 'wb').write(data)
        exp.write(f'{name}.fix\t{msg}\n')
