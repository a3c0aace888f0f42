"""Reads an ABNF (RFC 5234/7405) or ISO 14977 EBNF grammar file into one small
tree, derives random sentences from it and recognises sentences with it.

Nodes are tuples:
  ('alt', [node...])  ('seq', [node...])  ('rep', min, max|None, node)
  ('lit', text, case_sensitive)  ('range', lo, hi)  ('ref', name)
  ('special', text)   an EBNF "? ... ?" sequence: never derived nor matched
  ('record', name)    an EBNF "<...>" terminal (a whole record of a binary
                      format, as in xray-fdr.ebnf): never derived nor matched
Only what the grammars of this directory use is read; anything else is a
SyntaxError naming the line, so a grammar edit cannot be misread silently."""
import random
import re

# RFC 5234 appendix B core rules that the grammars use.
ABNF_CORE = """
ALPHA = %x41-5A / %x61-7A
DIGIT = %x30-39
HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F"
OCTET = %x00-FF
LF = %x0A
CR = %x0D
SP = %x20
HTAB = %x09
"""


class Grammar:
    def __init__(self, rules, first):
        self.rules = rules  # name -> node
        self.first = first  # the first rule of the file
        for name in list(rules):
            self._check(rules[name], name)

    def _check(self, node, where):
        kind = node[0]
        if kind == 'ref' and node[1] not in self.rules:
            raise SyntaxError('%s: undefined rule %s' % (where, node[1]))
        for child in children(node):
            self._check(child, where)


def children(node):
    if node[0] in ('alt', 'seq'):
        return node[1]
    if node[0] == 'rep':
        return [node[3]]
    return []


# ---- ABNF -------------------------------------------------------------------

def _abnf_logical_lines(text):
    """Joins continuation lines (leading whitespace) and strips ; comments."""
    rules, cur = [], None
    for lineno, raw in enumerate(text.split('\n'), 1):
        line = _strip_abnf_comment(raw)
        if not line.strip():
            continue
        if line[0] in ' \t':
            if cur is None:
                raise SyntaxError('line %d: continuation without a rule' % lineno)
            cur[1] += ' ' + line.strip()
        else:
            cur = [lineno, line.strip()]
            rules.append(cur)
    return rules


def _strip_abnf_comment(line):
    out, quoted = [], False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif ch == ';' and not quoted:
            break
        out.append(ch)
    return ''.join(out).rstrip()


_ABNF_TOKEN = re.compile(r'''\s*(?:
    (?P<num>%[xdb][0-9A-Fa-f]+(?:(?:\.[0-9A-Fa-f]+)+|-[0-9A-Fa-f]+)?)
  | (?P<str>%[si]?"[^"]*"|"[^"]*")
  | (?P<rep>[0-9]*\*[0-9]*|[0-9]+)
  | (?P<name>[A-Za-z][A-Za-z0-9-]*)
  | (?P<op>[/()\[\]])
)''', re.X)


def _abnf_tokens(text, lineno):
    pos, out = 0, []
    while pos < len(text):
        if text[pos:].strip() == '':
            break
        m = _ABNF_TOKEN.match(text, pos)
        if not m:
            raise SyntaxError('line %d: cannot read %r' % (lineno, text[pos:pos + 20]))
        out.append((m.lastgroup, m.group(m.lastgroup)))
        pos = m.end()
    return out


def _abnf_num(tok):
    base = {'x': 16, 'd': 10, 'b': 2}[tok[1]]
    body = tok[2:]
    if '-' in body:
        lo, hi = body.split('-')
        return ('range', chr(int(lo, base)), chr(int(hi, base)))
    return ('lit', ''.join(chr(int(p, base)) for p in body.split('.')), True)


class _Parser:
    def __init__(self, toks, lineno):
        self.toks, self.i, self.lineno = toks, 0, lineno

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, want=None):
        tok = self.peek()
        if tok[0] is None or (want and tok[1] != want):
            raise SyntaxError('line %d: expected %s, got %r' % (self.lineno, want, tok[1]))
        self.i += 1
        return tok


def _abnf_alt(p):
    alts = [_abnf_seq(p)]
    while p.peek()[1] == '/':
        p.take()
        alts.append(_abnf_seq(p))
    return alts[0] if len(alts) == 1 else ('alt', alts)


def _abnf_seq(p):
    items = []
    while p.peek()[0] is not None and p.peek()[1] not in ('/', ')', ']'):
        items.append(_abnf_rep(p))
    if not items:
        raise SyntaxError('line %d: empty concatenation' % p.lineno)
    return items[0] if len(items) == 1 else ('seq', items)


def _abnf_rep(p):
    kind, tok = p.peek()
    if kind == 'rep':
        p.take()
        if '*' in tok:
            lo, hi = tok.split('*')
            lo, hi = int(lo or 0), (int(hi) if hi else None)
        else:
            lo = hi = int(tok)
        return ('rep', lo, hi, _abnf_element(p))
    return _abnf_element(p)


def _abnf_element(p):
    kind, tok = p.take()
    if kind == 'name':
        return ('ref', tok)
    if kind == 'num':
        return _abnf_num(tok)
    if kind == 'str':
        sensitive = tok.startswith('%s')
        return ('lit', tok[tok.index('"') + 1:-1], sensitive)
    if tok == '(':
        node = _abnf_alt(p)
        p.take(')')
        return node
    if tok == '[':
        node = _abnf_alt(p)
        p.take(']')
        return ('rep', 0, 1, node)
    raise SyntaxError('line %d: unexpected %r' % (p.lineno, tok))


def read_abnf(text):
    rules = {}
    mine = _abnf_logical_lines(text)
    for lineno, line in _abnf_logical_lines(ABNF_CORE) + mine:
        m = re.match(r'([A-Za-z][A-Za-z0-9-]*)\s*(=/|=)\s*(.*)$', line)
        if not m:
            raise SyntaxError('line %d: not a rule: %r' % (lineno, line))
        name, op, body = m.groups()
        p = _Parser(_abnf_tokens(body, lineno), lineno)
        node = _abnf_alt(p)
        if p.peek()[0] is not None:
            raise SyntaxError('line %d: trailing %r' % (lineno, p.peek()[1]))
        rules[name] = ('alt', [rules[name], node]) if op == '=/' else node
    first = re.match(r'[A-Za-z][A-Za-z0-9-]*', mine[0][1]).group(0)
    return Grammar(rules, first)


# ---- ISO 14977 EBNF ------------------------------------------------------------

_EBNF_TOKEN = re.compile(r'''\s*(?:
    (?P<str>"[^"]*"|'[^']*')
  | (?P<special>\?[^?]*\?)
  | (?P<record><[^>]*>)
  | (?P<name>[A-Za-z][A-Za-z0-9 _-]*[A-Za-z0-9]|[A-Za-z])
  | (?P<op>[=,|;()\[\]{}])
)''', re.X)


def read_ebnf(text):
    text = re.sub(r'\(\*.*?\*\)', ' ', text, flags=re.S)
    toks, pos = [], 0
    while text[pos:].strip():
        m = _EBNF_TOKEN.match(text, pos)
        if not m:
            raise SyntaxError('cannot read %r' % text[pos:pos + 20])
        kind, tok = m.lastgroup, m.group(m.lastgroup)
        toks.append((kind, tok.strip() if kind == 'name' else tok))
        pos = m.end()
    p = _Parser(toks, 0)
    rules, first = {}, None
    while p.peek()[0] is not None:
        name = p.take()[1]
        p.take('=')
        rules[name] = _ebnf_alt(p)
        p.take(';')
        first = first or name
    return Grammar(rules, first)


def _ebnf_alt(p):
    alts = [_ebnf_seq(p)]
    while p.peek()[1] == '|':
        p.take()
        alts.append(_ebnf_seq(p))
    return alts[0] if len(alts) == 1 else ('alt', alts)


def _ebnf_seq(p):
    items = [_ebnf_element(p)]
    while p.peek()[1] == ',':
        p.take()
        items.append(_ebnf_element(p))
    return items[0] if len(items) == 1 else ('seq', items)


def _ebnf_element(p):
    kind, tok = p.take()
    if kind == 'name':
        return ('ref', tok)
    if kind == 'str':
        return ('lit', tok[1:-1], True)
    if kind == 'special':
        return ('special', tok[1:-1].strip())
    if kind == 'record':
        return ('record', tok[1:-1].strip())
    close = {'(': ')', '[': ']', '{': '}'}.get(tok)
    if close is None:
        raise SyntaxError('unexpected %r' % tok)
    node = _ebnf_alt(p)
    p.take(close)
    if tok == '[':
        return ('rep', 0, 1, node)
    if tok == '{':
        return ('rep', 0, None, node)
    return node


def read_grammar(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    return read_ebnf(text) if path.endswith('.ebnf') else read_abnf(text)


# ---- derivation ---------------------------------------------------------------

class Reject(Exception):
    """Raised by a hook: this derivation cannot be completed; try again."""


class Generator:
    """Derives random sentences. Recursion is bounded: below max_depth every
    choice takes the alternative (or repetition count) that ends soonest.
    A repetition of at most 16 optional items takes any count; others add at
    most max_extra items. hooks maps a rule name
    to hook(gen, name, depth) -> str, which may call gen.derive_rule to get
    the grammar's own derivation; the hooks carry the semantic constraints.
    weights maps a rule to the weights of the alternatives of its body's
    first choice (uniform otherwise)."""

    def __init__(self, grammar, seed, max_depth=12, max_extra=4, hooks=None, weights=None):
        self.g = grammar
        self.weights = weights or {}  # rule name -> weights of its alternatives
        self.rng = random.Random(seed)
        self.max_depth = max_depth
        self.max_extra = max_extra
        self.hooks = hooks or {}
        self._height = {}
        for name in grammar.rules:
            self.height(('ref', name), ())

    def height(self, node, busy):
        """Levels of rule references needed to finish node (inf if none)."""
        kind = node[0]
        if kind == 'ref':
            name = node[1]
            if name in self._height:
                return self._height[name]
            if name in busy:
                return float('inf')
            h = 1 + self.height(self.g.rules[name], busy + (name,))
            if not busy or h != float('inf'):
                self._height[name] = h
            return h
        if kind == 'alt':
            return min(self.height(c, busy) for c in node[1])
        if kind == 'seq':
            return max(self.height(c, busy) for c in node[1])
        if kind == 'rep':
            return self.height(node[3], busy) if node[1] else 0
        if kind in ('special', 'record'):
            return float('inf')
        return 0

    def derive_rule(self, name, depth=0):
        node = self.g.rules[name]
        w = self.weights.get(name)
        if w and depth < self.max_depth:
            if node[0] == 'alt':
                node = self.rng.choices(node[1], weights=w)[0]
            elif node[0] == 'seq':  # the first choice of the concatenation
                i = next(i for i, c in enumerate(node[1]) if c[0] == 'alt')
                pick = self.rng.choices(node[1][i][1], weights=w)[0]
                node = ('seq', node[1][:i] + [pick] + node[1][i + 1:])
        return self.derive(node, depth + 1)

    def derive(self, node, depth=0):
        kind = node[0]
        rng = self.rng
        if kind == 'ref':
            hook = self.hooks.get(node[1])
            if hook:
                return hook(self, node[1], depth)
            return self.derive_rule(node[1], depth)
        if kind == 'lit':
            text = node[1]
            if not node[2]:
                text = ''.join(c.upper() if rng.random() < 0.5 else c.lower() for c in text)
            return text
        if kind == 'range':
            return chr(rng.randint(ord(node[1]), ord(node[2])))
        if kind == 'seq':
            return ''.join(self.derive(c, depth) for c in node[1])
        if kind == 'alt':
            alts = node[1]
            if depth >= self.max_depth:
                best = min(self.height(c, ()) for c in alts)
                alts = [c for c in alts if self.height(c, ()) == best]
            return self.derive(rng.choice(alts), depth)
        if kind == 'rep':
            lo, hi = node[1], node[2]
            # a short bounded range is used in full (limits are where readers err)
            top = hi if hi is not None and hi - lo <= 16 else lo + self.max_extra
            n = lo if depth >= self.max_depth else rng.randint(lo, top)
            return ''.join(self.derive(node[3], depth) for _ in range(n))
        raise Reject('cannot derive %s' % kind)


# ---- recognition --------------------------------------------------------------

class Recognizer:
    """Full-match test of a string against a rule: every parse is explored
    (memoised end positions per node and start), so the grammar's ambiguity
    needs no care. excepts maps a rule name to a predicate on the text a rule
    matched; a match it refuses does not count (the "any other ..." rules of a
    grammar, which exclude what their siblings name, are written this way)."""

    def __init__(self, grammar, excepts=None):
        self.g = grammar
        self.excepts = excepts or {}

    def matches(self, rule, text):
        self.text = text
        self.memo = {}
        return len(text) in self.ends(('ref', rule), 0)

    def ends(self, node, pos):
        key = (id(node), pos)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.memo[key] = frozenset()  # no left recursion: a cycle matches nothing
        got = frozenset(self._ends(node, pos))
        self.memo[key] = got
        return got

    def _ends(self, node, pos):
        kind, text = node[0], self.text
        if kind == 'ref':
            ends = self.ends(self.g.rules[node[1]], pos)
            keep = self.excepts.get(node[1])
            return {e for e in ends if keep(text[pos:e])} if keep else ends
        if kind == 'lit':
            frag = text[pos:pos + len(node[1])]
            same = frag == node[1] if node[2] else frag.lower() == node[1].lower()
            return {pos + len(node[1])} if same and len(frag) == len(node[1]) else set()
        if kind == 'range':
            return {pos + 1} if pos < len(text) and node[1] <= text[pos] <= node[2] else set()
        if kind == 'seq':
            cur = {pos}
            for c in node[1]:
                cur = {e for p in cur for e in self.ends(c, p)}
                if not cur:
                    break
            return cur
        if kind == 'alt':
            return {e for c in node[1] for e in self.ends(c, pos)}
        if kind == 'rep':
            lo, hi, body = node[1], node[2], node[3]
            out = {pos} if lo == 0 else set()
            cur, n, seen = {pos}, 0, {pos}
            while cur and (hi is None or n < hi):
                nxt = {e for p in cur for e in self.ends(body, p)}
                n += 1
                if hi is None and n >= lo:
                    # past the minimum, a position reached before adds nothing
                    nxt -= seen
                    seen |= nxt
                if n >= lo:
                    out |= nxt
                cur = nxt
            return out
        return set()


# ---- one-edit mutants ---------------------------------------------------------

def terminal_chars(grammar):
    """Every character a terminal of the grammar can be (ranges included)."""
    chars = set()

    def walk(node):
        if node[0] == 'lit':
            for c in node[1]:
                chars.update({c, c.lower(), c.upper()} if not node[2] else {c})
        elif node[0] == 'range':
            chars.update(chr(c) for c in range(ord(node[1]), ord(node[2]) + 1))
        for c in children(node):
            walk(c)
    for node in grammar.rules.values():
        walk(node)
    return chars


def mutate(text, rng, alphabet):
    """One edit: delete, insert or replace one character. Returns (op, text)."""
    ops = ['insert'] + (['delete', 'replace'] if text else [])
    op = rng.choice(ops)
    if op == 'insert':
        i = rng.randint(0, len(text))
        # now and then a copy of a neighbour: runs one longer, where limits are
        c = text[max(i - 1, 0)] if text and rng.random() < 0.25 else rng.choice(alphabet)
        return op, text[:i] + c + text[i:]
    i = rng.randrange(len(text))
    if op == 'delete':
        return op, text[:i] + text[i + 1:]
    return op, text[:i] + rng.choice(alphabet) + text[i + 1:]
