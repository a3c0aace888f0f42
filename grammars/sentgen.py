#!/usr/bin/env python3
"""Random sentences of the text grammars, wrapped into whole input files, with
the verdict tracelint must give each one (grammars/README.md, "Sentence
generator").

  sentgen.py FORMAT --seed S --count N [--mutants M] --out DIR [--prefix P]
             [--manifest FILE]

FORMAT is tfile (description lines from tfile.abnf) or dcfg-trace (edge-id
sequences and dictionary values from dcfg-sequence.ebnf). For each of N
sentences DIR gets a valid file and M one-edit mutants of it; DIR/expect.tsv
(or FILE) lists "FILE<TAB>accept|reject<TAB>why". A mutant's verdict comes from
re-reading it with the grammar and the format's constraints beyond the
grammar (the model below): a mutant still in the language is expected to be
accepted. Same seed, same files."""
import argparse
import os
import random
import sys
import xml.parsers.expat

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grammar  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
HEX = '0123456789abcdefABCDEF'


def is_hex(s):
    return s != '' and all(c in HEX for c in s)


# ---- tfile ----------------------------------------------------------------------

TF_PREFIXES = ('R ', 'status ', 'tp ', 'tsv ', 'tdesc ')
TF_KIND = {'R ': 'r-line', 'status ': 'status-line', 'tp ': 'tp-line', 'tsv ': 'tsv-line',
           'tdesc ': 'tdesc-line'}
STOP_REASONS = ('tunknown', 'tnotrun', 'tfull', 'tdisconnected', 'tpasscount', 'tstop', 'terror')
STATUS_KEYS = ('tframes', 'tcreated', 'tfree', 'tsize', 'disconn', 'circular', 'starttime',
               'stoptime', 'notes', 'username')
# The "any other ..." rules exclude what their siblings name (the ABNF says
# so in comments): an other-line has none of the five prefixes, an unknown
# status key is neither a known key nor a stop reason, an other-piece's letter
# is none of T, A, S, Z, V.
TF_EXCEPTS = {
    'other-line': lambda t: not t.startswith(TF_PREFIXES),
    'unknown-key': lambda t: t not in STATUS_KEYS + STOP_REASONS,
    'other-piece': lambda t: t[:1] not in 'TASZV',
}


class Tfile:
    """Description lines of a GDB tfile. The file around them is fixed: the
    header, the lines, the empty line, no frame, and tsave's end marker, so
    the frame rules (and the status counts compared with frames, warnings
    only) play no part. tdesc lines are not generated: their joined payloads
    must be XML with a <target> root, which the ABNF does not describe; a
    mutant that makes one is judged by an XML parser."""

    ext = '.tf'
    fuzz_target = 'tfile'

    def __init__(self, seed):
        self.g = grammar.read_grammar(os.path.join(HERE, 'tfile.abnf'))
        self.rec = grammar.Recognizer(self.g, TF_EXCEPTS)
        hooks = {
            'tdesc-line': self._no_tdesc,
            'other-line': self._other,
            'unknown-key': self._other,
            'other-piece': self._other,
            't-piece': self._piece('T'), 'a-piece': self._piece('A'),
            's-piece': self._piece('S'), 'z-piece': self._piece('Z'),
            'v-piece': self._piece('V'), 'location': self._location,
            'tpnum': self._tpnum, 'bytecode': self._bytecode, 'hex-name': self._hex_name,
        }
        # r, status, tsv, tp, tdesc, other lines; T, A, S, Z, V, other pieces
        weights = {'desc-line': [1, 2, 3, 8, 0, 1], 'tp-line': [4, 3, 1, 3, 1, 1]}
        self.gen = grammar.Generator(self.g, seed, max_depth=10, max_extra=3, hooks=hooks,
                                     weights=weights)
        self.rng = self.gen.rng
        printable = [chr(c) for c in range(0x20, 0x7f)]
        # Mutation symbols: the grammar's printable terminals, and the bytes
        # the line rules forbid (LF excluded: it separates the lines).
        self.alphabet = printable + list(':;,-' + HEX) * 2 + ['\x00', '\r', '\t', '\x7f', '\x80', '\xff']
        self.lines = []

    # -- hooks: choices the grammar leaves free but the model constrains
    def _no_tdesc(self, gen, name, depth):
        raise grammar.Reject('tdesc lines are not generated')

    def _other(self, gen, name, depth):
        for _ in range(20):
            text = gen.derive_rule(name, depth)
            if TF_EXCEPTS[name](text):
                return text
        raise grammar.Reject(name)

    def _piece(self, letter):
        def hook(gen, name, depth):
            self.piece = letter
            return gen.derive_rule(name, depth)
        return hook

    def _locations(self):
        out = []
        for line in self.lines:
            if line.startswith('tp T'):
                num, addr = line[4:].split(':')[:2]
                out.append('%s:%s:' % (num, addr))
        return out

    def _location(self, gen, name, depth):
        if self.piece != 'T' and self.rng.random() < 0.9:
            known = self._locations()
            if not known:
                raise grammar.Reject('no T piece yet')
            return self.rng.choice(known)
        return gen.derive_rule(name, depth)

    def _tpnum(self, gen, name, depth):
        return '%x' % self.rng.randint(1, 40)

    def _bytecode(self, gen, name, depth):
        n = self.rng.randint(1, 6)
        return '%x,%s' % (n, ''.join(self.rng.choice(HEX) for _ in range(2 * n)))

    def _hex_name(self, gen, name, depth):
        text = ''.join(self.rng.choice('abcdefghijklmnopqrstuvwxyz_$0123456789')
                       for _ in range(self.rng.randint(1, 8)))
        return text.encode().hex()

    # -- the sentence: a list of description lines
    def sentence(self):
        # The R line first, so that every trial file has its one R line;
        # then it moves to a random place (the model does not mind where).
        self.lines = []
        self._add(lambda: self.gen.derive_rule('r-line'))
        want = self.rng.randint(1, 10)
        while len(self.lines) < want:
            self._add(lambda: self.gen.derive_rule('desc-line'))
        r = self.lines.pop(0)
        self.lines.insert(self.rng.randint(0, len(self.lines)), r)
        return list(self.lines)

    def _add(self, make):
        for _ in range(200):
            try:
                self.piece = None
                line = make()
            except grammar.Reject:
                continue
            trial = self.lines + [line]
            if self.verdict(trial)[0]:
                self.lines = trial
                return
        raise RuntimeError('could not add a valid line')

    def mutant(self, lines):
        i = self.rng.randrange(len(lines))
        op, text = grammar.mutate(lines[i], self.rng, self.alphabet)
        return lines[:i] + [text] + lines[i + 1:], '%s in line %d' % (op, i + 1)

    def encode(self, lines):
        body = b''.join(line.encode('latin-1') + b'\n' for line in lines)
        return b'\x7fTRACE0\n' + body + b'\n' + b'\x00' * 6

    # -- the model: the grammar, then the constraints beyond it
    def verdict(self, lines):
        """(True, '') when tracelint must accept the file, else (False, why)."""
        rs, statuses, tsv_nums, tsv_names = [], 0, set(), set()
        t_locs, z_keys, needs_t, tdesc = set(), set(), [], []
        for n, line in enumerate(lines, 1):
            if line == '':
                return False, 'line %d: empty, the description ends early' % n
            if len(line.encode('latin-1')) > 999:
                return False, 'line %d: too long' % n
            kind = next((TF_KIND[p] for p in TF_PREFIXES if line.startswith(p)), 'other-line')
            if not self.rec.matches(kind, line):
                return False, 'line %d: not a %s' % (n, kind)
            if kind == 'r-line':
                rs.append(int(line[2:], 16))
            elif kind == 'status-line':
                statuses += 1
            elif kind == 'tdesc-line':
                tdesc.append(line[6:])
            elif kind == 'tsv-line':
                num, _, _, hname = line[4:].split(':')
                name = bytes.fromhex(hname)
                if not 1 <= int(num, 16) <= 0x7fffffff:
                    return False, 'line %d: tsv number out of range' % n
                if not all(0x20 <= b < 0x7f for b in name):
                    return False, 'line %d: tsv name not printable' % n
                if int(num, 16) in tsv_nums or name in tsv_names:
                    return False, 'line %d: tsv defined twice' % n
                tsv_nums.add(int(num, 16))
                tsv_names.add(name)
            elif kind == 'tp-line':
                why = self._tp(line[3:], t_locs, z_keys, needs_t)
                if why:
                    return False, 'line %d: %s' % (n, why)
        if len(rs) != 1:
            return False, '%d R lines' % len(rs)
        if rs[0] == 0:
            return False, 'R size 0'
        if statuses > 1:
            return False, 'two status lines'
        if any(loc not in t_locs for loc in needs_t):
            return False, 'a piece without a T piece'
        if tdesc and not tdesc_ok('\n'.join(tdesc)):
            return False, 'tdesc is not a target description'
        return True, ''

    @staticmethod
    def _tp(payload, t_locs, z_keys, needs_t):
        letter, rest = payload[0], payload[1:].split(':')
        if letter not in 'TASZV':
            return None  # an other-piece: ignored
        num, addr = int(rest[0], 16), int(rest[1], 16)
        if not 1 <= num <= 0x7fff:
            return 'tracepoint number out of range'
        loc = (num, addr)
        body = payload[1:].split(':', 2)[2]
        if letter == 'T':
            if loc in t_locs:
                return 'a second T piece'
            t_locs.add(loc)
            options = body.split(':')[3:]
            letters = [o[0] for o in options]
            if len(set(letters)) != len(letters):
                return 'a T option twice'
            if any(o[0] == 'X' and not bytecode_ok(o[1:]) for o in options):
                return 'bytecode length'
        elif letter in 'AS':
            needs_t.append(loc)
            for i, c in enumerate(body):
                if c == 'X':
                    j = i + 1
                    while j < len(body) and (body[j] in HEX or body[j] == ','):
                        j += 1
                    if not bytecode_ok(body[i + 1:j]):
                        return 'bytecode length'
        elif letter == 'Z':
            needs_t.append(loc)
            ztype = body.split(':')[0]
            if ztype in ('at', 'cond'):
                if (loc, ztype) in z_keys:
                    return 'a second Z %s' % ztype
                z_keys.add((loc, ztype))
        elif letter == 'V':
            needs_t.append(loc)
        return None


def bytecode_ok(text):
    """LEN,DIGITS with exactly 2*LEN digits, LEN >= 1."""
    length, _, digits = text.partition(',')
    return is_hex(length) and int(length, 16) >= 1 and len(digits) == 2 * int(length, 16)


def tdesc_ok(doc):
    root = []
    p = xml.parsers.expat.ParserCreate()

    def start(name, attrs):
        if not root:
            root.append(name)
        if name == 'xi:include':
            root.append(None)
    p.StartElementHandler = start
    try:
        p.Parse(doc, True)
    except xml.parsers.expat.ExpatError:
        return False
    return root[:1] == ['target'] and None not in root


# ---- DCFG-trace ---------------------------------------------------------------------

B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-'
MAX_EDGES = 10 ** 6  # longer expansions are not written (decode time under ASan)


class DcfgTrace:
    """A DCFG-trace with one process, one thread and one chunk. The sentence is
    the chunk's EDGE_ID_SEQUENCE plus the dictionary values it may refer to.
    The transition table gives every edge 64 successors with the 64 six-bit
    codes, so every base64 character is exactly one transition: any sentence
    of the grammar decodes, and EDGE_COUNT is 1 + the expanded length. The
    semantic constraints are kept by the generator (references name defined
    keys, dictionary entries refer only to earlier ones, counts are small) and
    checked by the model (DTRACE-DICT-REF, -DICT-CYCLE, -REPEAT-COUNT)."""

    ext = '.trace.json'
    fuzz_target = 'dcfg_trace'

    def __init__(self, seed):
        self.g = grammar.read_grammar(os.path.join(HERE, 'dcfg-sequence.ebnf'))
        self.rec = grammar.Recognizer(self.g)
        hooks = {'reference': self._reference, 'count': self._count, 'key': self._key}
        self.gen = grammar.Generator(self.g, seed, max_depth=9, max_extra=4, hooks=hooks)
        self.rng = self.gen.rng
        self.alphabet = sorted(grammar.terminal_chars(self.g)) + list('()*<>') * 6 + list(' #._=!')
        self.keys = []

    def _reference(self, gen, name, depth):
        if not self.keys:
            raise grammar.Reject('no dictionary key')
        return '<%s>' % self.rng.choice(self.keys)

    def _count(self, gen, name, depth):
        return str(self.rng.choice([0, 1, 2, 3, 5, 7, 12]))

    def _key(self, gen, name, depth):
        for _ in range(20):
            key = gen.derive_rule(name, depth)
            if key not in self.keys:
                return key
        raise grammar.Reject('no fresh key')

    def _derive(self, rule):
        for _ in range(100):
            try:
                return self.gen.derive_rule(rule)
            except grammar.Reject:
                continue
        return ''

    def sentence(self):
        """(dictionary as a list of (key, value), sequence)."""
        while True:
            self.keys = []
            entries = []
            for _ in range(self.rng.randint(0, 3)):
                value = self._derive('sequence')  # refers to earlier keys only
                key = self._key(self.gen, 'key', 0)
                self.keys.append(key)
                entries.append((key, value))
            seq = self._derive('sequence')
            if self.verdict((entries, seq))[0] and self.edges((entries, seq)) <= 5000:
                return entries, seq

    def mutant(self, sent):
        entries, seq = sent
        if entries and self.rng.random() < 0.3:
            i = self.rng.randrange(len(entries))
            op, value = grammar.mutate(entries[i][1], self.rng, self.alphabet)
            entries = entries[:i] + [(entries[i][0], value)] + entries[i + 1:]
            return (entries, seq), '%s in the value of key %s' % (op, entries[i][0])
        op, seq = grammar.mutate(seq, self.rng, self.alphabet)
        return (entries, seq), '%s in the sequence' % op

    def verdict(self, sent):
        entries, seq = sent
        for text in [v for _, v in entries] + [seq]:
            if not self.rec.matches('sequence', text):
                return False, 'not a sequence: %s' % text
        values = dict(entries)
        for text in [v for _, v in entries] + [seq]:
            for item in parse_seq(text):
                if item[0] == 'ref' and item[1] not in values:
                    return False, 'undefined key %s' % item[1]
                if item[0] == 'count' and item[1] >= 2 ** 64:
                    return False, 'repeat count too large'
        state = {}

        def visit(key):
            if state.get(key) == 'busy':
                return True
            if state.get(key) == 'done':
                return False
            state[key] = 'busy'
            cyc = any(it[0] == 'ref' and visit(it[1]) for it in parse_seq(values[key]))
            state[key] = 'done'
            return cyc
        if any(visit(k) for k in values):
            return False, 'dictionary cycle'
        return True, ''

    def edges(self, sent):
        entries, seq = sent
        values = dict(entries)
        memo = {}

        def length(text):
            if text not in memo:
                memo[text] = expand_len(text, lambda k: length(values[k]))
            return memo[text]
        return 1 + length(seq)

    def encode(self, sent):
        entries, seq = sent
        ok, _ = self.verdict(sent)
        # EDGE_COUNT follows the sentence when it is valid (a mutant in the
        # language decodes in full); otherwise the count is moot.
        count = self.edges(sent) if ok else 1 + len(seq)
        r = random.Random(len(seq) + 7 * len(entries))
        states = r.randint(1, 4)
        rows = []
        for s in range(1, states + 1):
            for code in range(64):
                rows.append('[%d, "%s", [%d]]' % (s, format(code, '06b'), r.randint(1, states)))
        dic = ', '.join('"%s": "%s"' % (k, v) for k, v in entries)
        return ('{\n"MAJOR_VERSION": 1,\n"MINOR_VERSION": 0,\n"PROCESSES": [\n'
                '["PROCESS_ID", "STRING_DICTIONARY", "TRANSITION_TABLE", "THREAD_DATA"],\n'
                '[1, {%s},\n[["CURRENT_EDGE_ID", "TRANSITION_CODE", "NEXT_EDGE_IDS"],\n%s],\n'
                '[["THREAD_ID", "TRACE_DATA"], [0, [["PRECEDING_INSTR_COUNT", "INSTR_COUNT", '
                '"EDGE_COUNT", "FIRST_EDGE_ID", "EDGE_ID_SEQUENCE"],\n[0, %d, %d, 1, "%s"]]]]]]}\n'
                % (dic, ',\n'.join(rows), count, count, seq)).encode()


def parse_seq(text):
    """The items of a sequence the grammar accepts, flattened:
    ('ref', key), ('count', n), ('char', c)."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == '<':
            j = text.index('>', i)
            out.append(('ref', text[i + 1:j]))
            i = j + 1
        elif c == '(':
            j = text.index('*', i)
            out.append(('count', int(text[i + 1:j])))
            i = j + 1
        elif c == ')':
            i += 1
        else:
            out.append(('char', c))
            i += 1
    return out


def expand_len(text, ref_len):
    """Expanded length in characters of a sequence the grammar accepts."""
    stack = [[0, 1]]  # per open group: length so far, count
    i = 0
    while i < len(text):
        c = text[i]
        if c == '<':
            j = text.index('>', i)
            stack[-1][0] += ref_len(text[i + 1:j])
            i = j + 1
        elif c == '(':
            j = text.index('*', i)
            stack.append([0, int(text[i + 1:j])])
            i = j + 1
        elif c == ')':
            n, count = stack.pop()
            stack[-1][0] += n * count
            i += 1
        else:
            stack[-1][0] += 1
            i += 1
    return stack[0][0]


FORMATS = {'tfile': Tfile, 'dcfg-trace': DcfgTrace}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('format', choices=sorted(FORMATS))
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=20)
    ap.add_argument('--mutants', type=int, default=4)
    ap.add_argument('--out', required=True)
    ap.add_argument('--prefix', default='', help='prefix of the file names')
    ap.add_argument('--manifest', help='where the verdicts go (default OUT/expect.tsv)')
    args = ap.parse_args()
    fmt = FORMATS[args.format](args.seed)
    os.makedirs(args.out, exist_ok=True)
    rows = []

    def write(name, sent, want, why):
        data = fmt.encode(sent)
        with open(os.path.join(args.out, name), 'wb') as f:
            f.write(data)
        rows.append('%s\t%s\t%s\n' % (name, 'accept' if want else 'reject', why))

    for n in range(args.count):
        sent = fmt.sentence()
        ok, why = fmt.verdict(sent)
        assert ok, 'generated an invalid sentence: %s' % why
        write('%svalid-%03d%s' % (args.prefix, n, fmt.ext), sent, True, 'generated')
        for m in range(args.mutants):
            mut, how = fmt.mutant(sent)
            ok, why = fmt.verdict(mut)
            if ok and hasattr(fmt, 'edges') and fmt.edges(mut) > MAX_EDGES:
                continue
            write('%smutant-%03d-%d%s' % (args.prefix, n, m, fmt.ext), mut, ok,
                  how + ('; still in the language' if ok else '; ' + why))
    with open(args.manifest or os.path.join(args.out, 'expect.tsv'), 'w') as f:
        f.writelines(rows)


if __name__ == '__main__':
    main()
