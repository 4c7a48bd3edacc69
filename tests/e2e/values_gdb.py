"""values_gdb.py - gdb's view of a program's calls, for values_gdb.sh.

Run inside gdb (gdb -batch -x values_gdb.py --args PROG ARGS...) with
VG_FUNCS set to a file of functions, one a line, as ttdump names them
(`bucket`, `Shop::add(Item)`: values_gdb_cmp.py --funcs lists them); each
gets a breakpoint at its first instruction (`break *'f(int)'`), where
the arguments are still in their registers: gdb's usual place after the
prologue is, in optimised code, sometimes on a path a call does not take and VG_OUT to the output file (VG_MAX: at most that many
calls of each function, the first ones; default all). For every call of
those functions, one JSON line: the function's name, the index of the call among
that function's calls, its arguments as gdb reads them at the breakpoint
after the prologue ({name, type code, integer value or null}), and the
value `finish` would print (a FinishBreakpoint), when it is an integer,
pointer, enum, bool or char (a number), or a float or double (a JSON
number with a fraction; NaN and infinities as strings); an argument that
is a struct of at most 16 bytes as its scalar fields ({"fields": {"x":
1.5, "in.y": 2}}, nested structs and arrays flattened as tt names them);
a string parameter (char *, std::string by value, reference or pointer)
also as its first bytes ("str": {"hex": the bytes up to the NUL, at most
40, "end": whether the NUL came}).
"""
import json
import os

import gdb

OUT = open(os.environ["VG_OUT"], "w")
MAX = int(os.environ.get("VG_MAX", "0") or 0)
CALLS = {}
SCALAR = (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_PTR, gdb.TYPE_CODE_ENUM,
          gdb.TYPE_CODE_BOOL, gdb.TYPE_CODE_CHAR, gdb.TYPE_CODE_REF,
          gdb.TYPE_CODE_RVALUE_REF)


def flat(v, name, out):
    """The scalar fields of a struct value v into out, {"x": 1.5,
    "in.y": 2, "v[1]": 3}, named as tt names them; False for a field tt
    does not show (a union, a bit-field, a base class)."""
    t = v.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_STRUCT:
        for f in t.fields():
            if not hasattr(f, "bitpos"):
                continue                # a static member
            if f.is_base_class or f.bitsize or not f.name:
                return False
            if not flat(v[f], (name + "." if name else "") + f.name, out):
                return False
        return True
    if t.code == gdb.TYPE_CODE_ARRAY:
        lo, hi = t.range()
        return all(flat(v[i], "%s[%d]" % (name, i), out) for i in range(lo, hi + 1))
    code, val = scalar(v)
    if code in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION, -1):
        return False
    out[name] = val
    return True


def scalar(v):
    """(type code, integer or None) of a gdb.Value; a struct of at most
    16 bytes: its fields, {"fields": {name: value}} (flat), or None."""
    try:
        t = v.type.strip_typedefs()
        code = t.code
        if code == gdb.TYPE_CODE_STRUCT and t.sizeof <= 16 and not v.is_optimized_out:
            out = {}
            return code, {"fields": out} if flat(v, "", out) and out else None
        if code == gdb.TYPE_CODE_FLT and t.sizeof in (4, 8) and not v.is_optimized_out:
            f = float(v)
            return code, f if f == f and abs(f) != float("inf") else repr(f)
        if code not in SCALAR or v.is_optimized_out:
            return code, None
        if code in (gdb.TYPE_CODE_REF, gdb.TYPE_CODE_RVALUE_REF):
            return code, int(v.referenced_value().address)
        return code, int(v)
    except gdb.error:
        return -1, None


def cstring(addr):
    """The bytes at addr up to their NUL, at most 40, as
    {"hex": ..., "end": NUL seen}; None for NULL or a first byte gdb
    cannot read."""
    if not addr:
        return None
    inf, out = gdb.selected_inferior(), b""
    try:
        while len(out) < 40:
            b = bytes(inf.read_memory(addr + len(out), 1))
            if b == b"\0":
                return {"hex": out.hex(), "end": True}
            out += b
    except gdb.MemoryError:
        if not out:
            return None
    return {"hex": out.hex(), "end": False}


def string_of(v):
    """What a string parameter points to (cstring): a pointer to a
    1-byte char, or a std::string (libstdc++: its _M_dataplus._M_p) by
    value, reference or pointer; None for any other parameter."""
    try:
        t = v.type.strip_typedefs()
        if t.code in (gdb.TYPE_CODE_REF, gdb.TYPE_CODE_RVALUE_REF):
            v = v.referenced_value()
            t = v.type.strip_typedefs()
        elif t.code == gdb.TYPE_CODE_PTR and t.target().strip_typedefs().code == gdb.TYPE_CODE_STRUCT:
            if not int(v):
                return None
            v = v.dereference()
            t = v.type.strip_typedefs()
        if t.code == gdb.TYPE_CODE_PTR:
            c = t.target().strip_typedefs()
            if c.code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_CHAR) and c.sizeof == 1:
                return cstring(int(v))
            return None
        if t.code == gdb.TYPE_CODE_STRUCT and "basic_string<char," in (t.name or ""):
            return cstring(int(v["_M_dataplus"]["_M_p"]))
    except (gdb.error, gdb.MemoryError, RuntimeError):
        pass
    return None


class Ret(gdb.FinishBreakpoint):
    def __init__(self, frame, rec):
        super().__init__(frame, internal=True)
        self.rec = rec

    def stop(self):
        rv = self.return_value
        self.rec["ret"] = scalar(rv)[1] if rv is not None else None
        OUT.write(json.dumps(self.rec) + "\n")
        return False

    def out_of_scope(self):
        OUT.write(json.dumps(self.rec) + "\n")


class Enter(gdb.Breakpoint):
    def stop(self):
        frame = gdb.newest_frame()
        if frame.type() == gdb.INLINE_FRAME:
            return False        # an inlined copy: no call for tt to record
        name = frame.function().name if frame.function() else self.location
        key = "".join(name.split())     # overloads apart: the whole signature
        n = CALLS.get(key, 0)
        if MAX and n >= MAX:
            self.enabled = False
            return False
        CALLS[key] = n + 1
        args = []
        try:
            block = frame.block()
            while block and not block.function:
                block = block.superblock
            for sym in block:
                if sym.is_argument:
                    var = frame.read_var(sym)
                    code, val = scalar(var)
                    args.append({"name": sym.name, "code": code, "value": val,
                                 "str": string_of(var)})
            # an unnamed parameter has no symbol: the named ones cannot be
            # matched to their places, so no argument is compared
            if len(frame.function().type.fields()) != len(args):
                args = None
        except (gdb.error, RuntimeError, AttributeError):
            args = None
        rec = {"function": key, "call": n, "args": args, "ret": None}
        try:
            Ret(frame, rec)
        except (gdb.error, ValueError):
            OUT.write(json.dumps(rec) + "\n")
        return False


gdb.execute("set pagination off")
gdb.execute("set confirm off")
for f in open(os.environ["VG_FUNCS"]).read().splitlines():
    try:
        Enter("*'%s'" % f if "(" in f else "*" + f, internal=True)
    except (gdb.error, RuntimeError):
        pass                    # a spelling gdb does not take: not sampled
gdb.execute("run")
OUT.close()
