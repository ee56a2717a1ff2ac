#!/usr/bin/env python3
"""Checks a program's output against an LLVM FileCheck file's CHECK, CHECK-NEXT and CHECK-SAME lines.

    filecheck.py CHECKFILE < OUTPUT

The subset that Thrust's example checks use: a pattern is literal text with {{regex}} parts; runs
of spaces and tabs match any run of them; CHECK finds the pattern on the current line or a later
one, CHECK-NEXT on the line after the previous match, CHECK-SAME on the previous match's line,
after it. Exits 0 when every line matches, else 1 naming the first pattern that did not.
"""
import re
import sys

DIRECTIVE = re.compile(r"^\s*(CHECK|CHECK-NEXT|CHECK-SAME):(.*)$")


def compile_pattern(text):
    parts, pos = [], 0
    text = text.strip()
    for m in re.finditer(r"\{\{(.*?)\}\}", text):
        parts.append(re.sub(r"(\\ |\\\t)+", r"[ \\t]+", re.escape(text[pos:m.start()])))
        parts.append("(?:" + m.group(1) + ")")
        pos = m.end()
    parts.append(re.sub(r"(\\ |\\\t)+", r"[ \\t]+", re.escape(text[pos:])))
    return re.compile("".join(parts))


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        checks = [(m.group(1), m.group(2), n + 1) for n, l in enumerate(f) if (m := DIRECTIVE.match(l))]
    lines = sys.stdin.read().splitlines()
    line, col = 0, 0  # where the previous match ended
    first = True
    for kind, text, lineno in checks:
        pat = compile_pattern(text)
        if kind == "CHECK":
            found = None
            for i in range(line, len(lines)):
                m = pat.search(lines[i], col if i == line and not first else 0)
                if m:
                    found = (i, m.end())
                    break
        elif kind == "CHECK-NEXT":
            i = line + 1
            m = pat.search(lines[i]) if not first and i < len(lines) else None
            found = (i, m.end()) if m else None
        else:  # CHECK-SAME
            m = pat.search(lines[line], col) if not first and line < len(lines) else None
            found = (line, m.end()) if m else None
        if found is None:
            near = lines[line + 1] if kind == "CHECK-NEXT" and line + 1 < len(lines) else (
                lines[line] if line < len(lines) else "<end of output>")
            print(f"filecheck: {argv[1]}:{lineno}: {kind}: {text.strip()!r} not matched "
                  f"(output line {line + 1 + (kind == 'CHECK-NEXT')}: {near!r})", file=sys.stderr)
            return 1
        line, col = found
        first = False
    print(f"filecheck: {len(checks)} checks matched")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
