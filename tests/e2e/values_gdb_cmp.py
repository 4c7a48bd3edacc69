"""values_gdb_cmp.py TTDUMP_EVENTS GDB_JSONL [LABEL] - for values_gdb.sh.
values_gdb_cmp.py --funcs TTDUMP_EVENTS [MAX]: the program's own functions
tt recorded (not the C++ library's, no templates), the MAX (all) most
called first, one a line as values_gdb.py takes them.

Compares what tt recorded of each call (ttdump -n's `> f(sig)(a, b)` and
`< f(sig) = r` lines, one thread) with what gdb read for the same call
(values_gdb.py's JSON lines, the k-th call of a function with the k-th).
An argument or return value agrees when both are the same integer (enums,
bools, chars by value; pointers within 64 KiB of each other, both runs
made without address randomisation, the stack's place moving a little
with the environment; NULL only with NULL; floats and doubles when they
are the same number, a float's text read back at float precision; a
small struct's "{x=1.5, y=2}" when gdb's fields have the same names and
each agrees; a string argument's first bytes, "item-3" or cut with "…",
when gdb reads the same bytes there, up to the NUL for a whole one).
tt's "?" (not recorded, not placeable), "(in memory)" and
aggregates "(T)" are counted apart, never compared; a
value gdb cannot read (optimised out) is not compared either. Prints the
counts; exit 1 on any disagreement (each printed) or on too few checks.
"""
import json
import re
import struct
import sys

NEAR = 1 << 16


def split_args(s):
    """Top-level comma-separated items of s (a "..." string's bytes
    count for nothing)."""
    out, depth, cur, quoted, esc = [], 0, "", False, False
    for ch in s:
        if quoted or ch == '"':
            quoted = (not quoted) if ch == '"' and not esc else quoted
            esc = quoted and ch == "\\" and not esc
            cur += ch
            continue
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def value_of(tok):
    """(kind, int): kind 'int', 'ptr', 'unknown', 'aggregate', 'other'."""
    tok = tok.strip()
    if tok == "?":
        return "unknown", None
    if tok == "...":
        return "other", None
    if tok == "(in memory)":
        return "memory", None
    if tok.startswith('"') or tok == "(unreadable)":
        return tt_string(tok)
    if re.fullmatch(r"\([^()]*\)", tok):
        return "aggregate", None
    if tok.startswith("{") and tok.endswith("}"):
        fields = {}
        for item in split_args(tok[1:-1]):
            name, _, val = item.partition("=")
            fields[name] = value_of(val)
        return "struct", fields
    if tok in ("true", "false"):
        return "int", int(tok == "true")
    if tok == "NULL":
        return "ptr", 0
    if re.fullmatch(r"-?(\d+\.\d*(e[+-]?\d+)?|\d+e[+-]?\d+|inf|nan)", tok):
        return "float", float(tok)              # 0.5, 1e+300, -inf
    m = re.search(r"\((-?\d+)\)$", tok)         # RED (1), READ|EXEC (5)
    if m:
        return "int", int(m.group(1))
    m = re.search(r"(0x[0-9a-f]+)\)?$", tok)    # 0x..., &sym (0x...)
    if m:
        return "ptr", int(m.group(1), 16)
    m = re.match(r"-?\d+", tok)                  # 42, 65 'A'
    if m:
        return "int", int(m.group(0))
    return "other", None


def tt_string(tok):
    """("string", (bytes, complete)) of ttdump's "..." (ttf_string_format:
    C escapes, "…" when cut); ("unreadable", None) for (unreadable)."""
    if tok == "(unreadable)":
        return "unreadable", None
    m = re.fullmatch(r'"((?:[^"\\]|\\.)*)"(\u2026.*)?', tok)
    if not m:
        return "other", None
    body, out, i = m.group(1), bytearray(), 0
    while i < len(body):
        if body[i] != "\\":
            out += body[i].encode("latin-1")
            i += 1
        elif body[i + 1] == "x":
            out.append(int(body[i + 2:i + 4], 16))
            i += 4
        else:
            out += {"n": b"\n", "t": b"\t", "r": b"\r"}.get(body[i + 1], body[i + 1].encode())
            i += 2
    return "string", (bytes(out), m.group(2) is None)


def split_call(text):
    """"f(sig)(args)" -> (f(sig), args): the arguments are the last
    top-level (...); (text, None) when there are none (no values)."""
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            depth -= 1
            if depth == 0:
                break
    else:
        return text, None
    if not text.endswith(")"):
        return text, None
    return text[:i], text[i + 1:-1]


def name_key(sig):
    """A C++ function's whole signature (overloads apart), a C function's
    name; blanks removed (gdb and the demangler space differently)."""
    return "".join(sig.split())


def tt_calls(path):
    """{function key: [ {args: [tok], ret: tok or None} ]} in call order."""
    calls, stack = {}, []
    enter = re.compile(r"^\s*(?:\+\S+\s+)?\s*> (.*)$")
    leave = re.compile(r"^\s*(?:\+\S+\s+)?\s*< (.*?)(?: = (.*))?$")
    for line in open(path):
        line = line.rstrip("\n")
        m = enter.match(line)
        if m:
            # a char's quoted form may be a parenthesis or a comma
            text = re.sub(r"'(\\.[0-9a-fx]*|[^'\\])'", "'c'", m.group(1))
            sig, args = split_call(text)
            rec = {"args": split_args(args or ""), "ret": None}
            calls.setdefault(name_key(sig), []).append(rec)
            stack.append(rec)
            continue
        m = leave.match(line)
        if m and stack:
            rec = stack.pop()
            rec["ret"] = m.group(2)
    return calls


def f32(x):
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return None


def agree(kind, tv, gv):
    if kind == "string":                        # tt's first bytes, gdb's up to 40
        if not isinstance(gv, dict):
            return False
        got, done = tv
        g = bytes.fromhex(gv["hex"])
        return g == got and gv["end"] if done else g.startswith(got)
    if kind == "struct":                        # field by field, the same names
        gv = gv["fields"] if isinstance(gv, dict) else None
        return gv is not None and set(gv) == set(tv) and all(
            fk in ("unknown", "other") or gv[f] is None or agree(fk, fv, gv[f])
            for f, (fk, fv) in tv.items())
    if isinstance(gv, dict):                    # a struct for a scalar
        return False
    if isinstance(gv, str):                     # gdb's nan, inf
        gv = float(gv)
    if isinstance(gv, float) or kind == "float":
        tv = float(tv)
        if tv != tv or gv != gv:
            return tv != tv and gv != gv
        return tv == gv or f32(tv) == gv
    if kind == "ptr":
        return (tv == 0) == (gv == 0) and abs(tv - gv) < NEAR
    return tv == gv or tv == gv - (1 << 64) or tv == gv + (1 << 64)


def funcs(path, most):
    calls = tt_calls_sigs(path)
    own = [k for k in calls if not re.match(r"(std::|__gnu|operator|_)", k) and
           "<" not in k.split("(")[0]]
    own.sort(key=lambda k: (-calls[k], k))
    for k in own[:most or None]:
        print(k)


def tt_calls_sigs(path):
    """{signature as ttdump prints it: calls}."""
    n = {}
    enter = re.compile(r"^\s*(?:\+\S+\s+)?\s*> (.*)$")
    for line in open(path):
        m = enter.match(line.rstrip("\n"))
        if not m:
            continue
        sig, args = split_call(m.group(1))
        if args is not None:
            n[sig] = n.get(sig, 0) + 1
    return n


def main():
    if sys.argv[1] == "--funcs":
        funcs(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
        return
    tt, gdbf = sys.argv[1], sys.argv[2]
    label = sys.argv[3] if len(sys.argv) > 3 else gdbf
    calls = tt_calls(tt)
    n = {"calls": 0, "agree": 0, "structs": 0, "unknown": 0, "aggregate": 0, "gdb_unknown": 0,
         "wrong": 0, "unmatched": 0, "floats": 0, "args_unread": 0, "strings": 0,
         "unreadable": 0}
    for line in open(gdbf):
        g = json.loads(line)
        recs = calls.get(g["function"], [])
        if g["call"] >= len(recs):
            n["unmatched"] += 1
            continue
        t = recs[g["call"]]
        n["calls"] += 1
        if g["args"] is None:           # gdb could not read them all: the result only
            n["args_unread"] += 1
            g["args"] = []
            t = {"args": [], "ret": t["ret"]}
        pairs = list(zip(t["args"], g["args"]))
        if len(t["args"]) != len(g["args"]) and t["args"][-1:] != ["..."]:
            print("%s: %s call %d: tt has %d arguments, gdb %d" %
                  (label, g["function"], g["call"], len(t["args"]), len(g["args"])))
            n["wrong"] += 1
            continue
        checks = [(tok, ga.get("str") if tok.startswith('"') else ga["value"], ga["name"])
                  for tok, ga in pairs]
        if t["ret"] is not None:
            checks.append((t["ret"], g["ret"], "return"))
        for tok, gv, what in checks:
            kind, tv = value_of(tok)
            if kind == "unreadable":
                n["unreadable"] += 1
                continue
            if kind in ("unknown", "aggregate", "other", "memory"):
                n["unknown" if kind in ("unknown", "memory") else "aggregate"] += 1
                continue
            if gv is None:
                n["gdb_unknown"] += 1
                continue
            if agree(kind, tv, gv):
                n["agree"] += 1
                n["structs"] += kind == "struct"
                n["strings"] += kind == "string"
                n["floats"] += kind == "float" or isinstance(gv, (float, str))
            else:
                n["wrong"] += 1
                print("%s: %s call %d %s: tt %s, gdb %s" %
                      (label, g["function"], g["call"], what, tok, gv))
    print("%s: %d calls, %d values agree with gdb (%d of them float or double, %d small "
          "structs field by field, %d strings by their first bytes), %d wrong, "
          "%d not recorded by tt (?, in memory), %d aggregates, %d unreadable by gdb, "
          "%d calls unmatched, %d calls' arguments unread by gdb" %
          (label, n["calls"], n["agree"], n["floats"], n["structs"], n["strings"], n["wrong"],
           n["unknown"],
           n["aggregate"], n["gdb_unknown"], n["unmatched"], n["args_unread"]))
    json.dump(n, open(gdbf + ".counts", "w"))
    sys.exit(1 if n["wrong"] else 0)


main()
