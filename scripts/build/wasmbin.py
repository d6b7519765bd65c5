"""Reading the binary wasm format, shared by the wasm scripts
(build/wasm-order.py, size/wasm-sections.py): LEB128 numbers and the list of
sections."""

MAGIC = b"\0asm\1\0\0\0"


def uleb(data, i):
    """The unsigned LEB128 number at data[i] and the index after it."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def uleb_bytes(value):
    """value as unsigned LEB128."""
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def sections(data):
    """(id, payload start, payload end, section start) of every section."""
    out = []
    i = len(MAGIC)
    while i < len(data):
        sid = data[i]
        size, start = uleb(data, i + 1)
        out.append((sid, start, start + size, i))
        i = start + size
    return out
