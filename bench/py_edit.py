#!/usr/bin/env python3
"""The Python baseline for `stitch edit`: the same steps, done the plain way.

  py_edit.py PATH OLD NEW

Reads PATH, checks that OLD occurs exactly once, hashes the old and new content
(SHA-256), writes the new content to a temp file in the same directory, fsyncs it,
keeps the file's mode, renames it over PATH, fsyncs the directory, and prints one
JSON result. Exit status 1 when OLD is missing or ambiguous.
"""

import hashlib
import json
import os
import sys
import tempfile


def main():
    path, old, new = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")
    count = text.count(old)
    if count != 1:
        code = "NO_MATCH" if count == 0 else "AMBIGUOUS_MATCH"
        print(json.dumps({"ok": False, "error": code, "details": {"path": path, "occurrences": count}}))
        return 1
    base = hashlib.sha256(raw).hexdigest()
    out = text.replace(old, new, 1).encode("utf-8")
    digest = hashlib.sha256(out).hexdigest()
    directory = os.path.dirname(os.path.abspath(path))
    mode = os.stat(path).st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".py_edit.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(out)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    dfd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
    result = {"path": path, "baseSha256": base, "sha256": digest, "replacements": 1, "bytes": len(out), "applied": True}
    print(json.dumps({"ok": True, "data": result}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
