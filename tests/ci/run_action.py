#!/usr/bin/env python3
"""Runs a composite GitHub Action's steps here, as the runner would: each
`run` step through `bash --noprofile --norc -eo pipefail` with its `env`,
GITHUB_ACTION_PATH, RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_PATH and
GITHUB_STEP_SUMMARY; `${{ }}` expressions over inputs (given or default),
steps.<id>.outputs / outcome, github.action_path and runner.temp; `if:`
conditions with always(), success(), failure(), ==, !=, &&, ||. A `uses`
step is not run: its evaluated `with` is appended to USES_LOG as one JSON
line, for the test to check. Prints one line per step; exits 1 when a step
failed (the job's verdict), 0 otherwise.

usage: run_action.py ACTION_YML RUNNER_TEMP USES_LOG [name=value ...]"""
import json
import os
import re
import subprocess
import sys

import yaml


def main():
    action_file, temp, uses_log = sys.argv[1:4]
    given = dict(a.split("=", 1) for a in sys.argv[4:])
    action = yaml.safe_load(open(action_file))
    action_path = os.path.dirname(os.path.abspath(action_file))
    inputs = {}
    for name, spec in action.get("inputs", {}).items():
        if name in given:
            inputs[name] = given.pop(name)
        elif spec.get("required") and "default" not in spec:
            sys.exit(f"run_action: input {name} is required")
        else:
            inputs[name] = str(spec.get("default", ""))
    if given:
        sys.exit(f"run_action: unknown inputs {sorted(given)}")
    steps = {}
    failed = False
    path_extra = []

    def lookup(ident):
        parts = ident.split(".")
        if parts[0] == "inputs":
            return inputs[parts[1]]
        if parts[0] == "github" and parts[1] == "action_path":
            return action_path
        if parts[0] == "runner" and parts[1] == "temp":
            return temp
        if parts[0] == "steps":
            st = steps.get(parts[1], {"outputs": {}, "outcome": ""})
            if parts[2] == "outputs":
                return st["outputs"].get(parts[3], "")
            return st[parts[2]]
        raise ValueError(f"unknown context {ident}")

    def evaluate(expr):
        tokens = re.findall(r"'[^']*'|&&|\|\||==|!=|\(|\)|[A-Za-z_][\w.-]*(?:\(\))?|\S", expr)
        py = []
        for t in tokens:
            if t.startswith("'"):
                py.append(repr(t[1:-1]))
            elif t == "&&":
                py.append(" and ")
            elif t == "||":
                py.append(" or ")
            elif t in ("==", "!=", "(", ")"):
                py.append(f" {t} ")
            elif t == "always()":
                py.append("True")
            elif t == "success()":
                py.append(repr(not failed))
            elif t == "failure()":
                py.append(repr(failed))
            elif t in ("true", "false"):
                py.append(repr(t))
            else:
                py.append(repr(lookup(t)))
        return eval("".join(py), {"__builtins__": {}})

    def substitute(text):
        return re.sub(r"\$\{\{\s*(.*?)\s*\}\}", lambda m: str(evaluate(m.group(1))), str(text))

    for i, step in enumerate(action["runs"]["steps"]):
        sid = step.get("id", f"step{i}")
        cond = step.get("if", "success()")
        cond = re.sub(r"^\$\{\{\s*(.*?)\s*\}\}$", r"\1", str(cond))
        if not evaluate(cond):
            steps[sid] = {"outputs": {}, "outcome": "skipped"}
            print(f"run_action: skipped: {step.get('name', sid)}")
            continue
        if "uses" in step:
            with open(uses_log, "a") as log:
                log.write(json.dumps({"uses": step["uses"],
                                      "with": {k: substitute(v) for k, v in step.get("with", {}).items()}}) + "\n")
            steps[sid] = {"outputs": {}, "outcome": "success"}
            print(f"run_action: uses {step['uses']}: {step.get('name', sid)}")
            continue
        if step.get("shell") != "bash":
            sys.exit(f"run_action: step {sid}: a composite run step needs shell: bash")
        out_file = os.path.join(temp, f"output-{i}")
        path_file = os.path.join(temp, f"path-{i}")
        open(out_file, "w").close()
        open(path_file, "w").close()
        env = dict(os.environ)
        env.update({k: substitute(v) for k, v in step.get("env", {}).items()})
        env.update(GITHUB_ACTION_PATH=action_path, RUNNER_TEMP=temp, GITHUB_OUTPUT=out_file,
                   GITHUB_PATH=path_file, GITHUB_STEP_SUMMARY=os.path.join(temp, "summary"))
        env["PATH"] = os.pathsep.join(path_extra + [env["PATH"]])
        print(f"run_action: run: {step.get('name', sid)}", flush=True)
        rc = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", substitute(step["run"])],
                             env=env)
        outputs = {}
        for line in open(out_file):
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                outputs[k] = v
        path_extra = [l.strip() for l in open(path_file) if l.strip()][::-1] + path_extra
        steps[sid] = {"outputs": outputs, "outcome": "success" if rc == 0 else "failure"}
        if rc != 0:
            print(f"run_action: step failed (exit {rc}): {step.get('name', sid)}")
            failed = True
    print("run_action: job " + ("failed" if failed else "succeeded"))
    for name, spec in action.get("outputs", {}).items():
        print(f"run_action: output {name}={substitute(spec['value'])}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
