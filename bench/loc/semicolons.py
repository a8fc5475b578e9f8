#!/usr/bin/env python3
"""Semicolon counts of C# code beside the paper's (camcubeos 5.4: "we counted the number of lines
of code ... (counting semi-colons)"): the cache and the key-value store together 1,335, the
reliable transport 569, the image store 151.

    bench/loc/semicolons.py [--by-folder]

Counts ';' in the .cs files of each component (bin/ and obj/ left out, and the top folders a row
names) outside comments, string and character literals; prints a Markdown table (and with --by-folder one row per top folder of
each project). A component whose project does not exist yet shows "-".
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

CACHE = "src/Services/CamCube.Services.Cache"
STORE = "src/Services/CamCube.Services.KeyValue"
# component, its project folders, top folders left out, the paper's count (None: the paper gives none on its own).
COMPONENTS = [
    ("key-value store", [STORE], [], None),
    ("cache", [CACHE], [], None),
    ("cache + key-value store", [CACHE, STORE], [], 1335),
    # The paper's cache and store had no memcached front-end; ours share a protocol library besides.
    ("cache + key-value store, without their memcached front-ends", [CACHE, STORE], ["FrontEnd"], 1335),
    ("memcached protocol library (both front-ends)", ["src/Runtime/CamCube.Memcached"], [], None),
    ("reliable transport", ["src/Services/CamCube.Services.Reliable"], [], 569),
]

# One token at a time: comments, the string and character literal forms C# has, or one character.
TOKEN = re.compile(
    r'//[^\n]*'                      # line comment
    r'|/\*.*?\*/'                    # block comment
    r'|\$*"""[\s\S]*?"""'            # raw string literal (interpolated or not)
    r'|\$?@"(?:[^"]|"")*"'           # verbatim string ($@"...")
    r'|@\$"(?:[^"]|"")*"'            # verbatim interpolated string (@$"...")
    r'|\$?"(?:[^"\\\n]|\\.)*"'       # regular string, interpolated or not
    r"|'(?:[^'\\\n]|\\.)+'"          # character literal
    r'|[^/"\'@$]+|.',                # anything else, in runs
    re.S)


def count_code_semicolons(text):
    """The semicolons of C# source outside comments and literals."""
    count = 0
    for match in TOKEN.finditer(text):
        token = match.group(0)
        if token.startswith(("//", "/*", '"', "'", "@", "$")):
            continue
        count += token.count(";")
    return count


def cs_files(folder):
    for directory, subdirectories, files in os.walk(os.path.join(ROOT, folder)):
        subdirectories[:] = sorted(d for d in subdirectories if d not in ("bin", "obj"))
        for name in sorted(files):
            if name.endswith(".cs"):
                yield os.path.join(directory, name)


def count_folder(folder):
    """(files, semicolons) per top folder of a project ('.' for files at its root)."""
    by_top = {}
    for path in cs_files(folder):
        relative = os.path.relpath(path, os.path.join(ROOT, folder))
        top = relative.split(os.sep)[0] if os.sep in relative else "."
        with open(path, encoding="utf-8-sig") as source:
            n = count_code_semicolons(source.read())
        files, semicolons = by_top.get(top, (0, 0))
        by_top[top] = (files + 1, semicolons + n)
    return by_top


def main():
    by_folder = "--by-folder" in sys.argv[1:]
    print("| component | projects | .cs files | semicolons | paper (camcubeos 5.4) | ours / paper |")
    print("|---|---|--:|--:|--:|--:|")
    for name, folders, excluded, paper in COMPONENTS:
        present = [f for f in folders if os.path.isdir(os.path.join(ROOT, f))]
        counts = {f: {top: n for top, n in count_folder(f).items() if top not in excluded} for f in present}
        files = sum(v[0] for c in counts.values() for v in c.values())
        semicolons = sum(v[1] for c in counts.values() for v in c.values())
        projects = ", ".join(os.path.basename(f) for f in folders)
        if len(present) < len(folders):
            missing = ", ".join(os.path.basename(f) for f in folders if f not in present)
            print(f"| {name} | {projects} | - | - | {paper or '-'} | - (not there yet: {missing}) |")
            continue
        ratio = f"{semicolons / paper:.2f}x" if paper else "-"
        print(f"| {name} | {projects} | {files} | {semicolons:,} | {f'{paper:,}' if paper else '-'} | {ratio} |")
        if by_folder and len(folders) == 1 and len(counts[folders[0]]) > 1:
            for top, (n_files, n_semicolons) in sorted(counts[folders[0]].items()):
                print(f"| &nbsp;&nbsp;{name}: {top}/ | | {n_files} | {n_semicolons:,} | | |")


if __name__ == "__main__":
    main()
