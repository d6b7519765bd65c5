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

def skip_limits(data, i):
    """The index after a table's or memory's limits."""
    flags = data[i]
    _, i = uleb(data, i + 1)
    if flags & 1:
        _, i = uleb(data, i)
    return i

def imported_functions(data, start):
    """How many functions the import section at `start` imports."""
    count, i = uleb(data, start)
    funcs = 0
    for _ in range(count):
        for _name in range(2):  # module, field
            n, i = uleb(data, i)
            i += n
        kind = data[i]
        i += 1
        if kind == 0:  # function: type index
            _, i = uleb(data, i)
            funcs += 1
        elif kind == 1:  # table: reference type, limits
            i = skip_limits(data, i + 1)
        elif kind == 2:  # memory: limits
            i = skip_limits(data, i)
        elif kind == 3:  # global: value type, mutability
            i += 2
        elif kind == 4:  # tag: attribute, type index
            _, i = uleb(data, i + 1)
        else:
            raise ValueError(f"import section: unknown import kind {kind}")
    return funcs

def function_names(data, start, end):
    """{function index: name} from the name section's payload, or None
    when it is not the name section."""
    n, i = uleb(data, start)
    if data[i : i + n] != b"name":
        return None
    i += n
    names = {}
    while i < end:
        sub = data[i]
        size, i = uleb(data, i + 1)
        if sub == 1:
            count, j = uleb(data, i)
            for _ in range(count):
                index, j = uleb(data, j)
                n, j = uleb(data, j)
                names[index] = data[j : j + n].decode("utf-8", "replace")
                j += n
        i += size
    return names
