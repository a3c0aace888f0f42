#!/usr/bin/env python3
"""The package lists against what the build links: every library a link
line of `make -n` uses (-lNAME) must come from a package of the list the
installer of that build installs.

  purpose   link lines of                      list                            installers
  build     make -n install                    validators/build-packages.txt   action.yml, Dockerfile (build stage), make deps,
                                                                               the jobs of conformance.yml that build
  fuzzers   make -n fuzz fuzz-mutators         fuzzers/build-packages.txt      .clusterfuzzlite/Dockerfile,
            fuzz-afl (static archives, as                                      oss-fuzz/projects/tracelint/Dockerfile, make deps
            fuzzers/build.sh links them)
  tests     make -n tests (the ASan build)     tests/packages.txt              make deps

An installer installs the lists it names (through the path it copies them
to, in a Dockerfile) and the packages it names itself.

usage: check_packages.py SRCDIR
Prints one line per problem and exits 1 if there is any."""
import os
import re
import shlex
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_files import dpkg_owner, parse_dockerfile  # noqa: E402

LISTS = {
    "build": "validators/build-packages.txt",
    "fuzzers": "fuzzers/build-packages.txt",
    "tests": "tests/packages.txt",
}
problems = []


def problem(msg):
    problems.append(msg)
    print(f"check_packages: {msg}")


def read_list(src, rel):
    try:
        with open(os.path.join(src, rel)) as f:
            return {w for line in f for w in line.split("#")[0].split()}
    except OSError as e:
        problem(f"{rel}: {e}")
        return set()


def link_libraries(src, scratch, args):
    """The -lNAME of every link line `make -n ARGS` prints, from an empty build directory."""
    r = subprocess.run(["make", "-n", "-C", src, "--no-print-directory", f"BUILD={scratch}"] + args,
                       capture_output=True, text=True)
    if r.returncode != 0:
        problem(f"make -n {' '.join(args)} failed: {r.stderr.strip()[:200]}")
    libs = set()
    for line in r.stdout.replace("\\\n", " ").splitlines():
        if re.search(r"(^|\s)-o\s", line) and " -c " not in line:
            # -lNAME.js names a JavaScript library of Emscripten's own (the page's
            # link line), no shared object of a Debian package
            libs.update(lib for lib in re.findall(r"(?<!\S)-l([\w+.-]+)", line)
                        if not lib.endswith(".js"))
    if not libs:
        problem(f"make -n {' '.join(args)}: no link line with a library")
    return libs


def installed_by_apt(text):
    """Package names an `apt-get install` command line gives literally."""
    pkgs = set()
    for m in re.finditer(r"apt-get install([^&|;\n]*)", text):
        pkgs.update(w for w in m.group(1).split() if not w.startswith("-") and "$" not in w)
    return pkgs


def lists_named(text, copies=()):
    """The package lists an installer reads, directly or through a copy."""
    names = {rel for rel in LISTS.values() if rel in text}
    for src, dst in copies:
        if src in LISTS.values() and dst in text:
            names.add(src)
    return names


def installer_packages(src):
    """{installer: packages it installs} for every installer of the repository."""
    out = {}
    deb = subprocess.run(["make", "-s", "--no-print-directory", "-C", src, "ci-deb-packages"],
                         capture_output=True, text=True).stdout.split()
    out["make deps"] = set(deb)
    def from_steps(steps):
        pkgs = set()
        for step in steps or []:
            run = step.get("run", "")
            if "apt-get install" in run:
                pkgs |= installed_by_apt(run)
                for rel in lists_named(run):
                    pkgs |= read_list(src, rel)
        return pkgs
    with open(os.path.join(src, "action.yml")) as f:
        out["action.yml"] = from_steps(yaml.safe_load(f)["runs"]["steps"])
    with open(os.path.join(src, ".github/workflows/conformance.yml")) as f:
        for name, job in yaml.safe_load(f)["jobs"].items():
            if any("make" in step.get("run", "") for step in job.get("steps", [])):
                out[f"conformance.yml job {name}"] = from_steps(job.get("steps"))
    for path in ("Dockerfile", ".clusterfuzzlite/Dockerfile", "oss-fuzz/projects/tracelint/Dockerfile"):
        stage = parse_dockerfile(os.path.join(src, path))[0][1]
        copies = [tuple(shlex.split(a)[-2:]) for i, a in stage if i == "COPY"]
        pkgs = set()
        for instr, arg in stage:
            if instr == "RUN" and "apt-get install" in arg:
                pkgs |= installed_by_apt(arg)
                for rel in lists_named(arg, copies):
                    pkgs |= read_list(src, rel)
        out[path] = pkgs
    return out


def owner_of(lib, static):
    """The package of the file the linker takes for -lLIB (a glibc library
    such as libdl may exist as an archive only)."""
    names = [f"lib{lib}.a"] if static else [f"lib{lib}.so", f"lib{lib}.a"]
    for name in names:
        path = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True, text=True).stdout.strip()
        if os.path.isabs(path):
            return dpkg_owner(path), path
    return None, names[0]


def main():
    src = os.path.abspath(sys.argv[1])
    installers = installer_packages(src)
    with tempfile.TemporaryDirectory() as scratch:
        purposes = [
            ("build", link_libraries(src, scratch, ["install"]), False,
             ["action.yml", "Dockerfile", "make deps"] + [i for i in installers if i.startswith("conformance.yml")]),
            ("fuzzers", link_libraries(src, scratch, ["fuzz", "fuzz-mutators", "fuzz-afl"]), True,
             [".clusterfuzzlite/Dockerfile", "oss-fuzz/projects/tracelint/Dockerfile", "make deps"]),
            ("tests", link_libraries(src, scratch, [f"O={scratch}/san", "SANITIZE=1", "CC=gcc", "tests"]), False,
             ["make deps"]),
        ]
    for purpose, libs, static, users in purposes:
        own = read_list(src, LISTS[purpose])
        if purpose == "tests":  # on top of the two build lists
            own = set().union(*(read_list(src, rel) for rel in LISTS.values()))
        for lib in sorted(libs):
            owner, path = owner_of(lib, static)
            if owner is None:
                problem(f"-l{lib}: no Debian package owns {path}")
                continue
            if owner not in own:
                problem(f"{LISTS[purpose]}: lacks {owner}, which provides -l{lib} ({path})")
            for user in users:
                if owner not in installers[user]:
                    problem(f"{user}: does not install {owner}, which provides -l{lib} to the {purpose} link lines")
        print(f"{purpose}: {' '.join('-l' + lib for lib in sorted(libs))} from {LISTS[purpose]}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
