#!/usr/bin/env python3
"""Holds xray-fdr.ebnf and xray.ksy to each other:
  xray_crosscheck.py xray-fdr.ebnf xray.ksy
- every <Record> of the EBNF is a value of the ksy's metadata_kind or
  function_action enum (CamelCase there, snake_case here), or one of the
  header and basic-mode records, and every enum value is a record of the EBNF;
- the sizes the EBNF states ("N-byte metadata record", "<32-byte header>",
  ...) are the byte counts of the ksy types that read those records;
- the EBNF's preamble names the metadata kinds, in order, that the ksy's
  preamble type requires.
Prints one line per disagreement; exit status 1 if there is any."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grammar  # noqa: E402

WIDTH = {'u1': 1, 'u2': 2, 'u4': 4, 'u8': 8, 's1': 1, 's2': 2, 's4': 4, 's8': 8}


def load_yaml(path):
    """PyYAML when this python has it, else the js-yaml that make deps
    installs for ksy-check.js."""
    try:
        import yaml
    except ImportError:
        js = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'node_modules', 'js-yaml')
        out = subprocess.run(['node', '-e', 'const y = require(process.argv[1]);'
                              'process.stdout.write(JSON.stringify(y.load(require("fs")'
                              '.readFileSync(process.argv[2], "utf8"))))', js, path],
                             check=True, capture_output=True, text=True).stdout
        return json.loads(out)
    with open(path) as f:
        return yaml.safe_load(f)


def snake(name):
    name = re.sub(r'([a-z0-9])([A-Z])', r'\1_\2', name)
    name = re.sub(r'([A-Z]+)([A-Z][a-z])', r'\1_\2', name)
    return name.replace('__', '_').lower()


def fixed_size(types, name):
    """Bytes of the fixed part of a ksy type (fields under `if:` or with an
    open size are not counted); None if a field's size cannot be known."""
    total = 0
    for field in types[name].get('seq', []):
        if 'if' in field or 'repeat' in field or field.get('size-eos'):
            continue
        if isinstance(field.get('size'), int):
            total += field['size']
            continue
        t = field.get('type')
        if isinstance(t, str) and t in WIDTH:
            total += WIDTH[t]
        elif isinstance(t, str) and t.split('(')[0] in types:
            sub = fixed_size(types, t.split('(')[0])
            if sub is None:
                return None
            total += sub
        elif isinstance(t, dict):  # a switch: every case the same size
            sizes = {fixed_size(types, c) for c in t['cases'].values()}
            if len(sizes) != 1:
                return None
            total += sizes.pop()
        else:
            return None
    return total


def records(node, out):
    if node[0] == 'record':
        out.append(node[1])
    for c in grammar.children(node):
        records(c, out)
    return out


def main():
    ebnf_path, ksy_path = sys.argv[1:3]
    g = grammar.read_grammar(ebnf_path)
    with open(ebnf_path) as f:
        ebnf_text = f.read()
    ksy = load_yaml(ksy_path)
    types, enums = ksy['types'], ksy.get('enums', {})
    problems = []

    def enum_names(enum):
        return {(v['id'] if isinstance(v, dict) else v): k for k, v in enums.get(enum, {}).items()}
    kinds, actions = enum_names('metadata_kind'), enum_names('function_action')
    if not kinds or not actions:
        problems.append('xray.ksy has no metadata_kind or function_action enum')

    stated = {m.group(2): int(m.group(1))
              for m in re.finditer(r'(\d+)-byte (metadata|function|basic-mode) record', ebnf_text)}
    # The byte that tells a record's type is read by `record` itself.
    sizes = {'metadata': 1 + (fixed_size(types, 'metadata') or 0),
             'function': 1 + (fixed_size(types, 'function') or 0),
             'basic-mode': fixed_size(types, 'basic_record')}
    for what in ('metadata', 'function', 'basic-mode'):
        if stated.get(what) != sizes[what]:
            problems.append('%s record: the EBNF says %s bytes, the ksy reads %s'
                            % (what, stated.get(what), sizes[what]))

    seen = set()
    for name in sorted(set(sum((records(n, []) for n in g.rules.values()), []))):
        m = re.match(r'(\d+)-byte header$', name)
        if m:
            if int(m.group(1)) != fixed_size(types, 'header'):
                problems.append('<%s>: the ksy header reads %s bytes'
                                % (name, fixed_size(types, 'header')))
            continue
        if name in ('function record', 'argument payload'):  # basic mode
            continue
        key = snake(name)
        if key not in kinds and key not in actions:
            problems.append('<%s> (%s) is no metadata kind or function action of the ksy'
                            % (name, key))
        seen.add(key)
    for key in sorted(set(kinds) | set(actions)):
        if key not in seen:
            problems.append('the ksy names %s, the EBNF has no such record' % key)

    ebnf_pre = [snake(r) for r in records(g.rules['preamble'], [])]
    ksy_pre = []
    for field in types['preamble']['seq']:
        m = re.match(r'metadata_of_kind\((?:metadata_kind::(\w+)\.to_i|(\d+))\)', field['type'])
        if m:
            ksy_pre.append(m.group(1) or {v: k for k, v in kinds.items()}.get(int(m.group(2))))
    if ebnf_pre != ksy_pre:
        problems.append('preamble: the EBNF has %s, the ksy %s' % (ebnf_pre, ksy_pre))

    for p in problems:
        print(p)
    if not problems:
        print('ok: %d records, %d metadata kinds, %d function actions, preamble %s'
              % (len(seen), len(kinds), len(actions), ' '.join(ksy_pre)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
