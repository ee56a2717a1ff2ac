#!/usr/bin/env python3
"""Writes the tree of a commit of a git repository into a directory, without a work tree.

    export.py GIT_DIR DEST [REV [PATH...]]

GIT_DIR is a repository's git directory (a bare mirror works); REV defaults to HEAD; PATHs limit the
export to those files or directories. Unlike `git archive`, a blob that the repository lacks (a
partial mirror leaves its largest files out) is skipped and named on stderr instead of stopping the
export. Prints the commit exported on stdout.
"""
import os
import subprocess
import sys


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    git_dir, dest = argv[1], argv[2]
    rev = argv[3] if len(argv) > 3 else "HEAD"
    paths = argv[4:]
    git = ["git", "--git-dir", git_dir]
    try:
        commit = subprocess.run(git + ["rev-parse", "--verify", rev + "^{commit}"], check=True,
                                capture_output=True, text=True).stdout.strip()
        listing = subprocess.run(git + ["ls-tree", "-r", "-z", commit, "--"] + paths, check=True,
                                 capture_output=True).stdout
    except subprocess.CalledProcessError as e:
        print(f"export.py: git failed on {git_dir} at {rev}: {e.stderr.strip()}", file=sys.stderr)
        return 1
    entries = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":  # submodules (commit entries) have no files here
            entries.append((mode, sha, path))
    cat = subprocess.Popen(git + ["cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    missing = []
    for mode, sha, path in entries:
        cat.stdin.write(sha + b"\n")
        cat.stdin.flush()
        header = cat.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            missing.append(path.decode(errors="replace"))
            continue
        data = cat.stdout.read(int(header[2]))
        cat.stdout.read(1)  # the newline after the object
        out = os.path.join(os.fsencode(dest), path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if os.path.lexists(out):
            os.remove(out)
        if mode == b"120000":
            os.symlink(data, out)
            continue
        with open(out, "wb") as f:
            f.write(data)
        if mode == b"100755":
            os.chmod(out, 0o755)
    cat.stdin.close()
    cat.wait()
    print(f"export.py: {commit}: {len(entries) - len(missing)} files written to {dest}, "
          f"{len(missing)} absent from {git_dir}", file=sys.stderr)
    for m in missing:
        print(f"export.py:   absent: {m}", file=sys.stderr)
    print(commit)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
