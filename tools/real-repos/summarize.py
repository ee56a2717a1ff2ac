#!/usr/bin/env python3
"""Summarizes a consumer workspace that tools/real-repos/try.sh built.

    summarize.py WORKSPACE [--tsv FILE]

Reads WORKSPACE/.real-repos/ (source.tsv, gazelle.log, build.log, bep.json, targets.xml,
bazel-bin.txt) and prints: the source and directives; gazelle's log lines by kind; every rule
target with its result (built; FAILED with the failing action's first error line; or not built
because a dependency failed, naming the dependency that failed first); every program (a source
defining main()) with the binary that builds it; and the CUDA libraries each built binary NEEDs.
--tsv writes the per-target results as label, kind, status, cause.
"""
import collections
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

MAIN_RE = re.compile(rb"^[ \t]*(?:int|void|auto)[ \t]+main[ \t]*\(", re.M)
SOURCE_EXTS = (".cu", ".cpp", ".cc", ".cxx", ".c")
CUDA_LIB_RE = re.compile(r"^lib(cuda|cudart|cublas|cublasLt|cufft|cufftw|curand|cusparse|cusolver|"
                         r"cusolverMg|nvrtc|nvJitLink|nvjitlink|nccl|cudnn|nvToolsExt|nvml|nvidia-ml|"
                         r"npp\w*|nvjpeg|cupti|cufile)\b")
ERROR_RE = re.compile(r"(error|undefined reference|No such file|cannot find|fatal)", re.I)
SKIP_KINDS = {"gazelle", "gazelle_binary", "gazelle_main", "_gazelle_runner", "go_binary", "sh_binary"}


def read(path, mode="r"):
    try:
        with open(path, mode) as f:
            return f.read()
    except OSError:
        return b"" if "b" in mode else ""


def uri_path(uri):
    return uri[len("file://"):] if uri.startswith("file://") else None


def first_error(text):
    lines = [l.rstrip() for l in text.splitlines() if l.strip()]
    lines = [l for l in lines if not l.startswith(("INFO:", "Target ", "nvcc warning"))]
    for pattern in (re.compile(r"\berror\b", re.I), ERROR_RE):
        for l in lines:
            if pattern.search(l) and "warning" not in l.lower().split("error")[0]:
                return l.strip()
    return lines[0].strip() if lines else ""


def shorten(line, ws):
    line = line.replace(ws + "/", "")
    line = re.sub(r"/\S*?/(execroot|sandbox/\S+?/execroot)/_main/", "", line)
    line = re.sub(r"bazel-out/[^/]+/bin/", "", line)
    return line if len(line) <= 240 else line[:237] + "..."


def load_rules(meta):
    """label -> {kind, srcs, deps, hdrs, location} from `bazel query --output=xml`."""
    rules = {}
    text = read(os.path.join(meta, "targets.xml"))
    if not text.strip():
        return rules
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        return rules
    for r in root.iter("rule"):
        attrs = collections.defaultdict(list)
        for lst in r.findall("list"):
            attrs[lst.get("name")] = [e.get("value") for e in lst.findall("label")]
        rules[r.get("name")] = {"kind": r.get("class"), "location": r.get("location", ""), **attrs}
    return rules


def load_bep(meta):
    completed, aborted, actions = {}, {}, collections.defaultdict(list)
    for line in read(os.path.join(meta, "bep.json")).splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        eid = ev.get("id", {})
        if "targetCompleted" in eid:
            label = eid["targetCompleted"]["label"]
            if "completed" in ev:
                c = ev["completed"]
                completed[label] = {
                    "success": c.get("success", False),
                    "outputs": [uri_path(o.get("uri", "")) for o in c.get("importantOutput", [])],
                }
            elif "aborted" in ev:
                aborted[label] = ev["aborted"].get("description", ev["aborted"].get("reason", ""))
        elif "targetConfigured" in eid and "aborted" in ev:
            aborted[eid["targetConfigured"]["label"]] = ev["aborted"].get("description", "")
        elif "actionCompleted" in eid and "action" in ev:
            a = ev["action"]
            if a.get("success"):
                continue
            label = a.get("label") or eid["actionCompleted"].get("label", "")
            text = ""
            for k in ("stderr", "stdout"):
                p = uri_path(a.get(k, {}).get("uri", ""))
                if p:
                    text += read(p)
            if not text:
                text = a.get("failureDetail", {}).get("message", "")
            actions[label].append((a.get("type", "?"), text))
    return completed, aborted, actions


def log_errors(ws, meta):
    """Errors of build.log that name a BUILD file location: (package, line) -> message."""
    out = {}
    for l in read(os.path.join(meta, "build.log")).splitlines():
        m = re.match(r"ERROR: (\S+)/BUILD(?:\.bazel)?:(\d+):\d+: (.*)", l)
        if m and m.group(1).startswith(ws):
            out.setdefault((os.path.relpath(m.group(1), ws), m.group(2)), m.group(3))
    return out


def programs(ws):
    found = []
    for d, dirs, files in os.walk(ws):
        dirs[:] = [x for x in dirs if not x.startswith(("bazel-", ".real-repos", ".git"))]
        for f in files:
            if f.endswith(SOURCE_EXTS):
                p = os.path.join(d, f)
                if MAIN_RE.search(read(p, "rb")):
                    found.append(os.path.relpath(p, ws))
    return sorted(found)


def file_label(rel):
    d, f = os.path.split(rel)
    return f"//{d}:{f}"


def needed(path):
    try:
        out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True).stdout
    except OSError:
        return None
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", out)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    ws = os.path.abspath(argv[1])
    tsv = argv[argv.index("--tsv") + 1] if "--tsv" in argv else None
    meta = os.path.join(ws, ".real-repos")
    info = collections.defaultdict(list)
    for l in read(os.path.join(meta, "source.tsv")).splitlines():
        k, _, v = l.partition("\t")
        info[k].append(v)
    name = os.path.basename(ws)
    print(f"== {name}: {info['source'][0] if info['source'] else '?'} at {info['commit'][0] if info['commit'] else '?'}")
    if info["rules"]:
        print(f"   rules_cuda_go: {info['rules'][0]}")
    if info["only"] and info["only"][0]:
        print(f"   only: {info['only'][0]}")
    print(f"   directives: {'; '.join(info['directive']) if info['directive'] else '(none)'}")

    glog = [l for l in read(os.path.join(meta, "gazelle.log")).splitlines() if l.startswith("gazelle: ")]
    kinds = collections.Counter()
    for l in glog:
        m = re.search(r"gazelle: \S+?: (.*?)(?::| \(|\"|$)", l)
        kinds[re.sub(r"\d+", "N", (m.group(1) if m else l)[:70])] += 1
    print(f"-- gazelle logged {len(glog)} lines")
    for k, n in kinds.most_common(12):
        print(f"   {n:5d}  {k}")

    rules = load_rules(meta)
    completed, aborted, actions = load_bep(meta)
    locerr = log_errors(ws, meta)
    bazel_bin = read(os.path.join(meta, "bazel-bin.txt")).strip()
    build_rc = info["build_rc"][0] if info["build_rc"] else "?"
    flags = info["flags"][0] + " " if info["flags"] and info["flags"][0] else ""
    print(f"-- bazel build {flags}-c opt --keep_going //...: exit {build_rc}")

    status = {}

    def own_cause(label):
        if label in actions:
            typ, text = actions[label][0]
            more = f" (+{len(actions[label]) - 1} more failed actions)" if len(actions[label]) > 1 else ""
            return f"{typ}: {shorten(first_error(text), ws)}{more}"
        if label in aborted:
            return shorten(aborted[label], ws)
        r = rules.get(label)
        if r:
            m = re.match(r"(.*)/BUILD(?:\.bazel)?:(\d+):", r["location"])
            if m:
                key = (os.path.relpath(m.group(1), ws), m.group(2))
                if key in locerr:
                    return shorten(locerr[key], ws)
        return None

    def root_failed(label, seen=None):
        seen = seen or set()
        for dep in rules.get(label, {}).get("deps", []):
            if dep in seen:
                continue
            seen.add(dep)
            if dep in rules and not completed.get(dep, {}).get("success", dep not in aborted and dep not in actions):
                if own_cause(dep):
                    return dep
                deeper = root_failed(dep, seen)
                if deeper:
                    return deeper
        return None

    shown = [l for l, r in sorted(rules.items()) if r["kind"] not in SKIP_KINDS and l.startswith("//")]
    for label in shown:
        kind = rules[label]["kind"]
        if completed.get(label, {}).get("success"):
            status[label] = ("built", "")
            continue
        cause = own_cause(label)
        if cause:
            status[label] = ("FAILED", cause)
        elif label in completed or build_rc not in ("skipped",):
            dep = root_failed(label)
            status[label] = ("dep-failed", f"needs {dep}" if dep else "not built (see build.log)")
        else:
            status[label] = ("not-built", "")

    counts = collections.Counter((rules[l]["kind"], status[l][0]) for l in shown)
    by_kind = collections.defaultdict(dict)
    for (k, s), n in counts.items():
        by_kind[k][s] = n
    print("-- targets: " + "; ".join(f"{k} " + ", ".join(f"{n} {s}" for s, n in sorted(v.items()))
                                    for k, v in sorted(by_kind.items())))
    for label in shown:
        s, cause = status[label]
        if s != "built":
            print(f"   {s:10s} {rules[label]['kind']:11s} {label}  {cause}")

    progs = programs(ws)
    owner = {}
    for label, r in rules.items():
        for s in r.get("srcs", []):
            owner.setdefault(s, []).append(label)
    binaries = {l for l, r in rules.items() if r["kind"] == "cc_binary"}

    def reach(label):
        """The rules of the workspace that label depends on, directly or not (a program around a
        shared main() links the main's library through its own library's deps)."""
        seen, todo = set(), list(rules.get(label, {}).get("deps", []))
        while todo:
            d = todo.pop()
            if d in seen or d not in rules:
                continue
            seen.add(d)
            todo.extend(rules[d].get("deps", []))
        return seen

    reached = {b: reach(b) for b in binaries}
    prog_rows = []
    for p in progs:
        fl = file_label(p)
        libs = owner.get(fl, [])
        bins = sorted(b for b in binaries if b in libs or any(x in reached[b] for x in libs))
        if bins:
            st = [status.get(b, ("?", ""))[0] for b in bins]
            prog_rows.append((p, bins[0] + (f" (+{len(bins) - 1})" if len(bins) > 1 else ""), st[0]))
        else:
            prog_rows.append((p, "(no cc_binary; in " + (", ".join(libs) or "no rule") + ")", "no-binary"))
    nbuilt = sum(1 for _, _, s in prog_rows if s == "built")
    print(f"-- programs (sources with main()): {len(progs)}; with a cc_binary: "
          f"{sum(1 for _, b, _ in prog_rows if not b.startswith('('))}; binary built: {nbuilt}")
    for p, b, s in prog_rows:
        print(f"   {s:10s} {p}  ->  {b}")

    if bazel_bin:
        print("-- CUDA libraries NEEDed by the built binaries (readelf -d)")
        needs = collections.Counter()
        for b in sorted(binaries):
            if status.get(b, ("",))[0] != "built":
                continue
            pkg, _, tname = b[2:].partition(":")
            n = needed(os.path.join(bazel_bin, pkg, tname))
            if n is None:
                continue
            cuda = [x for x in n if CUDA_LIB_RE.match(x)]
            needs[" ".join(cuda) or "(none)"] += 1
        for k, n in needs.most_common():
            print(f"   {n:5d}  {k}")

    if tsv:
        with open(tsv, "w") as f:
            for label in shown:
                s, cause = status[label]
                f.write(f"{label}\t{rules[label]['kind']}\t{s}\t{cause}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
