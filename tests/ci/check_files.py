#!/usr/bin/env python3
"""Offline checks of the CI and fuzzing-service files (no container runtime,
no network): every workflow and project file parses as YAML and has the
shape its consumer expects, every path and script it names exists, and
every Dockerfile installs the build's packages from the one list.

usage: check_files.py files SRCDIR
       check_files.py docker-script DOCKERFILE STAGE SRCDIR
           prints a shell script that runs the RUN commands of STAGE here
       check_files.py docker-runtime DOCKERFILE
           prints the runtime stage's packages, then its COPY --from sources
Prints one line per problem and exits 1 if there is any."""
import glob
import os
import re
import shlex
import subprocess
import sys

import yaml

problems = []


def problem(msg):
    problems.append(msg)
    print(f"check_files: {msg}")


def load_yaml(path):
    try:
        with open(path) as f:
            return yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        problem(f"{path}: not valid YAML: {e}")
        return None


# Inputs of the ClusterFuzzLite actions (google/clusterfuzzlite actions/*/action.yml, v1).
CFL_INPUTS = {
    "build_fuzzers": {"language", "sanitizer", "dry-run", "allowed-broken-targets-percentage",
                      "project-src-path", "bad-build-check", "keep-unaffected-fuzz-targets",
                      "storage-repo", "storage-repo-branch", "storage-repo-branch-coverage",
                      "upload-build", "github-token"},
    "run_fuzzers": {"language", "fuzz-seconds", "sanitizer", "mode", "github-token", "storage-repo",
                    "storage-repo-branch", "storage-repo-branch-coverage", "report-unreproducible-crashes",
                    "minimize-crashes", "parallel-fuzzing", "output-sarif", "report-timeouts", "report-ooms",
                    "dry-run"},
}
CFL_MODES = {"code-change", "batch", "prune", "coverage"}
SANITIZERS = {"address", "undefined", "memory", "coverage"}
PACKAGE_LIST = "fuzzers/build-packages.txt"
CLI_PACKAGE_LIST = "validators/build-packages.txt"

# Words of a shell command that name files of this repository.
REPO_PATH = re.compile(r"(?<![\w./$-])((?:fuzzers|reports|corpus|validators|tests|oss-fuzz|specs)/[\w./-]*\w)")


def repo_paths_exist(src, text, where):
    for p in REPO_PATH.findall(text):
        if "*" in p:
            continue
        if not os.path.exists(os.path.join(src, p)):
            problem(f"{where}: names {p}, which does not exist")


def make_targets_exist(src, text, where):
    for line in text.replace("\\\n", " ").splitlines():
        try:
            words = shlex.split(line.split("||")[0].split("&&")[0].split(">")[0])
        except ValueError:
            continue
        if not words or words[0] != "make":
            continue
        targets, skip = [], False
        for w in words[1:]:
            if skip:
                skip = False
            elif w in ("-C", "-f", "-j"):
                skip = w != "-j"
            elif not w.startswith("-") and "=" not in w and "$" not in w:
                targets.append(w)
        for t in targets:
            r = subprocess.run(["make", "-n", "-C", src, t], capture_output=True, text=True)
            if r.returncode != 0:
                problem(f"{where}: make target {t} does not exist ({r.stderr.strip()[:120]})")


def expressions_known(text, where, inputs=None):
    for expr in re.findall(r"\$\{\{\s*(.*?)\s*\}\}", text):
        for m in re.finditer(r"\binputs\.([\w-]+)", expr):
            if inputs is not None and m.group(1) not in inputs:
                problem(f"{where}: uses undeclared input {m.group(1)}")


def check_steps(src, steps, where, inputs=None):
    if not isinstance(steps, list) or not steps:
        problem(f"{where}: no steps")
        return []
    for i, step in enumerate(steps):
        w = f"{where}: step {step.get('name', i)}"
        if ("uses" in step) == ("run" in step):
            problem(f"{w}: needs exactly one of uses and run")
        if "uses" in step:
            uses = step["uses"]
            if uses.startswith("./"):
                if not os.path.exists(os.path.join(src, uses)):
                    problem(f"{w}: local action {uses} does not exist")
            elif not re.fullmatch(r"[\w.-]+/[\w./-]+@[\w.-]+", uses):
                problem(f"{w}: uses {uses}: not owner/repo[/path]@ref")
        if "run" in step:
            repo_paths_exist(src, step["run"], w)
            make_targets_exist(src, step["run"], w)
        expressions_known(yaml.safe_dump(step), w, inputs)
    return steps


def check_workflow(src, path):
    wf = load_yaml(path)
    if not isinstance(wf, dict):
        return None
    # YAML 1.1 reads the key `on` as true.
    if "on" not in wf and True not in wf:
        problem(f"{path}: no `on` trigger")
    if not wf.get("name"):
        problem(f"{path}: no name")
    jobs = wf.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        problem(f"{path}: no jobs")
        return wf
    for name, job in jobs.items():
        if "runs-on" not in job:
            problem(f"{path}: job {name}: no runs-on")
        for need in [job["needs"]] if isinstance(job.get("needs"), str) else job.get("needs", []):
            if need not in jobs:
                problem(f"{path}: job {name} needs {need}, which is not a job")
        check_steps(src, job.get("steps"), f"{path}: job {name}")
    return wf


def cfl_steps(wf):
    """(action, with) for every ClusterFuzzLite step of a workflow."""
    out = []
    for job in (wf or {}).get("jobs", {}).values():
        for step in job.get("steps", []):
            m = re.fullmatch(r"google/clusterfuzzlite/actions/(build_fuzzers|run_fuzzers)@v1", step.get("uses", ""))
            if m:
                out.append((m.group(1), step.get("with", {}), job))
    return out


def check_clusterfuzzlite(src):
    d = os.path.join(src, ".clusterfuzzlite")
    proj = load_yaml(os.path.join(d, "project.yaml")) or {}
    language = proj.get("language")
    if language not in ("c", "c++"):
        problem(f".clusterfuzzlite/project.yaml: language {language!r}, expected c or c++")
    check_build_sh(src, os.path.join(d, "build.sh"))
    df = parse_dockerfile(os.path.join(d, "Dockerfile"))
    check_base_builder_dockerfile(src, df, ".clusterfuzzlite/Dockerfile", cfl=True)
    modes = set()
    for path in sorted(glob.glob(os.path.join(src, ".github/workflows/cflite_*.yml"))):
        wf = check_workflow(src, path)
        name = os.path.basename(path)
        steps = cfl_steps(wf)
        if not steps:
            problem(f"{name}: no ClusterFuzzLite step")
        for action, with_, job in steps:
            extra = set(with_) - CFL_INPUTS[action]
            if extra:
                problem(f"{name}: {action} has no input {sorted(extra)}")
            if with_.get("language") not in (None, language):
                problem(f"{name}: language {with_.get('language')} differs from project.yaml's {language}")
            san = str(with_.get("sanitizer", "address"))
            if not san.startswith("${{") and san not in SANITIZERS:
                problem(f"{name}: sanitizer {san}")
            if action == "run_fuzzers":
                mode = with_.get("mode", "code-change")
                modes.add(mode)
                if mode not in CFL_MODES:
                    problem(f"{name}: mode {mode}")
                if "fuzz-seconds" not in with_ or "github-token" not in with_:
                    problem(f"{name}: run_fuzzers needs fuzz-seconds and github-token")
                if mode == "coverage" and with_.get("sanitizer") != "coverage":
                    problem(f"{name}: the coverage mode needs sanitizer: coverage")
                if mode == "code-change":
                    check_sarif_upload(name, with_, job)
        if name == "cflite_build.yml" and not any(w.get("upload-build") is True for a, w, j in steps):
            problem(f"{name}: the continuous build must upload-build")
    for mode in sorted(CFL_MODES - modes):
        problem(f".github/workflows: no ClusterFuzzLite workflow runs mode {mode}")


def check_sarif_upload(name, with_, job):
    if with_.get("output-sarif") is not True:
        problem(f"{name}: code-change fuzzing without output-sarif: true")
    ups = [s for s in job.get("steps", []) if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    if not ups:
        problem(f"{name}: no upload-sarif step")
        return
    if ups[0].get("with", {}).get("sarif_file") != "cifuzz-sarif/results.sarif":
        problem(f"{name}: upload-sarif must read cifuzz-sarif/results.sarif (where run_fuzzers writes it)")
    if "always()" not in str(ups[0].get("if", "")):
        problem(f"{name}: upload-sarif must run when fuzzing failed (if: always() ...)")
    if job.get("permissions", {}).get("security-events") != "write":
        problem(f"{name}: the job needs permissions security-events: write to upload SARIF")


def check_build_sh(src, path):
    rel = os.path.relpath(path, src)
    if not os.path.isfile(path):
        problem(f"{rel}: missing")
        return
    if not os.access(path, os.X_OK):
        problem(f"{rel}: not executable")
    if subprocess.run(["bash", "-n", path]).returncode != 0:
        problem(f"{rel}: bash syntax error")
    text = open(path).read()
    if "fuzzers/build.sh" not in text:
        problem(f"{rel}: does not run fuzzers/build.sh")
    repo_paths_exist(src, text, rel)


def parse_dockerfile(path):
    """[(stage name, [(INSTRUCTION, argument)])] with continuation lines joined."""
    stages = []
    try:
        text = open(path).read()
    except OSError as e:
        problem(f"{path}: {e}")
        return stages
    text = re.sub(r"\\\n", " ", text)
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        instr, _, arg = line.partition(" ")
        instr = instr.upper()
        if instr == "FROM":
            m = re.match(r"(\S+)(?:\s+AS\s+(\S+))?", arg, re.I)
            stages.append((m.group(2) or str(len(stages)), [("FROM", m.group(1))]))
        elif stages:
            stages[-1][1].append((instr, arg.strip()))
        else:
            problem(f"{path}: {instr} before FROM")
    return stages


def installs_from_list(path, runs, list_in_image, package_list=PACKAGE_LIST):
    """The apt-get install commands must take their packages from the list."""
    found = False
    for run in runs:
        if "apt-get install" not in run:
            continue
        if list_in_image in run:
            found = True
    if not found:
        problem(f"{path}: does not install the packages of {package_list} (through {list_in_image})")


def check_base_builder_dockerfile(src, stages, path, cfl):
    if len(stages) != 1:
        problem(f"{path}: expected one stage")
        return
    instrs = stages[0][1]
    base = instrs[0][1]
    if not base.startswith("gcr.io/oss-fuzz-base/base-builder"):
        problem(f"{path}: FROM {base}, not the OSS-Fuzz base builder")
    runs = [a for i, a in instrs if i == "RUN"]
    copies = [shlex.split(a) for i, a in instrs if i == "COPY"]
    workdir = [a for i, a in instrs if i == "WORKDIR"]
    if cfl:
        for c in copies:
            if not os.path.exists(os.path.join(src, c[0])):
                problem(f"{path}: COPY {c[0]}: no such file in the repository")
        pkg_copy = [c for c in copies if c[0] == PACKAGE_LIST]
        installs_from_list(path, runs, pkg_copy[0][1] if pkg_copy else PACKAGE_LIST)
        if [".", "$SRC/tracelint"] not in copies:
            problem(f"{path}: the checkout must be copied to $SRC/tracelint")
        if [".clusterfuzzlite/build.sh", "$SRC/"] not in copies:
            problem(f"{path}: build.sh must be copied to $SRC/")
        if workdir != ["$SRC/tracelint"]:
            problem(f"{path}: WORKDIR must be $SRC/tracelint")
    else:
        clones = [r for r in runs if r.startswith("git clone")]
        if len(clones) != 1:
            problem(f"{path}: expected one git clone")
            return None
        words = clones[0].split()
        installs_from_list(path, runs, f"$SRC/{words[-1]}/{PACKAGE_LIST}")
        if workdir != [words[-1]]:
            problem(f"{path}: WORKDIR must be the clone, {words[-1]}")
        for c in copies:
            if not os.path.exists(os.path.join(os.path.dirname(os.path.join(src, path)), c[0])):
                problem(f"{path}: COPY {c[0]}: not in the project directory")
        return words[-2]
    return None


def check_ossfuzz(src):
    d = "oss-fuzz/projects/tracelint"
    proj = load_yaml(os.path.join(src, d, "project.yaml")) or {}
    known = {"homepage", "language", "primary_contact", "auto_ccs", "main_repo", "sanitizers", "fuzzing_engines",
             "architectures", "vendor_ccs", "help_url", "builds_per_day", "file_github_issue",
             "disable_remediation", "disable_remediation_pre_review"}
    for k in set(proj) - known:
        problem(f"{d}/project.yaml: unknown key {k}")
    for k in ("homepage", "language", "primary_contact", "main_repo"):
        if not proj.get(k):
            problem(f"{d}/project.yaml: {k} is required")
    if proj.get("language") not in ("c", "c++"):
        problem(f"{d}/project.yaml: language {proj.get('language')!r}")
    engines = proj.get("fuzzing_engines", [])
    for e in ("libfuzzer", "afl"):
        if e not in engines:
            problem(f"{d}/project.yaml: fuzzing_engines lacks {e}")
    sans = [s if isinstance(s, str) else next(iter(s)) for s in proj.get("sanitizers", [])]
    for s in ("address", "undefined"):
        if s not in sans:
            problem(f"{d}/project.yaml: sanitizers lacks {s}")
    for s in set(sans) - {"address", "undefined", "memory"}:
        problem(f"{d}/project.yaml: sanitizer {s}")
    check_build_sh(src, os.path.join(src, d, "build.sh"))
    url = check_base_builder_dockerfile(src, parse_dockerfile(os.path.join(src, d, "Dockerfile")),
                                        f"{d}/Dockerfile", cfl=False)
    if url and url != proj.get("main_repo"):
        problem(f"{d}: the Dockerfile clones {url}, project.yaml's main_repo is {proj.get('main_repo')}")


def read_package_list(src):
    pkgs = []
    for line in open(os.path.join(src, PACKAGE_LIST)):
        pkgs += line.split("#")[0].split()
    return pkgs


def check_packages(src):
    """The list is what the build links and runs, and `make deps` installs it."""
    pkgs = read_package_list(src)
    libs = subprocess.run(["make", "-s", "--no-print-directory", "-C", src, "fuzz-ldlibs"],
                          capture_output=True, text=True, check=True).stdout.split()
    for flag in sorted(set(libs)):
        if not flag.startswith("-l"):
            continue
        so = subprocess.run(["gcc", f"-print-file-name=lib{flag[2:]}.so"], capture_output=True,
                            text=True).stdout.strip()
        owner = dpkg_owner(so)
        if owner is None:
            problem(f"{flag}: no Debian package owns {so}")
        elif owner not in pkgs:
            problem(f"{PACKAGE_LIST}: lacks {owner}, which provides {flag} (make fuzz-ldlibs)")
    for tool in ("make", "zip", "zstd"):
        owner = dpkg_owner(subprocess.run(["sh", "-c", f"command -v {tool}"], capture_output=True,
                                          text=True).stdout.strip())
        if owner not in pkgs:
            problem(f"{PACKAGE_LIST}: lacks {owner or tool}, whose {tool} fuzzers/build.sh runs")
    deb = subprocess.run(["make", "-s", "--no-print-directory", "-C", src, "ci-deb-packages"],
                         capture_output=True, text=True).stdout.split()
    for p in pkgs:
        if p not in deb:
            problem(f"{p} (in {PACKAGE_LIST}) is not in DEB_PACKAGES: make deps would not install it")


def dpkg_owner(path):
    if not path:
        return None
    candidates = [os.path.normpath(path), os.path.realpath(path)]
    for c in list(candidates):
        for a, b in (("/usr/lib/", "/lib/"), ("/lib/", "/usr/lib/"), ("/usr/bin/", "/bin/"), ("/bin/", "/usr/bin/")):
            if c.startswith(a):
                candidates.append(b + c[len(a):])
    for c in candidates:
        r = subprocess.run(["dpkg", "-S", c], capture_output=True, text=True)
        if r.returncode == 0:
            return r.stdout.split(":")[0].split(",")[0].strip()
    return None


def check_action(src):
    act = load_yaml(os.path.join(src, "action.yml")) or {}
    for k in ("name", "description", "inputs", "runs"):
        if k not in act:
            problem(f"action.yml: no {k}")
    runs = act.get("runs", {})
    if runs.get("using") != "composite":
        problem("action.yml: not a composite action")
    for step in check_steps(src, runs.get("steps"), "action.yml", set(act.get("inputs", {}))):
        if "run" in step and "shell" not in step:
            problem(f"action.yml: step {step.get('name')}: a composite run step needs shell")
        if "run" in step:
            for p in re.findall(r"\$GITHUB_ACTION_PATH/([\w./-]+)", step["run"]):
                if not os.path.exists(os.path.join(src, p)):
                    problem(f"action.yml: names $GITHUB_ACTION_PATH/{p}, which does not exist")
    for name, spec in act.get("inputs", {}).items():
        if "description" not in spec:
            problem(f"action.yml: input {name} has no description")


def files(src):
    for path in sorted(glob.glob(os.path.join(src, ".github/workflows/*.yml"))):
        if not os.path.basename(path).startswith("cflite_"):
            check_workflow(src, path)
    check_clusterfuzzlite(src)
    check_ossfuzz(src)
    check_action(src)
    check_packages(src)
    for other in (".pre-commit-hooks.yaml",):
        if os.path.exists(os.path.join(src, other)):
            load_yaml(os.path.join(src, other))
    # The container image's build stage installs from the CLI's list.
    stages = parse_dockerfile(os.path.join(src, "Dockerfile"))
    if stages:
        copies = [shlex.split(a) for i, a in stages[0][1] if i == "COPY"]
        dst = [c[1] for c in copies if c[0] == CLI_PACKAGE_LIST]
        installs_from_list("Dockerfile", [a for i, a in stages[0][1] if i == "RUN"],
                           dst[0] if dst else CLI_PACKAGE_LIST, CLI_PACKAGE_LIST)


def docker_script(dockerfile, stage, src):
    """The RUN commands of STAGE as a script for this machine: ARGs become
    overridable variables, COPY'd files are read from the checkout, WORKDIR
    the checkout is a cd into SRCDIR."""
    stages = dict(parse_dockerfile(dockerfile))
    if stage not in stages:
        sys.exit(f"check_files: no stage {stage}")
    out = ["set -eu"]
    copied = {}
    for instr, arg in stages[stage]:
        if instr == "COPY":
            s, d = shlex.split(arg)[-2:]
            if s == ".":
                copied[d] = src
            else:
                copied[d] = os.path.join(src, s)
        elif instr == "ARG":
            name, _, default = arg.partition("=")
            out.append(f': "${{{name}:={default}}}"')
        elif instr == "WORKDIR":
            out.append(f"cd {shlex.quote(copied.get(arg, arg))}")
        elif instr == "RUN":
            for d, s in sorted(copied.items(), key=lambda kv: -len(kv[0])):
                arg = arg.replace(d, s) if d != "/src" else arg
            # The image's apt cache is not this machine's to clear.
            out.append(arg.replace("rm -rf /var/lib/apt/lists/*", ":"))
    print("\n".join(out))


def docker_runtime(dockerfile):
    stages = parse_dockerfile(dockerfile)
    last = stages[-1][1]
    pkgs = []
    for instr, arg in last:
        if instr == "RUN" and "apt-get install" in arg:
            cmd = arg.split("apt-get install", 1)[1].split("&&")[0]
            pkgs += [w for w in cmd.split() if not w.startswith("-")]
    print(" ".join(sorted(pkgs)))
    for instr, arg in last:
        if instr == "COPY" and arg.startswith("--from="):
            print(shlex.split(arg)[1])


def main():
    cmd = sys.argv[1]
    if cmd == "files":
        files(sys.argv[2])
    elif cmd == "docker-script":
        docker_script(*sys.argv[2:5])
    elif cmd == "docker-runtime":
        docker_runtime(sys.argv[2])
    else:
        sys.exit(__doc__)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
