#!/usr/bin/env python3
"""Checks that diagnostics' messages are the catalogs' data.

Usage: messages_check.py ROOT

ROOT holds validators/ (C sources) and specs/ (the rule catalogs). A report
function is any function declared there with an `enum tl_rule_id` parameter
and a printf format (`const char *fmt` followed by `...` or `va_list ap`).
Prints one line per problem and exits 1 when there is any:

  literal    a call of a report function whose format holds a string literal
             instead of a catalog template (MSG_...);
  undefined  a MSG_... at a call site that no catalog defines;
  foreign    a call reporting RULE_X with a template whose Rules cell does not
             name X, or passing TL_MSG_RENDERED (a wrapper's already rendered
             message) with a rule of its own and no comment on the line before
             naming the templates (MSG_...) of that rule it was rendered from;
  unused     a template of a catalog that no code under validators/ uses.
"""
import glob
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "."
ID = r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+"


def code_only(s):
    """s with comments and the insides of string and character literals blanked (offsets kept)."""
    out = list(s)
    for m in re.finditer(r"/\*.*?\*/|//[^\n]*|'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"", s, re.S):
        quoted = m.group(0)[0] in "'\""
        for k in range(m.start() + quoted, m.end() - quoted):
            if out[k] != "\n":
                out[k] = " "
    return "".join(out)


def arguments(code, i):
    """code[i] == '(': the (start, end) spans of the call's arguments."""
    depth, args, start = 0, [], i + 1
    for j in range(i, len(code)):
        c = code[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append((start, j))
                return args
        elif c == "," and depth == 1:
            args.append((start, j))
            start = j + 1
    return None


def catalog_messages():
    """MSG_ macro name -> set of rule IDs, from every specs/*.md "## Messages" table."""
    msgs = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "specs", "*.md"))):
        section, fence = "", False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.lstrip().startswith("```"):
                    fence = not fence
                elif not fence and line.startswith("## "):
                    section = line.strip()
                elif not fence and section == "## Messages":
                    m = re.match(r"\|\s*(" + ID + r")\s*\|([^|]*)\|", line)
                    if m:
                        msgs["MSG_" + m.group(1).replace("-", "_")] = set(m.group(2).split())
    return msgs


def main():
    sources = {}
    for pattern in ("validators/**/*.c", "validators/**/*.h"):
        for path in glob.glob(os.path.join(ROOT, pattern), recursive=True):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            sources[os.path.relpath(path, ROOT)] = (text, code_only(text))
    functions = {}
    for text, code in sources.values():
        for m in re.finditer(r"\b(\w+)\s*\(([^;{()]*)\)", code):
            params = [p.strip() for p in text[m.start(2):m.end(2)].split(",")]
            rule = [k for k, p in enumerate(params) if re.match(r"enum tl_rule_id\b", p)]
            fmt = [k for k, p in enumerate(params) if re.fullmatch(r"const char \*\s*fmt", p)]
            if rule and fmt and fmt[0] + 1 < len(params) and params[fmt[0] + 1] in ("...", "va_list ap"):
                functions[m.group(1)] = (rule[0], fmt[0])
    msgs = catalog_messages()
    problems = []
    if functions:
        call = re.compile(r"\b(" + "|".join(functions) + r")\s*\(")
        for path, (text, code) in sorted(sources.items()):
            for m in call.finditer(code):
                line_start = code.rfind("\n", 0, m.start()) + 1
                if code[line_start] not in " \t":
                    continue                # a declaration or definition: calls are indented
                args = arguments(code, m.end() - 1)
                r, k = functions[m.group(1)]
                if not args or k >= len(args):
                    continue
                where = "%s:%d" % (path, text.count("\n", 0, m.start()) + 1)
                fmt = text[args[k][0]:args[k][1]]
                rules = {x[5:].replace("_", "-") for x in re.findall(r"\bRULE_\w+", text[args[r][0]:args[r][1]])}
                if re.search(r'"', code[args[k][0]:args[k][1]]):
                    problems.append("literal %s: %s( ... %s) writes its message instead of naming a catalog template"
                                    % (where, m.group(1), " ".join(fmt.split())))
                for name in re.findall(r"\bMSG_\w+", fmt):
                    if name not in msgs:
                        problems.append("undefined %s: %s is in no catalog's Messages table" % (where, name))
                    elif rules - msgs[name]:
                        problems.append("foreign %s: %s is not a template of %s" % (where, name, " ".join(sorted(rules - msgs[name]))))
                # A rendered message with a rule of its own says, in a comment on
                # the line before, which templates rendered it.
                before = text[text.rfind("\n", 0, line_start - 1) + 1:line_start]
                renderers = set(re.findall(r"\bMSG_\w+", before))
                if "TL_MSG_RENDERED" in fmt and rules and (not renderers or any(
                        n not in msgs or not msgs[n] & rules for n in renderers)):
                    problems.append("foreign %s: TL_MSG_RENDERED with %s (a rule's message is its catalog template)"
                                    % (where, " ".join(sorted(rules))))
    used = set()
    for text, code in sources.values():
        used.update(re.findall(r"\bMSG_\w+", code))
    for name in sorted(set(msgs) - used):
        problems.append("unused %s: no code under validators/ uses this catalog template" % name)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
